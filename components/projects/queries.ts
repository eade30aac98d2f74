import { queryOptions } from "@tanstack/react-query";

import { fetchJson } from "@/components/query/fetch-json";
import type { WorkspaceOverview } from "@/lib/overview/schema";

export const overviewKeys = { all: ["overview"] as const };

/**
 * The home page's overview. Not polled (issue 25): changes arrive by push (WorkspaceEvents,
 * /api/events), which invalidates this query; the server answers from the catalog.
 */
export const overviewQuery = (initialData: WorkspaceOverview) =>
  queryOptions({
    queryKey: overviewKeys.all,
    queryFn: ({ signal }) => fetchJson<WorkspaceOverview>("/api/overview", { signal }),
    initialData,
  });
