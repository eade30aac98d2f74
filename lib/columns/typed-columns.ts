/** Growable typed columns: the one builder the range packers write per-line facts into and hand between threads, and the searches over sorted ones. */

/** The typed arrays a column can be. */
export type TypedArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** A typed-array constructor (`Float64Array`, `Uint8Array`, …): the kind of a column. */
export type TypedArrayKind<T extends TypedArray> = new (length: number) => T;

/** The kind of each column of a {@link Columns}, by name. */
export type ColumnKinds<S extends Record<string, TypedArray>> = { readonly [K in keyof S]: TypedArrayKind<S[K]> };

/**
 * A copy of `a` with room for `length` elements (the same kind of typed array; elements past
 * `a.length` are zero). `length` must be at least `a.length`.
 */
export function grown<T extends TypedArray>(a: T, length: number): T {
  const b = new (a.constructor as TypedArrayKind<T>)(length);
  b.set(a);
  return b;
}

/**
 * Parallel typed columns sharing one row count: a packer appends rows with {@link add} and writes
 * each column at the row index itself, so every element store stays at a call site that sees one
 * kind of array (a shared `push(value)` over five kinds would make V8's store megamorphic on the
 * per-line path). Columns double when full; {@link take} hands them over cut to the row count.
 * A single growable list is a `Columns` of one column, written `add(k)` rows at a time.
 */
export class Columns<S extends Record<string, TypedArray>> {
  /** The columns, {@link capacity} long. Replaced when they grow: read `cols` after {@link add}. */
  cols: S;
  /** Rows written so far. */
  count = 0;
  private room: number;

  /** @param capacity rows to allocate up front (at least 16). */
  constructor(
    private readonly kinds: ColumnKinds<S>,
    capacity = 16,
  ) {
    this.room = Math.max(16, Math.ceil(capacity));
    this.cols = this.allocate(this.room);
  }

  /** Rows allocated. */
  get capacity(): number {
    return this.room;
  }

  /** The index of the first of `n` new rows (unset until written), growing every column when full. */
  add(n = 1): number {
    const at = this.count;
    if (at + n > this.room) this.grow(at + n);
    this.count = at + n;
    return at;
  }

  /** Appends every value of `values` to column `name` (the other columns' new rows are left unset). */
  addAll<K extends keyof S>(name: K, values: S[K]): void {
    const at = this.add(values.length);
    (this.cols[name] as S[K]).set(values, at);
  }

  /** Copies of the columns cut to {@link count}; the builder starts again from no rows, keeping its buffers. */
  take(): S {
    const out = {} as S;
    for (const name in this.cols) out[name] = (this.cols[name] as TypedArray).slice(0, this.count) as S[typeof name];
    this.count = 0;
    return out;
  }

  /**
   * The columns cut to {@link count}, the builder left as it is: views of its buffers when at most
   * 1/8 of them is unused (a view keeps the whole buffer alive), else copies. Rows added later
   * may overwrite what a view shows.
   */
  finish(): S {
    const view = (this.room - this.count) * 8 <= this.room;
    const out = {} as S;
    for (const name in this.cols) {
      const col = this.cols[name] as TypedArray;
      out[name] = (view ? col.subarray(0, this.count) : col.slice(0, this.count)) as S[typeof name];
    }
    return out;
  }

  private allocate(length: number): S {
    const out = {} as S;
    for (const name in this.kinds) out[name] = new this.kinds[name](length);
    return out;
  }

  private grow(rows: number): void {
    this.room = Math.max(rows, this.room * 2);
    const next = {} as S;
    for (const name in this.cols) next[name] = grown((this.cols[name] as TypedArray).subarray(0, this.count), this.room) as S[typeof name];
    this.cols = next;
  }
}

/** The first index in `[lo, hi)` of ascending `sorted` whose value is at least `value` (`hi` when none). */
export function lowerBound(sorted: ArrayLike<number>, value: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index in `[lo, hi)` of ascending `sorted` whose value is greater than `value` (`hi` when none). */
export function upperBound(sorted: ArrayLike<number>, value: number, lo = 0, hi = sorted.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Values numbered in order of first sight: a packed column stores a value's number, the table
 * the value once (event types, record types, record shapes).
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

/**
 * The distinct buffers of every typed array in `value` (its own properties and those of nested
 * plain objects and lists of typed arrays; other lists and Node Buffers are skipped): the transfer list a worker hands its packed
 * result over with, so the columns move rather than copy. A buffer shared by two views is listed once.
 */
export function columnBuffers(value: object): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (o: object): void => {
    for (const item of Object.values(o)) {
      // A Node Buffer may be a slice of the shared pool: never detach it.
      if (ArrayBuffer.isView(item)) {
        if (!Buffer.isBuffer(item)) out.add(item.buffer as ArrayBuffer);
      } else if (Array.isArray(item)) {
        // A list of columns (chunks): its typed arrays; any other list is left unread.
        if (item.length > 0 && ArrayBuffer.isView(item[0])) for (const chunk of item) if (ArrayBuffer.isView(chunk) && !Buffer.isBuffer(chunk)) out.add(chunk.buffer as ArrayBuffer);
      } else if (item !== null && typeof item === "object") visit(item as object);
    }
  };
  visit(value);
  return [...out];
}
