import { queryOptions } from "@tanstack/react-query";

import { fetchJson } from "@/components/query/fetch-json";
import type { WorkspaceOverview } from "@/lib/overview/schema";
import type { WorkspaceStatus } from "@/lib/pipeline/schema";

/**
 * The home page's keys. The status sits under the overview's root: WorkspaceEvents refetches
 * `overview` queries on every change (/api/events), the pipeline's "a stage worth watching began" among them.
 */
export const overviewKeys = { all: ["overview"] as const, status: ["overview", "workspace-status"] as const };

/** How often the home page asks for the workspace's status while it is not ready, in ms. */
export const STATUS_POLL_MS = 2_000;

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

/**
 * The workspace's status (issue 36 item 2): polled every {@link STATUS_POLL_MS} while the
 * workspace is syncing, cataloguing or indexing, not at all once ready; a change pushed by
 * WorkspaceEvents (a stage that runs long enough to watch is announced) refetches it, and polling resumes.
 */
export const workspaceStatusQuery = (initialData: WorkspaceStatus) =>
  queryOptions({
    queryKey: overviewKeys.status,
    queryFn: ({ signal }) => fetchJson<WorkspaceStatus>("/api/workspace-status", { signal }),
    initialData,
    refetchInterval: (query) => (query.state.data?.phase === "ready" ? false : STATUS_POLL_MS),
  });
