/** Tests of the typed-column builder (Columns, grown, ValueTable, columnBuffers) and the searches over sorted columns. */
import { describe, expect, it } from "vitest";

import { columnBuffers, Columns, grown, lowerBound, upperBound, ValueTable } from "@/lib/columns/typed-columns";

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

describe("Columns", () => {
  it("appends rows to parallel columns, doubling them when full, and hands them over cut to the row count", () => {
    const c = new Columns({ a: Uint8Array, b: Float64Array }, 2);
    expect(c.capacity).toBe(16);
    for (let k = 0; k < 40; k++) {
      const i = c.add();
      c.cols.a[i] = k;
      c.cols.b[i] = k / 2;
    }
    expect(c.count).toBe(40);
    expect(c.capacity).toBe(64);
    const out = c.take();
    expect(out.a).toBeInstanceOf(Uint8Array);
    expect(Array.from(out.a)).toEqual(Array.from({ length: 40 }, (_, k) => k));
    expect(out.b[39]).toBe(19.5);
    expect(c.count).toBe(0);
    expect(c.take().a.length).toBe(0);
  });

  it("adds several rows at once and whole arrays to one column", () => {
    const c = new Columns({ v: Float64Array });
    const at = c.add(3);
    c.cols.v.set([1, 2, 3], at);
    c.addAll("v", new Float64Array(30).fill(7));
    expect(c.count).toBe(33);
    const v = c.take().v;
    expect(Array.from(v.subarray(0, 4))).toEqual([1, 2, 3, 7]);
    expect(v.length).toBe(33);
  });

  it("finishes with views when little room is unused, else with copies", () => {
    const full = new Columns({ v: Uint32Array }, 16);
    full.add(15);
    const view = full.finish().v;
    expect(view.length).toBe(15);
    expect(view.buffer).toBe(full.cols.v.buffer);
    const sparse = new Columns({ v: Uint32Array }, 64);
    sparse.add(3);
    expect(sparse.finish().v.buffer).not.toBe(sparse.cols.v.buffer);
  });
});

describe("columnBuffers", () => {
  it("lists each typed array's buffer once, nested plain objects and lists of chunks included, never a Node Buffer or another list's contents", () => {
    const shared = new Float64Array(8);
    const chunk = new Int32Array(1);
    const packed = { a: shared.subarray(0, 2), b: shared.subarray(2), c: new Uint8Array(3), nested: { d: new Uint16Array(1) }, chunks: [chunk], list: [{ e: new Uint8Array(1) }], bytes: Buffer.from("x"), n: 1, s: null };
    const buffers = columnBuffers(packed);
    expect(buffers).toHaveLength(4);
    expect(buffers).toContain(chunk.buffer);
    expect(buffers).toContain(shared.buffer);
    expect(buffers).toContain(packed.c.buffer);
    expect(buffers).toContain(packed.nested.d.buffer);
  });
});

describe("lowerBound and upperBound", () => {
  it("find the first index at least / greater than a value in an ascending column, within bounds", () => {
    const sorted = new Float64Array([1, 3, 3, 3, 7]);
    expect([0, 1, 2, 3, 7, 8].map((v) => lowerBound(sorted, v))).toEqual([0, 0, 1, 1, 4, 5]);
    expect([0, 1, 2, 3, 7, 8].map((v) => upperBound(sorted, v))).toEqual([0, 1, 1, 4, 5, 5]);
    expect(lowerBound(sorted, 3, 2, 4)).toBe(2);
    expect(upperBound(sorted, 3, 0, 2)).toBe(2);
    expect(lowerBound(new Uint32Array(0), 5)).toBe(0);
  });
});
