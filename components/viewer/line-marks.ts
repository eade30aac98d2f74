import type { LineRange } from "./line-hash";

/** No marks: a shared constant so memoized rows see a stable value. */
export const NO_MARKS: readonly LineRange[] = [];

/**
 * A membership test over marked ranges (cited lines): sorted, merged intervals and a binary
 * search, so each rendered row asks in O(log n) however many citations a card holds.
 */
export function lineMarker(ranges: readonly LineRange[]): (line: number) => boolean {
  const merged: LineRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
    else merged.push({ start: r.start, end: r.end });
  }
  return (line) => {
    let lo = 0;
    let hi = merged.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const r = merged[mid]!;
      if (line < r.start) hi = mid - 1;
      else if (line > r.end) lo = mid + 1;
      else return true;
    }
    return false;
  };
}
