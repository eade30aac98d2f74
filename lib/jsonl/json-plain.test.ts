import { describe, expect, it } from "vitest";

import { JsonPlainScratch } from "@/lib/jsonl/json-plain";

/** The reference: the first `"`, `\` or control byte in [from, end), else end. */
function reference(b: Uint8Array, from: number, end: number): number {
  for (let i = from; i < end; i++) if (b[i] === 0x22 || b[i] === 0x5c || b[i]! < 0x20) return i;
  return end;
}

/** A small deterministic generator (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("JsonPlainScratch.plainEnd", () => {
  it("finds the first quote, backslash or control byte at every offset, in the SIMD steps and the tail", () => {
    const scratch = new JsonPlainScratch();
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const length = 1 + Math.floor(next() * 200);
      const source = new Uint8Array(length);
      // Plain text with UTF-8 bytes (>= 0x80, which are plain) and a few stops.
      for (let i = 0; i < length; i++) source[i] = next() < 0.5 ? 0x20 + Math.floor(next() * 0x5f) : 0x80 + Math.floor(next() * 0x80);
      for (let k = Math.floor(next() * 3); k > 0; k--) source[Math.floor(next() * length)] = [0x22, 0x5c, 0x00, 0x1f, 0x0a][Math.floor(next() * 5)]!;
      const b = scratch.load(source, 0, length);
      for (let from = 0; from < length; from += 1 + Math.floor(next() * 5)) {
        const end = from + Math.floor(next() * (length - from + 1));
        expect(scratch.plainEnd(from, end), `round ${round} [${from}, ${end})`).toBe(reference(b, from, end));
      }
    }
  });

  it("keeps the bytes it loads, growing past one page, and treats 0x20 and 0x7f as plain", () => {
    const scratch = new JsonPlainScratch();
    const big = new Uint8Array(200_000).fill(0x20);
    big[150_001] = 0x7f;
    big[199_990] = 0x5c;
    const b = scratch.load(big, 10, 200_000);
    expect(b.length).toBeGreaterThanOrEqual(199_990);
    expect(scratch.plainEnd(0, 199_990)).toBe(199_980);
    expect(b[150_001 - 10]).toBe(0x7f);
    expect(scratch.plainEnd(0, 100)).toBe(100);
  });
});
