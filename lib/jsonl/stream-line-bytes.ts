/** The streaming line reader: every physical line of a file as bytes, in one pass that also builds its line index. */
import { closeSync, fstatSync, openSync, read, readSync } from "node:fs";
import type fs from "node:fs/promises";

import { AppError } from "@/lib/errors";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import type { LineBytes, LineIndex } from "@/lib/jsonl/line-index";
import { LineStartList, MAX_PENDING_BYTES, scanChunk } from "@/lib/jsonl/line-scan";
import { terminatorBytes } from "@/lib/jsonl/terminator";

/** Options of {@link streamLineBytes}. */
export type StreamLineBytesOptions = {
  /** Read size in bytes (default 16 MiB; tests use tiny values). */
  chunkBytes?: number;
  /** Room kept in front of each read for the unfinished line of the previous one (default 4 MiB; a longer line is joined by a copy). */
  headroomBytes?: number;
  /**
   * Called once with the file's line index (the one `buildLineIndex` builds: size and mtime of
   * the stat taken when the file was opened) when every line was streamed; not called when the
   * caller stops early.
   */
  onIndex?: (index: LineIndex) => void;
  /**
   * Stream only the lines of bytes `[startByte, endByte)`, numbered from `firstLine` (one range of
   * `splitFileRanges`: `startByte` follows a `\n` and `endByte` is a line start or the file size).
   * `onIndex` is not called.
   */
  range?: {
    startByte: number;
    endByte: number;
    firstLine: number;
    /** When the file is shorter than `endByte` at open, stream to its end instead of failing (`endByte` may then be Infinity). */
    upToFileEnd?: boolean;
  };
  /**
   * The two work buffers to read into, when both hold at least `headroomBytes + chunkBytes`
   * (else a small pass takes this thread's pooled ones and a big one allocates its own): a
   * caller streaming many ranges one after another (a range pool's thread) reuses its buffers
   * instead of allocating and faulting in fresh ones each time.
   */
  buffers?: readonly [Buffer, Buffer];
  /**
   * Read with `readSync` on this thread instead of the thread pool (no read ahead): for a worker
   * or pool thread reading one range after another, where the hand-off per read costs more than
   * the overlap saves (measured ~1.8× the CPU of a 1 GB pass with async reads; lib/forensics/scan-range).
   */
  syncReads?: boolean;
};

/**
 * Streams every physical line of `filePath` (contract §1.6 boundaries, found at byte level by
 * `scanChunk`) as a byte range of a read buffer, in ONE pass that also builds the file's line
 * index. Reads up to the size the file had when opened, the next chunk in flight while
 * the caller works on this one. A yielded buffer is reused once the caller moves past its
 * lines or the pass ends: copy what must outlive them. Memory: two chunks plus the longest
 * line, plus 8 bytes a line of index. {@link forEachLineBytes} is the same pass with a callback per line.
 * @throws the fs error when the file cannot be opened or read; AppError io_error when it
 *   shrank while being read.
 */
export async function* streamLineBytes(filePath: string, options: StreamLineBytesOptions = {}): AsyncGenerator<LineBytes> {
  for await (const c of chunkLines(filePath, options)) {
    for (let k = c.from; k < c.to; k++) {
      const start = c.toWork(c.starts.at(k));
      const next = c.toWork(k + 1 < c.starts.length ? c.starts.at(k + 1) : c.size);
      yield { line: c.lineBase + k + 1, bytes: c.work, start, end: next - terminatorBytes(c.work, start, next), next };
    }
  }
}

/**
 * {@link streamLineBytes}'s pass with `onLine` called for each line (its number, the buffer, the
 * line's start, end without terminator and the next line's start), synchronously within each
 * read (no promise per line). `onLine` returns false to stop the pass (then no line index is given).
 * @returns the start offset (bytes, absolute) of every line streamed, or null after a stop.
 * @throws as {@link streamLineBytes}, and whatever `onLine` throws.
 */
export async function forEachLineBytes(filePath: string, options: StreamLineBytesOptions, onLine: (line: number, bytes: Buffer, start: number, end: number, next: number) => boolean | void): Promise<Float64Array | null> {
  let list: LineStartList | null = null;
  for await (const c of chunkLines(filePath, options)) {
    const { work, starts, size, lineBase } = c;
    list = starts;
    const shift = c.shift;
    // No line is added while this read's lines are handed over: its offsets stay put.
    const offsets = starts.offsets;
    const count = starts.length;
    for (let k = c.from; k < c.to; k++) {
      const start = offsets[k]! + shift;
      const next = (k + 1 < count ? offsets[k + 1]! : size) + shift;
      if (onLine(lineBase + k + 1, work, start, next - terminatorBytes(work, start, next), next) === false) return null;
    }
  }
  return list === null ? new Float64Array(0) : list.toArray();
}

