import { describe, expect, it } from "vitest";

import { chartPoints, chartResets, MAX_CHART_MARKERS } from "@/components/analysis/chart-points";
import type { TokenPoint } from "@/lib/analysis/schema";

const point = (line: number, cacheRead: number): TokenPoint => ({ line, cache_read: cacheRead, cache_creation: 0, input: 1, output: 1 });

describe("chartPoints", () => {
  it("keeps every point of a small series", () => {
    const points = [point(1, 5), point(2, 9)];
    expect(chartPoints(points, new Set(), 10)).toBe(points);
  });

  it("thins a long series to about the cap, in line order, keeping each bucket's low and high and every kept line", () => {
    const points = Array.from({ length: 10_000 }, (_, i) => point(i + 1, i % 500 === 250 ? 10 : 1000 + (i % 7)));
    const kept = chartPoints(points, new Set([4242, 7777]), 200);
    expect(kept.length).toBeLessThanOrEqual(202);
    expect(kept.map((p) => p.line)).toEqual([...kept.map((p) => p.line)].sort((a, b) => a - b));
    expect(kept.some((p) => p.line === 4242)).toBe(true);
    expect(kept.some((p) => p.line === 7777)).toBe(true);
    // Every drop to 10 (one per 500 points, a bucket holds 100) is still drawn.
    expect(kept.filter((p) => p.cache_read === 10).length).toBe(20);
    expect(Math.max(...kept.map((p) => p.cache_read))).toBe(1006);
  });
});

describe("chartResets", () => {
  const reset = (line: number, from: number, to: number) => ({ session_line: line, from_tokens: from, to_tokens: to });

  it("marks every reset of a session with few", () => {
    const resets = [reset(10, 100, 10), reset(20, 100, 50)];
    expect(chartResets(resets, 100, 5)).toBe(resets);
  });

  it("marks, per stretch of lines, the reset with the largest drop, in line order", () => {
    // 1,000 lines in 4 stretches of 250; 12 resets, three per stretch, the middle one the largest drop.
    const resets = [0, 250, 500, 750].flatMap((base) => [reset(base + 10, 100, 60), reset(base + 20, 100, 5), reset(base + 30, 100, 50)]);
    const kept = chartResets(resets, 1_000, 4);
    expect(kept.map((r) => r.session_line)).toEqual([20, 270, 520, 770]);
    // A stretch without resets marks nothing; the count never passes the cap.
    const sparse = chartResets([reset(1, 9, 1), reset(2, 9, 0), reset(3, 9, 2), reset(999, 9, 1), reset(1000, 9, 3)], 1_000, 4);
    expect(sparse.map((r) => r.session_line)).toEqual([2, 999]);
    expect(chartResets(Array.from({ length: 3_887 }, (_, i) => reset(i * 80 + 1, 1_000, i % 900)), 318_897).length).toBeLessThanOrEqual(MAX_CHART_MARKERS);
  });
});
