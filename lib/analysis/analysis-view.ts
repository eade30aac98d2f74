// What the Analysis tab shows of a session's analysis: the token chart's thinned series and the summary with its tables cut.
import type { AnalysisSummary, SessionAnalysis, TokenChartData, TokenPoint } from "@/lib/analysis/schema";

/**
 * Rows a table of the Analysis tab shows before "Show all": a 1 GB session has ~20,000 reads, far
 * too many to render at once, and 200 rows of each table were ~800 KB of the page's HTML and RSC
 * payload (issue 29).
 */
export const TABLE_ROWS = 50;

/** At most this many points are sent to the chart: a canvas draws more, but each costs bytes on the wire. */
export const MAX_CHART_POINTS = 2000;

/**
 * The token points to draw: all of them when there are at most `max`, else a shape-keeping
 * subset in line order — per bucket of consecutive points, the ones holding the bucket's lowest
 * and highest cache read (so every drop, a context reset's shape, stays visible), plus every point
 * on a line in `keepLines` (the resets, so each marker sits on the drawn line). Pure; the input
 * is not changed. A 1 GB session has ~94,000 points (~5 MB as JSON objects).
 */
export function chartPoints(points: readonly TokenPoint[], keepLines: ReadonlySet<number>, max = MAX_CHART_POINTS): readonly TokenPoint[] {
  if (points.length <= max) return points;
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = points.length / buckets;
  const kept: TokenPoint[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    let low = from;
    let high = from;
    for (let i = from; i < to; i++) {
      if (points[i]!.cache_read < points[low]!.cache_read) low = i;
      if (points[i]!.cache_read > points[high]!.cache_read) high = i;
    }
    for (let i = from; i < to; i++) {
      if (i === low || i === high || keepLines.has(points[i]!.line)) kept.push(points[i]!);
    }
  }
  return kept;
}

/**
 * At most this many reset markers are drawn: each is a focusable SVG link, and thousands of them
 * are slow to mount and merge into one band anyway.
 */
export const MAX_CHART_MARKERS = 400;

/**
 * The context resets to mark on the chart: all of them when there are at most `max`, else, per
 * stretch of `lineCount / max` lines, the one with the largest drop (`from_tokens - to_tokens`;
 * the first on a tie), in line order. The resets table still lists every one. Pure.
 * @param resets in line order, as the analysis gives them.
 * @param lineCount the session's physical lines (the chart's x range).
 */
export function chartResets<R extends { session_line: number; from_tokens: number; to_tokens: number }>(resets: readonly R[], lineCount: number, max = MAX_CHART_MARKERS): readonly R[] {
  if (resets.length <= max) return resets;
  const span = Math.max(1, lineCount) / max;
  const kept: R[] = [];
  let bucket = -1;
  for (const r of resets) {
    const b = Math.min(max - 1, Math.floor((r.session_line - 1) / span));
    const last = kept.at(-1);
    if (b !== bucket || last === undefined) {
      kept.push(r);
      bucket = b;
    } else if (r.from_tokens - r.to_tokens > last.from_tokens - last.to_tokens) kept[kept.length - 1] = r;
  }
  return kept;
}

/** {@link TokenChartData} of an analysis (pure). */
export function tokenChartOf(a: Pick<SessionAnalysis, "line_count" | "token_points" | "resets">, maxPoints = MAX_CHART_POINTS): TokenChartData {
  const marked = chartResets(a.resets, a.line_count);
  const points = chartPoints(a.token_points, new Set(marked.map((r) => r.session_line)), maxPoints);
  const noCreation = points.some((p) => p.cache_creation === null);
  return {
    line_count: a.line_count,
    point_total: a.token_points.length,
    points: {
      line: points.map((p) => p.line),
      cache_read: points.map((p) => p.cache_read),
      input: points.map((p) => p.input),
      cache_creation: noCreation ? null : points.map((p) => p.cache_creation ?? 0),
    },
    reset_total: a.resets.length,
    markers: marked.map((r) => ({ session_line: r.session_line, from_tokens: r.from_tokens, to_tokens: r.to_tokens })),
  };
}

/** {@link AnalysisSummary} of an analysis (pure). */
export function analysisSummaryOf(a: SessionAnalysis, rows: number | null): AnalysisSummary {
  const cut = <T,>(list: readonly T[]): T[] => (rows === null ? [...list] : list.slice(0, rows));
  const { token_points: _points, resets, reads, persistence, markers, ...rest } = a;
  return {
    ...rest,
    resets: cut(resets),
    reads: Array.isArray(reads) ? { rows: cut(reads), total: reads.length, reset_before_use: reads.filter((r) => r.reset_before_use_line !== null).length } : reads,
    persistence:
      "persisted_reads" in persistence
        ? { persisted_reads: persistence.persisted_reads.length, inline_reads: persistence.inline_reads.length, persisted_non_reads: cut(persistence.persisted_non_reads), persisted_non_reads_total: persistence.persisted_non_reads.length }
        : persistence,
    marker_count: markers.length,
  };
}
