import { type QueryClient, keepPreviousData, queryOptions, useInfiniteQuery, useQueries } from "@tanstack/react-query";
import { useMemo } from "react";

import { browserGcTime } from "@/components/providers/get-query-client";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import type { SessionTurn, SessionTurnsPage } from "@/lib/workspace/schema";

/**
 * The session page's turns (issue 13): never the whole list. The rows ask for the turns of the
 * line windows they show, the side list for pages of {@link SIDEBAR_TURNS_PAGE}, and `[` / `]`
 * for the one turn before or after a line, all through the `list_session_turns` tool.
 */

/** Lines per turn window: the labels and bands of the rows shown come from the windows they touch. */
export const TURN_WINDOW_LINES = 4000;
/** Turns per page of the side list. */
export const SIDEBAR_TURNS_PAGE = 200;
/** Turns one window may list (a window of one-line turns lists the first ones only). */
const WINDOW_TURNS_LIMIT = 2000;

/** Which session's turns: main transcripts only (a subagent transcript has no indexed turns). */
export type TurnsTarget = { projectKey: string; sessionRef: string };

const turnKeys = {
  all: ["turns"] as const,
  session: (t: TurnsTarget) => [...turnKeys.all, t.projectKey, t.sessionRef] as const,
};

function fetchTurns(t: TurnsTarget, params: Record<string, string | number | undefined>, signal?: AbortSignal): Promise<SessionTurnsPage> {
  return fetchJson<SessionTurnsPage>(`/api/projects/${encodeURIComponent(t.projectKey)}/sessions/${encodeURIComponent(t.sessionRef)}/turns?${toSearchParams(params)}`, { signal });
}

const turnWindowQuery = (t: TurnsTarget, index: number) =>
  queryOptions({
    queryKey: [...turnKeys.session(t), "window", index] as const,
    queryFn: ({ signal }) => fetchTurns(t, { line: index * TURN_WINDOW_LINES + 1, to_line: (index + 1) * TURN_WINDOW_LINES, limit: WINDOW_TURNS_LIMIT }, signal),
    staleTime: 5 * 60_000,
    gcTime: browserGcTime(60_000),
  });

/**
 * The turns touching lines `first … last` (1-based), sorted by start and deduplicated, each with
 * its ordinal; empty while loading or when `enabled` is false (a subagent transcript).
 */
export function useVisibleTurns(t: TurnsTarget, first: number, last: number, enabled: boolean): readonly SessionTurn[] {
  const from = Math.floor((Math.max(1, first) - 1) / TURN_WINDOW_LINES);
  const to = Math.floor((Math.max(first, last, 1) - 1) / TURN_WINDOW_LINES);
  const indexes: number[] = [];
  if (enabled) for (let i = from; i <= to; i += 1) indexes.push(i);
  const results = useQueries({ queries: indexes.map((i) => ({ ...turnWindowQuery(t, i), placeholderData: keepPreviousData })) });
  const pages = results.map((r) => r.data);
  const key = pages.map((p) => (p ? `${p.offset}:${p.turns.length}` : "-")).join(",");
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the pages' content; `pages` is a new array every render
  return useMemo(() => mergeTurns(pages), [key]);
}

function mergeTurns(pages: readonly (SessionTurnsPage | undefined)[]): SessionTurn[] {
  const byOrdinal = new Map<number, SessionTurn>();
  for (const page of pages) for (const turn of page?.turns ?? []) byOrdinal.set(turn.ordinal, turn);
  return [...byOrdinal.values()].sort((a, b) => a.ordinal - b.ordinal);
}

/**
 * The turn `[` or `]` moves to from `line`: `]` the first turn starting after it; `[` the turn
 * containing it when the line is not that turn's first, else the last turn starting before it.
 * Null when there is none.
 */
export async function stepTurnFrom(queryClient: QueryClient, t: TurnsTarget, line: number, delta: 1 | -1): Promise<SessionTurn | null> {
  const around = await queryClient.fetchQuery({
    queryKey: [...turnKeys.session(t), "around", line] as const,
    queryFn: ({ signal }) => fetchTurns(t, { line, limit: 2 }, signal),
    staleTime: 60_000,
  });
  const [here, after] = around.turns;
  if (delta > 0) return here && here.turn_start_line > line ? here : (after ?? null);
  if (here && here.turn_start_line < line) return here;
  const previous = around.offset - 1;
  if (previous < 0) return null;
  const page = await queryClient.fetchQuery({
    queryKey: [...turnKeys.session(t), "at", previous] as const,
    queryFn: ({ signal }) => fetchTurns(t, { offset: previous, limit: 1 }, signal),
    staleTime: 60_000,
  });
  return page.turns[0] ?? null;
}

/** The side list: pages of {@link SIDEBAR_TURNS_PAGE} turns with their token usage, the next page on demand. */
export function useTurnList(t: TurnsTarget, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...turnKeys.session(t), "list"] as const,
    queryFn: ({ pageParam, signal }) => fetchTurns(t, { offset: pageParam, limit: SIDEBAR_TURNS_PAGE, usage: "true" }, signal),
    initialPageParam: 0,
    getNextPageParam: (last: SessionTurnsPage) => (last.offset + last.turns.length < last.total_turns ? last.offset + last.turns.length : undefined),
    staleTime: 5 * 60_000,
    enabled,
  });
}
