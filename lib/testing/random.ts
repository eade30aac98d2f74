/** A seeded pseudo-random generator for fuzz-style tests. */
/**
 * A small deterministic pseudo-random generator (mulberry32) for fuzz-style tests: the same
 * `seed` gives the same sequence, so a failing case reproduces. Returns numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