/**
 * The start offset (bytes) of every line beginning in `[fromByte, endByte)` of `filePath`
 * (`fromByte` a line start, 0 by default), after `prefix`: the streaming pass without handing
 * lines over, for building and extending a line index. Reads `chunkBytes` (default 1 MiB) at a
 * time, the next read in flight while this one is scanned. Memory: two reads plus 8 bytes a line.
 * @throws AppError io_error when the file is shorter than `endByte`, or the fs error.
 */
export async function scanLineStarts(filePath: string, endByte: number, options: { fromByte?: number; chunkBytes?: number; prefix?: Float64Array } = {}): Promise<Float64Array> {
  const fromByte = options.fromByte ?? 0;
  const pass = chunkLines(filePath, { chunkBytes: options.chunkBytes ?? SCAN_CHUNK_BYTES, range: { startByte: fromByte, endByte, firstLine: 1 } }, true);
  let step = await pass.next();
  while (!step.done) step = await pass.next();
  const starts = step.value.toArray();
  const prefix = options.prefix;
  if (prefix === undefined || prefix.length === 0) return starts;
  const out = new Float64Array(prefix.length + starts.length);
  out.set(prefix);
  out.set(starts, prefix.length);
  return out;
}

/** Default read size of {@link scanLineStarts}: the scan stays in the CPU cache between reads. */
const SCAN_CHUNK_BYTES = 1 << 20;

/** The whole lines one read completed: 0-based stream indexes `[from, to)` of `starts`, in `work`. */
type ChunkLines = {
  work: Buffer;
  starts: LineStartList;
  from: number;
  to: number;
  /** Where the stream ends (file offset): the end of its last line. */
  size: number;
  /** Line number of stream index 0, minus one. */
  lineBase: number;
  /** The index in `work` of a file offset. */
  toWork: (offset: number) => number;
  /** What {@link toWork} adds to a file offset. */
  shift: number;
};

/**
 * The pass itself: one {@link ChunkLines} a read, whose lines the caller handles before it asks
 * for the next; returns the line starts. `indexOnly`: no line is handed over, so only the pending
 * bytes of a boundary are carried from one read to the next (never a long line).
 */
async function* chunkLines(filePath: string, options: StreamLineBytesOptions, indexOnly = false): AsyncGenerator<ChunkLines, LineStartList> {
  const handle = options.syncReads ? syncHandle(filePath) : pooledReadsHandle(filePath);
  let reading: Promise<{ bytesRead: number }> | null = null;
  let pooled: readonly [Buffer, Buffer] | null = null;
  try {
    const stat = await handle.stat();
    const range = options.range;
    const first = range?.startByte ?? 0;
    // Where reading and scanning end.
    const size = range ? (range.upToFileEnd ? Math.max(range.startByte, Math.min(range.endByte, stat.size)) : range.endByte) : stat.size;
    const lineBase = range ? range.firstLine - 1 : 0;
    const chunkBytes = Math.max(1, Math.floor(options.chunkBytes ?? 16 << 20));
    // An unfinished line never exceeds what is streamed, so a small file gets small buffers.
    const headroom = indexOnly ? MAX_PENDING_BYTES : Math.min(Math.max(0, Math.floor(options.headroomBytes ?? 4 << 20)), size - first);
    const capacity = Math.min(chunkBytes, Math.max(1, size - first));
    const given = options.buffers;
    const fits = (b: readonly [Buffer, Buffer] | undefined): b is readonly [Buffer, Buffer] => b !== undefined && b[0].length >= headroom + capacity && b[1].length >= headroom + capacity;
    // A small pass reads into pooled scan memories (see pooledPairs); a big one allocates its own.
    if (!fits(given) && headroom + capacity <= POOLED_BUFFER_BYTES) pooled = takePooled();
    const buffers = fits(given) ? given : pooled ?? ([Buffer.allocUnsafe(headroom + capacity), Buffer.allocUnsafe(headroom + capacity)] as const);
    // NOTE: ~1 line per 2 KiB is typical of agent transcripts; the list grows if needed.
    const starts = new LineStartList((size - first) / 2048);
    if (size > first) starts.push(first);
    let position = first; // file offset read up to
    let scanned = first; // file offset up to which boundaries were looked for
    let nextLine = 0; // 0-based index (in this stream) of the next line to hand over
    let carry: Buffer = Buffer.alloc(0); // the unfinished line (file offset carryStart), a view into the last work buffer
    let carryStart = first;
    let turn: 0 | 1 = 0;
    const readAt = (buffer: Buffer, at: number, most = capacity) => handle.read(buffer, headroom, Math.min(most, size - at), at);
    // A short first read: the caller starts on its lines while the next, full one is in flight.
    reading = size > first ? readAt(buffers[0], first, Math.min(capacity, FIRST_READ_BYTES)) : null;
    while (reading !== null) {
      const { bytesRead } = await reading;
      reading = null;
      if (bytesRead === 0) throw new AppError("io_error", "The file shrank while it was being read.", { path: filePath });
      let work: Buffer = buffers[turn];
      let dataStart = headroom - carry.length;
      if (dataStart >= 0) carry.copy(work, dataStart);
      else {
        work = Buffer.concat([carry, work.subarray(headroom, headroom + bytesRead)]);
        dataStart = 0;
      }
      const workEnd = dataStart + carry.length + bytesRead;
      const workStart = carryStart; // file offset of work[dataStart]
      position += bytesRead;
      // The carry has been copied out of the other buffer: it may be refilled now (a blocking
      // read only once this chunk's lines are handled, so they are still in the CPU cache).
      turn = turn === 0 ? 1 : 0;
      if (position < size && !options.syncReads) reading = readAt(buffers[turn], position);
      const isLast = position >= size;
      const from = dataStart + (scanned - workStart);
      scanned += scanChunk(work.subarray(from, workEnd), scanned, isLast, size, starts);
      if (indexOnly) carryStart = scanned;
      else {
        const to = isLast ? starts.length : Math.max(nextLine, starts.length - 1);
        if (to > nextLine) yield { work, starts, from: nextLine, to, size, lineBase, toWork: (offset: number): number => offset - workStart + dataStart, shift: dataStart - workStart };
        nextLine = to;
        carryStart = nextLine < starts.length ? starts.at(nextLine) : position;
      }
      carry = work.subarray(carryStart - workStart + dataStart, workEnd);
      if (position < size && options.syncReads) reading = readAt(buffers[turn], position);
    }
    if (!range) options.onIndex?.({ size, mtimeMs: stat.mtimeMs, lineCount: starts.length, starts: starts.toArray() });
    return starts;
  } finally {
    // Never close the handle under a read still in flight (the caller stopped early or failed).
    await reading?.catch(() => undefined);
    if (pooled !== null) givePooled(pooled);
    await handle.close();
  }
}

