import { type QueryClient, hashKey, queryOptions } from "@tanstack/react-query";

import { browserGcTime } from "@/components/providers/get-query-client";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import { MAX_COMPACT_LINES, MAX_FULL_LINES, type ReadMode, type ViewerLinesResult } from "@/lib/session-reader/schema";

/** Lines per request: small enough to stay light, within the API caps (2000 compact / 100 full). */
export const WINDOW_LINES: Record<ReadMode, number> = {
  compact: Math.min(200, MAX_COMPACT_LINES),
  full: Math.min(100, MAX_FULL_LINES),
};

/** The browser keeps at most this many windows; older inactive ones are dropped (plus a short gcTime). */
export const MAX_CACHED_WINDOWS = 10;

/** Which transcript the viewer shows: the main session, or one of its subagents. */
export type ViewerTarget = { projectKey: string; sessionRef: string; agentId: string | null; lineCount: number };

export const viewerKeys = {
  all: ["viewer"] as const,
  target: (t: ViewerTarget) => [...viewerKeys.all, t.projectKey, t.sessionRef, t.agentId ?? "", t.lineCount] as const,
  window: (t: ViewerTarget, mode: ReadMode, index: number) => [...viewerKeys.target(t), mode, index] as const,
};

export function windowBounds(mode: ReadMode, index: number, lineCount: number) {
  const size = WINDOW_LINES[mode];
  const start = index * size + 1;
  return { start, end: Math.min(lineCount, start + size - 1) };
}

export const lineWindowQuery = (t: ViewerTarget, mode: ReadMode, index: number) => {
  const { start, end } = windowBounds(mode, index, t.lineCount);
  return queryOptions({
    queryKey: viewerKeys.window(t, mode, index),
    queryFn: ({ signal }) =>
      fetchJson<ViewerLinesResult>(
        `/api/projects/${encodeURIComponent(t.projectKey)}/sessions/${encodeURIComponent(t.sessionRef)}/lines?${toSearchParams(
          { start, end, mode, agent: t.agentId },
        )}`,
        { signal },
      ),
    staleTime: 5 * 60_000,
    gcTime: browserGcTime(15_000),
  });
};

/**
 * Drops the oldest inactive windows of one transcript beyond MAX_CACHED_WINDOWS, so a long
 * scroll through a huge file does not pile up megabytes of records (gcTime alone waits).
 */
export function pruneLineWindows(queryClient: QueryClient, t: ViewerTarget, keepHashes: ReadonlySet<string>): void {
  const cache = queryClient.getQueryCache();
  const all = cache.findAll({ queryKey: viewerKeys.target(t) });
  const excess = all.length - MAX_CACHED_WINDOWS;
  if (excess <= 0) return;
  const removable = all
    .filter((q) => q.getObserversCount() === 0 && !keepHashes.has(q.queryHash))
    .sort((a, b) => a.state.dataUpdatedAt - b.state.dataUpdatedAt);
  for (const q of removable.slice(0, excess)) cache.remove(q);
}

export const windowHash = (t: ViewerTarget, mode: ReadMode, index: number) => hashKey(viewerKeys.window(t, mode, index));
