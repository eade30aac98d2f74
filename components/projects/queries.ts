import { queryOptions } from "@tanstack/react-query";

import { fetchJson } from "@/components/query/fetch-json";
import type { WorkspaceOverview } from "@/lib/overview/schema";

/** Fallback re-read of coverage; changes arrive first by push (WorkspaceEvents, /api/events). */
export const OVERVIEW_POLL_MS = 5_000;

export const overviewKeys = { all: ["overview"] as const };

export const overviewQuery = (initialData: WorkspaceOverview) =>
  queryOptions({
    queryKey: overviewKeys.all,
    queryFn: ({ signal }) => fetchJson<WorkspaceOverview>("/api/overview", { signal }),
    initialData,
    refetchInterval: OVERVIEW_POLL_MS,
  });
