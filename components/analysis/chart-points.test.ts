import { describe, expect, it } from "vitest";

import { chartPoints } from "@/components/analysis/chart-points";
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
