import type { TokenPoint } from "@/lib/analysis/schema";

/** At most this many points are drawn: beyond that an SVG line chart stops being usable. */
export const MAX_CHART_POINTS = 2000;

/**
 * The token points to draw: all of them when there are at most `max`, else a shape-keeping
 * subset in line order — per bucket of consecutive points, the ones holding the bucket's lowest
 * and highest cache read (so every drop, a context reset's shape, stays visible), plus every point
 * on a line in `keepLines` (the resets, so each marker sits on the drawn line). Pure; the input
 * is not changed. A 1 GB session has ~94,000 points; drawn whole, the chart took ~95 s to appear.
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
