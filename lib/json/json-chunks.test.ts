/** Tests of jsonChunks against JSON.stringify. */
import { describe, expect, it } from "vitest";

import { jsonChunks } from "@/lib/json/json-chunks";
import { seededRandom } from "@/lib/testing/random";

const join = (value: unknown, chunkChars?: number) => [...jsonChunks(value, chunkChars)].join("");

describe("jsonChunks", () => {
  it("joins to exactly JSON.stringify for the values JSON.stringify treats specially", () => {
    const values: unknown[] = [
      {},
      [],
      { a: undefined, b: () => 1, c: Symbol("s"), d: null, e: [undefined, () => 1, Symbol("t"), null] },
      { when: new Date("2026-11-25T21:00:00Z"), nested: { toJSON: () => ({ x: 1 }) }, list: Object.assign([1, 2], { toJSON: () => "list" }) },
      { map: new Map([["k", 1]]), set: new Set([1]), boxed: new String("s"), num: new Number(2), nan: NaN, inf: -Infinity, neg0: -0 },
      { "quote\"key": "line\nbreak \u2028 \ud83d\ude00 lone \ud800", "": [[], {}, [[[]]]] },
      Object.assign(Object.create(null) as object, { bare: true }),
      [1, "two", [3, { four: 4 }]],
      "top-level string",
      42,
      null,
    ];
    for (const value of values) expect(join(value)).toBe(JSON.stringify(value));
  });

  it("gives the same text whatever the chunk size, in pieces no longer than needed", () => {
    const random = seededRandom(13);
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ line: i, cache_read: Math.floor(random() * 1e6), path: random() < 0.5 ? null : `/p/${i}.ts` }));
    const value = { stamp: "s", analysis: { rows, empty: [], n: 1 } };
    const whole = JSON.stringify(value);
    for (const size of [1, 7, 100, 4096, 1 << 20]) {
      const pieces = [...jsonChunks(value, size)];
      expect(pieces.join("")).toBe(whole);
      // A piece passes the size only by its last value's text (each row is < 100 characters here).
      expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(size + 100);
    }
  });

  it("stringifies small containers of primitives at once, exactly as JSON.stringify, and walks the rest", () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => (i % 5 === 0 ? null : i % 5 === 1 ? `s${i}\n"` : i % 5 === 2 ? i * 1.5 : i % 5 === 3 ? i % 2 === 0 : undefined));
    const object = (n: number) => Object.fromEntries(members(n).map((v, i) => [`k${i}`, v]));
    // A hole, as JSON.stringify reads it (null).
    const holes = [1, , 3];
    const value = {
      small: [members(63), members(64), object(63), object(64), holes, [() => 1, Symbol("s")], { f: () => 1, s: Symbol("t"), n: 1 }],
      // One more member than the shallow bound: walked member by member.
      large: [members(65), object(65)],
      nested: [{ a: 1, b: { c: 2 } }, [[1], [2, [3]]]],
    };
    const whole = JSON.stringify(value);
    for (const size of [1, 50, 1 << 16]) expect([...jsonChunks(value, size)].join("")).toBe(whole);
    // A walked container yields pieces between its members; a small one's text comes in one piece.
    const walked = [...jsonChunks({ large: members(65) }, 1)];
    expect(walked.length).toBeGreaterThan(60);
    expect([...jsonChunks({ small: members(64) }, 1)]).toEqual([`{"small":${JSON.stringify(members(64))}`, "}"]);
  });

  it("throws a TypeError on a cycle, as JSON.stringify does", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = { again: cyclic };
    expect(() => join(cyclic)).toThrow(TypeError);
  });
});
