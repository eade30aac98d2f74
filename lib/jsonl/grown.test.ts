import { describe, expect, it } from "vitest";

import { grown, ValueTable } from "@/lib/jsonl/grown";

describe("grown", () => {
  it("copies into a longer typed array of the same kind, zero past the old length", () => {
    const a = new Float64Array([1.5, -2]);
    const b = grown(a, 4);
    expect(b).toBeInstanceOf(Float64Array);
    expect(Array.from(b)).toEqual([1.5, -2, 0, 0]);
    expect(b.buffer).not.toBe(a.buffer);
    expect(Array.from(grown(new Uint16Array([65535]), 2))).toEqual([65535, 0]);
  });
});

describe("ValueTable", () => {
  it("numbers values in order of first sight, null included, and keeps each once", () => {
    const table = new ValueTable<string | null>();
    expect([table.id("user"), table.id(null), table.id("assistant"), table.id("user"), table.id(null)]).toEqual([0, 1, 2, 0, 1]);
    expect(table.values).toEqual(["user", null, "assistant"]);
    expect(table.size).toBe(3);
    expect(table.has("assistant")).toBe(true);
    expect(table.has("system")).toBe(false);
  });
});
