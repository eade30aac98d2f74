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

/**
 * `text` as bytes with up to two random damages, drawn from `r` (a {@link seededRandom}): cut
 * short, a byte replaced by an ASCII one, a blank line inserted, a raw U+2028 inserted, an
 * invalid UTF-8 byte inserted. For fuzzing readers against what a crashed or odd writer leaves.
 */
export function damagedBytes(r: () => number, text: string): Buffer {
  let bytes = Buffer.from(text);
  const n = Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * bytes.length);
    const what = r();
    if (what < 0.3) bytes = bytes.subarray(0, at);
    else if (what < 0.5) bytes[at] = Math.floor(r() * 128);
    else if (what < 0.65) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from("\n\n"), bytes.subarray(at)]);
    else if (what < 0.8) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from("\u2028"), bytes.subarray(at)]);
    else bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at)]);
  }
  return bytes;
}
