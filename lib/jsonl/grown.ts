/** The typed arrays the range packers grow (line facts, scan events). */
type Packed = Uint8Array | Uint16Array | Uint32Array | Float64Array;

/**
 * A copy of `a` with room for `length` elements (the same kind of typed array; elements past
 * `a.length` are zero): how the per-line fact packers of prepare and the forensics scan grow
 * their columns. `length` must be at least `a.length`.
 */
export function grown<T extends Packed>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}
