import { describe, expect, it } from "vitest";

import { lineMarker } from "./line-marks";

describe("lineMarker", () => {
  it("marks lines inside any range, merging overlaps and neighbours", () => {
    const marked = lineMarker([
      { start: 10, end: 12 },
      { start: 3, end: 3 },
      { start: 13, end: 15 },
      { start: 11, end: 11 },
    ]);
    expect([2, 3, 4, 9, 10, 15, 16].map(marked)).toEqual([false, true, false, false, true, true, false]);
  });

  it("marks nothing without ranges", () => {
    expect(lineMarker([])(1)).toBe(false);
  });
});
