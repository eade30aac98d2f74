/** Tests of the SIMD literal search against Buffer.indexOf. */
import { describe, expect, it } from "vitest";

import { NEEDLE_AREA_BYTES, simdFinder, wasmMemory } from "@/lib/forensics/simd-find";

/** Every start of `needle` in `hay` found by repeated `find`, as offsets into `hay`. */
function findAll(hay: Buffer, needle: string, ignoreCase = false, from = 0, to = hay.length): number[] {
  const memory = wasmMemory(hay.length + 64);
  const finder = simdFinder(memory, Buffer.from(needle, "latin1"), ignoreCase);
  new Uint8Array(memory.buffer).set(hay, NEEDLE_AREA_BYTES);
  const out: number[] = [];
  for (let p = NEEDLE_AREA_BYTES + from; (p = finder.find(p, NEEDLE_AREA_BYTES + to)) >= 0; p++) out.push(p - NEEDLE_AREA_BYTES);
  return out;
}

function reference(hay: Buffer, needle: string, ignoreCase = false, from = 0, to = hay.length): number[] {
  const fold = (b: Buffer) => (ignoreCase ? Buffer.from(b.toString("latin1").replace(/[A-Z]/g, (c) => c.toLowerCase()), "latin1") : b);
  const h = fold(hay.subarray(0, to));
  const n = fold(Buffer.from(needle, "latin1"));
  const out: number[] = [];
  for (let p = from; (p = h.indexOf(n, p)) >= 0; p++) out.push(p);
  return out;
}

describe("simd literal search", () => {
  it("finds what Buffer.indexOf finds, at every alignment and at both ends", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const alphabet = 'ab"_:\u00e9A';
    for (let round = 0; round < 300; round++) {
      const length = rand(200);
      const hay = Buffer.from(Array.from({ length }, () => alphabet[rand(alphabet.length)]).join(""), "latin1");
      const needleLength = 1 + rand(5);
      const needle = Array.from({ length: needleLength }, () => alphabet[rand(alphabet.length)]).join("");
      const from = rand(Math.max(1, length));
      const to = from + rand(length - from + 1);
      expect(findAll(hay, needle, false, from, to)).toEqual(reference(hay, needle, false, from, to));
      expect(findAll(hay, needle, true, from, to)).toEqual(reference(hay, needle, true, from, to));
    }
  });

  it("matches ASCII letters in either case only when asked, other bytes exactly", () => {
    const hay = Buffer.from('x "IS_ERROR":True "is_error":true @[`{ ');
    expect(findAll(hay, '"is_error":true')).toEqual([18]);
    expect(findAll(hay, '"is_error":true', true)).toEqual([2, 18]);
    expect(findAll(hay, "@[", true)).toEqual([34]);
    expect(findAll(hay, "`{", true)).toEqual([36]);
  });

  it("rejects an empty or too long needle", () => {
    expect(() => simdFinder(wasmMemory(16), new Uint8Array(0))).toThrow(RangeError);
    expect(() => simdFinder(wasmMemory(16), new Uint8Array(256))).toThrow(RangeError);
  });
});
