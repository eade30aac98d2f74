/** The range packers' shared pieces (line facts, Codex range records, scan lines and events): growing typed columns, numbering repeated values. */

/** The typed arrays the range packers grow. */
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

/**
 * Values numbered in order of first sight: a packed column stores a value's number, the table
 * the value once (event types, record types).
 */
export class ValueTable<V> {
  /** The values, by number. */
  readonly values: V[] = [];
  private readonly ids = new Map<V, number>();

  /** The number of `value`, given it on first sight. */
  id(value: V): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  /** Whether `value` has a number. */
  has(value: V): boolean {
    return this.ids.has(value);
  }

  /** How many values are numbered. */
  get size(): number {
    return this.values.length;
  }
}
