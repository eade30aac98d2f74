/** Python `splitlines()` boundaries (contract §1.6) found in raw UTF-8 bytes. */
/**
 * Byte-level detection of Python `str.splitlines()` boundaries (contract §1.6) in raw UTF-8.
 *
 * Every boundary has a fixed byte pattern that cannot be produced by decoding anything else:
 * the single bytes `\n \v \f \r \x1c \x1d \x1e`, `C2 85` (U+0085) and `E2 80 A8` / `E2 80 A9`
 * (U+2028 / U+2029). `C2` and `E2` are lead bytes, so these sequences decode to the break
 * character even right after invalid bytes, and a lone `0x85` byte is U+FFFD, not a break.
 * Scanning therefore never needs to decode; it only finds these patterns with `Buffer.indexOf`
 * (memchr speed) and merges the hits in file order.
 */

import { Columns } from "@/lib/columns/typed-columns";

const LF = 0x0a;
const CR = 0x0d;
const LEAD_C2 = 0xc2;
const LEAD_E2 = 0xe2;
const CONT_80 = 0x80;

/** Every boundary pattern; index 0 (`\n`) is the common one, the rest are checked per scan window. */
const PATTERNS: readonly (number | Buffer)[] = [
  LF,
  0x0b,
  0x0c,
  CR,
  0x1c,
  0x1d,
  0x1e,
  Buffer.from([LEAD_C2, 0x85]),
  Buffer.from([LEAD_E2, CONT_80, 0xa8]),
  Buffer.from([LEAD_E2, CONT_80, 0xa9]),
];
const PATTERN_BYTES: readonly number[] = [1, 1, 1, 1, 1, 1, 1, 2, 3, 3];
/** For multi-byte patterns, their last byte (see scanWindow). */
const PREFILTER: readonly (number | undefined)[] = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, 0x85, 0xa8, 0xa9];
const CR_PATTERN = 3;

/** The longest proper prefix of a boundary pattern, in bytes (`E2 80`). */
export const MAX_PENDING_BYTES = 2;

/**
 * A growable list of line-start byte offsets (a `Float64Array` column of lib/columns: offsets stay
 * exact up to 2^53 bytes). `toArray()` returns a view when little capacity is wasted, else a copy.
 */
export class LineStartList {
  private readonly list: Columns<{ starts: Float64Array }>;

  constructor(capacity: number) {
    this.list = new Columns({ starts: Float64Array }, capacity);
  }

  /** How many offsets are held. */
  get length(): number {
    return this.list.count;
  }

  /** Appends one byte offset. */
  push(offset: number): void {
    const i = this.list.add();
    this.list.cols.starts[i] = offset;
  }

  /** The offsets held, in `[0, length)` of an array valid until the next push. */
  get offsets(): Float64Array {
    return this.list.cols.starts;
  }

  /** The offset at index `i` (0 ≤ i < length). */
  at(i: number): number {
    return this.list.cols.starts[i]!;
  }

  /** Appends every offset of `offsets`, in order. */
  pushAll(offsets: Float64Array): void {
    this.list.addAll("starts", offsets);
  }

  /** The offsets as an array of exactly `length` elements. */
  toArray(): Float64Array {
    return this.list.finish().starts;
  }
}

/**
 * How many trailing bytes of `chunk` may be the start of a boundary that continues in the
 * next chunk (`\r` before a possible `\n`, `C2`, `E2`, `E2 80`). Those bytes must be rescanned
 * together with the following bytes. Result: 0, 1 or 2 bytes.
 */
export function pendingTailBytes(chunk: Uint8Array): number {
  const last = chunk[chunk.length - 1];
  if (last === CR || last === LEAD_C2 || last === LEAD_E2) return 1;
  if (last === CONT_80 && chunk[chunk.length - 2] === LEAD_E2) return 2;
  return 0;
}

/** Scan window in bytes: small enough that the ~10 memchr passes per window hit the L2 cache. */
export const SCAN_WINDOW_BYTES = 256 << 10;

