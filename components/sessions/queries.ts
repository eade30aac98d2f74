import { infiniteQueryOptions, keepPreviousData } from "@tanstack/react-query";

import type { ListSessionsResult } from "@/lib/workspace/schema";

import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import type { SessionListParams } from "./session-list-params";

/** How often a project's list and risk summary are asked again while a session's risk is being computed (list_sessions' `risk_pending`). */
export const RISK_POLL_MS = 2000;

/** Rows per server page; the table fetches the next page near the end of what is loaded. */
export const SESSION_PAGE_SIZE = 50;

export const sessionKeys = {
  all: ["sessions"] as const,
  list: (projectKey: string, params: SessionListParams) => [...sessionKeys.all, "list", projectKey, params] as const,
};

export const sessionListInfiniteQuery = (projectKey: string, params: SessionListParams) =>
  infiniteQueryOptions({
    queryKey: sessionKeys.list(projectKey, params),
    queryFn: ({ pageParam, signal }) =>
      fetchJson<ListSessionsResult>(
        `/api/projects/${encodeURIComponent(projectKey)}/sessions?${toSearchParams({
          limit: SESSION_PAGE_SIZE,
          offset: pageParam,
          sort: params.sort,
          order: params.order,
          q: params.q,
          risk: params.risk,
          source: params.source,
          machine: params.machine,
        })}`,
        { signal },
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.count;
      return last.count > 0 && next < last.total ? next : undefined;
    },
    // Keep showing the old rows while a new sort or filter loads, instead of flashing empty.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
