import { queryOptions } from "@tanstack/react-query";

import { fetchJson } from "@/components/query/fetch-json";
import type { WorkspaceOverview } from "@/lib/overview/schema";

/** The home page re-reads coverage this often, so agent writes show within 2 s (issue 4, "Live"). */
export const OVERVIEW_POLL_MS = 1_000;

export const overviewKeys = { all: ["overview"] as const };

export const overviewQuery = (initialData: WorkspaceOverview) =>
  queryOptions({
    queryKey: overviewKeys.all,
    queryFn: ({ signal }) => fetchJson<WorkspaceOverview>("/api/overview", { signal }),
    initialData,
    refetchInterval: OVERVIEW_POLL_MS,
  });
