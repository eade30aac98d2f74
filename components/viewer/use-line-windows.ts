import { type UseQueryResult, useQueries, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

import { useDebouncedValue } from "@/components/hooks/use-debounced-value";
import type { ViewerCompactRecord, ReadMode, ViewerFullRecord, ViewerLinesResult } from "@/lib/session-reader/schema";

import { lineWindowQuery, pruneLineWindows, type ViewerTarget, WINDOW_LINES, windowHash } from "./queries";

/** A scrollbar drag crosses many windows: only fetch the ones the view settles on. */
const FETCH_SETTLE_MS = 80;
/** Fetch the neighbouring window a little before its rows scroll into the overscan. */
const PREFETCH_LINES = 40;

export type LineSlot =
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; record: ViewerCompactRecord | ViewerFullRecord };

export type LineWindows = {
  slot: (line: number) => LineSlot;
  failed: { index: number; start: number; end: number; message: string; retry: () => void }[];
};

function recordAt(data: ViewerLinesResult, line: number) {
  const records: (ViewerCompactRecord | ViewerFullRecord)[] = data.records;
  const guess = records[line - data.line_range.start];
  return guess?.line === line ? guess : records.find((r) => r.line === line);
}

/**
 * Fetches the windows (WINDOW_LINES[mode] lines each) that cover the rendered lines
 * [firstLine, lastLine], one useQuery per window key; cached windows render at once.
 */
export function useLineWindows(target: ViewerTarget, mode: ReadMode, firstLine: number, lastLine: number): LineWindows {
  const size = WINDOW_LINES[mode];
  const indexes: number[] = [];
  if (target.lineCount > 0 && lastLine >= firstLine) {
    const from = Math.max(1, firstLine - PREFETCH_LINES);
    const to = Math.min(target.lineCount, lastLine + PREFETCH_LINES);
    for (let w = Math.floor((from - 1) / size); w <= Math.floor((to - 1) / size); w++) indexes.push(w);
  }
  const wantedKey = `${mode}:${indexes.join(",")}`;
  const settled = useDebouncedValue(wantedKey, FETCH_SETTLE_MS) === wantedKey;

  const results: UseQueryResult<ViewerLinesResult>[] = useQueries({
    queries: indexes.map((index) => ({ ...lineWindowQuery(target, mode, index), enabled: settled })),
  });

  const queryClient = useQueryClient();
  const { projectKey, sessionRef, agentId, lineCount } = target;
  useEffect(() => {
    const t = { projectKey, sessionRef, agentId, lineCount };
    const [wantedMode, list] = wantedKey.split(":") as [ReadMode, string];
    const keep = new Set(list ? list.split(",").map((w) => windowHash(t, wantedMode, Number(w))) : []);
    pruneLineWindows(queryClient, t, keep);
  }, [queryClient, projectKey, sessionRef, agentId, lineCount, wantedKey]);

  const byIndex = new Map(indexes.map((index, i) => [index, results[i]!]));

  const slot = (line: number): LineSlot => {
    const result = byIndex.get(Math.floor((line - 1) / size));
    if (!result) return { status: "loading" };
    if (result.data) {
      const record = recordAt(result.data, line);
      if (record) return { status: "ready", record };
      // A partial window (the page's first rows) is being completed by its fetch.
      if (line > result.data.line_range.end && !result.isError) return { status: "loading" };
      return { status: "error", message: "Line missing from response." };
    }
    if (result.isError) return { status: "error", message: result.error.message };
    return { status: "loading" };
  };

  const failed = indexes.flatMap((index, i) => {
    const result = results[i]!;
    if (!result.isError || result.data) return [];
    const start = index * size + 1;
    return [{ index, start, end: Math.min(lineCount, start + size - 1), message: result.error.message, retry: () => void result.refetch() }];
  });

  return { slot, failed };
}