/**
 * Finds the line boundaries in `chunk` and pushes the byte offset just after each one onto
 * `out`, except a boundary that ends exactly at `endByte` (Python adds no line after a trailing
 * break). `chunkStart` is the file offset of `chunk[0]`; the chunk must not start inside a
 * boundary pattern (e.g. on the `\n` of a `\r\n` already counted). Unless `isLast`, the pending tail (see {@link pendingTailBytes}) is
 * left unscanned. The chunk is walked in windows of `windowBytes` (default
 * {@link SCAN_WINDOW_BYTES}) so repeated passes stay in cache.
 * @returns the number of bytes consumed; the caller rescans `chunk[consumed..]` with more data.
 */
export function scanChunk(
  chunk: Buffer,
  chunkStart: number,
  isLast: boolean,
  endByte: number,
  out: LineStartList,
  windowBytes = SCAN_WINDOW_BYTES,
): number {
  // A window longer than the longest pending tail always consumes at least one byte.
  const window = Math.max(MAX_PENDING_BYTES + 1, windowBytes);
  let offset = 0;
  for (;;) {
    const end = Math.min(chunk.length, offset + window);
    const lastWindow = end === chunk.length;
    const consumed = scanWindow(chunk.subarray(offset, end), chunkStart + offset, lastWindow && isLast, endByte, out);
    if (lastWindow) return offset + consumed;
    // A pending tail inside the chunk is simply rescanned at the start of the next window.
    offset += consumed;
  }
}

function scanWindow(chunk: Buffer, chunkStart: number, isLast: boolean, endByte: number, out: LineStartList): number {
  const limit = isLast ? chunk.length : chunk.length - pendingTailBytes(chunk);
  // Rare patterns are usually absent: one memchr-speed pass each decides it for the window.
  const kinds: number[] = [];
  const next: number[] = [];
  for (let kind = 1; kind < PATTERNS.length; kind++) {
    // Multi-byte patterns: memchr for their rarer last byte first, the native pattern search
    // only if it occurs (E2 is common in typographic text, A8/A9/85 much less so).
    if (PREFILTER[kind] !== undefined && chunk.indexOf(PREFILTER[kind]!, 0) === -1) continue;
    const at = chunk.indexOf(PATTERNS[kind]!, 0);
    if (at !== -1 && at < limit) {
      kinds.push(kind);
      next.push(at);
    }
  }
  if (kinds.length === 0) {
    for (let at = chunk.indexOf(LF, 0); at !== -1; at = chunk.indexOf(LF, at + 1)) {
      if (chunkStart + at + 1 < endByte) out.push(chunkStart + at + 1);
    }
    return limit;
  }
  kinds.push(0);
  const firstLf = chunk.indexOf(LF, 0);
  next.push(firstLf === -1 ? Infinity : firstLf);
  mergeBoundaries(chunk, chunkStart, limit, endByte, kinds, next, out);
  return limit;
}

/** Walks the earliest hit among several patterns at a time, refreshing only consumed ones. */
function mergeBoundaries(
  chunk: Buffer,
  chunkStart: number,
  limit: number,
  endByte: number,
  kinds: number[],
  next: number[],
  out: LineStartList,
): void {
  for (;;) {
    let best = -1;
    let at = Infinity;
    for (let i = 0; i < next.length; i++) {
      if (next[i]! < at) {
        at = next[i]!;
        best = i;
      }
    }
    if (best === -1 || at >= limit) return;
    const kind = kinds[best]!;
    let end = at + PATTERN_BYTES[kind]!;
    // "\r\n" is one boundary; pendingTailBytes guarantees the byte after a "\r" is present.
    if (kind === CR_PATTERN && chunk[end] === LF) end += 1;
    if (chunkStart + end < endByte) out.push(chunkStart + end);
    for (let i = 0; i < next.length; i++) {
      if (next[i]! < end) {
        const hit = chunk.indexOf(PATTERNS[kinds[i]!]!, end);
        next[i] = hit === -1 ? Infinity : hit;
      }
    }
  }
}