/** Work buffers of the passes that need at most this many bytes each are taken from {@link pooledPairs}. */
export const POOLED_BUFFER_BYTES = 2 << 20;
/** Pairs kept for reuse (prepare's analysis reads three small files at once). */
const POOLED_PAIRS = 3;
/** A pool left untouched this long is dropped (an idle server keeps no read buffers). */
const POOL_IDLE_MS = 10_000;
/**
 * This thread's spare work buffers of small passes, scan memories (lib/jsonl/json-scan) so the
 * skim reads their lines in place: a sync of thousands of small sessions allocated and collected
 * two fresh buffers a file (half the time of a usage pass over 1,000 files of 540 KB went to it).
 */
const pooledPairs: (readonly [Buffer, Buffer])[] = [];
let poolUsedAt = 0;
let poolTimer: ReturnType<typeof setTimeout> | null = null;

function takePooled(): readonly [Buffer, Buffer] {
  poolUsedAt = Date.now();
  return pooledPairs.pop() ?? [scanMemoryBuffer(POOLED_BUFFER_BYTES), scanMemoryBuffer(POOLED_BUFFER_BYTES)];
}

function givePooled(pair: readonly [Buffer, Buffer]): void {
  if (pooledPairs.length < POOLED_PAIRS) pooledPairs.push(pair);
  poolTimer ??= setTimeout(dropIdlePool, POOL_IDLE_MS).unref();
}

function dropIdlePool(): void {
  poolTimer = null;
  if (pooledPairs.length === 0) return;
  const idle = Date.now() - poolUsedAt;
  if (idle >= POOL_IDLE_MS) pooledPairs.length = 0;
  else poolTimer = setTimeout(dropIdlePool, POOL_IDLE_MS - idle).unref();
}

/** Bytes of a pass's first read (at most its chunk size). */
const FIRST_READ_BYTES = 1 << 20;

/** The part of a `FileHandle` {@link streamLineBytes} uses, over synchronous calls (`syncReads`). */
/**
 * A handle whose open, stat and close run on this thread and whose reads run in the thread pool,
 * beside this thread's work: each thread-pool round trip cost ~75 µs of CPU, more than such a call,
 * and a sync of 20,000 small transcripts made five of them a file (issue 25).
 */
function pooledReadsHandle(filePath: string): Pick<fs.FileHandle, "stat" | "read" | "close"> {
  const fd = openSync(filePath, "r");
  return {
    stat: async () => fstatSync(fd),
    read: (buffer: Buffer, offset: number, length: number, position: number) =>
      new Promise<{ bytesRead: number; buffer: Buffer }>((resolve, reject) => read(fd, buffer, offset, length, position, (error, bytesRead) => (error ? reject(error) : resolve({ bytesRead, buffer })))),
    close: async () => closeSync(fd),
  } as Pick<fs.FileHandle, "stat" | "read" | "close">;
}

function syncHandle(filePath: string): Pick<fs.FileHandle, "stat" | "read" | "close"> {
  const fd = openSync(filePath, "r");
  return {
    stat: async () => fstatSync(fd),
    read: async (buffer: Buffer, offset: number, length: number, position: number) => ({ bytesRead: readSync(fd, buffer, offset, length, position), buffer }),
    close: async () => closeSync(fd),
  } as Pick<fs.FileHandle, "stat" | "read" | "close">;
}
