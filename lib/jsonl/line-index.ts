/** Where each physical line of a file starts (contract §1.6), built, cached and read by line number. */
import { closeSync, openSync, readSync, statSync, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import fs from "node:fs/promises";
import path from "node:path";
import { sharedBuilds, stampedCache } from "@/lib/cache/stamped-cache";
import type { Logger } from "@/lib/context";
import { AppError, isAppError } from "@/lib/errors";
import { readPersistedLineIndex, writePersistedLineIndex } from "@/lib/jsonl/line-index-file";
import { scanLineStarts } from "@/lib/jsonl/stream-line-bytes";
import { terminatorBytes } from "@/lib/jsonl/terminator";

export { terminatorBytes };

/**
 * Where each physical line of a file starts (contract §1.6 numbering: UTF-8 with replacement,
 * Python `str.splitlines()` boundaries, no extra line after a trailing break).
 * - `size`: file size in bytes when indexed; `mtimeMs`: its modification time in ms.
 * - `lineCount`: number of physical lines (0 for an empty file).
 * - `starts[i]`: byte offset where line `i + 1` begins; `starts.length === lineCount`.
 *   Line `i + 1` ends (terminator included) at `starts[i + 1]`, or at `size` for the last line.
 */
export type LineIndex = { size: number; mtimeMs: number; lineCount: number; starts: Float64Array };

/** A freshly built or extended index plus the byte offset its scan started from (0 = full scan). */
export type LineIndexBuild = LineIndex & { scannedFromByte: number };

/** One physical line: 1-based number, decoded text without terminator, content size in bytes. */
/**
 * One physical line: `text` decoded with U+FFFD replacement, `byteLength` its length in the
 * file (terminator excluded), and `bytes` a view of those exact bytes (valid until the caller
 * drops the window; no copy).
 */
export type LineText = { line: number; text: string; byteLength: number; bytes: Buffer };

/**
 * Builds the line index of `filePath`. When `previous` is given and the file only grew, extends
 * it by rescanning from the start of its last line (a partial last line or a trailing `\r` may
 * have been completed); when size and mtime are unchanged, returns `previous` as is.
 * `options.chunkBytes` sets the scanner read size (tests use tiny values).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function buildLineIndex(
  filePath: string,
  previous?: LineIndex,
  options: { chunkBytes?: number } = {},
): Promise<LineIndexBuild> {
  const handle = await openForRead(filePath);
  try {
    const { size, mtimeMs } = await handle.stat();
    if (previous && previous.size === size && previous.mtimeMs === mtimeMs) return { ...previous, scannedFromByte: size };
    let fromByte = 0;
    let prefix: Float64Array | undefined;
    if (previous && previous.lineCount > 0 && size > previous.size) {
      const lastStart = previous.starts[previous.lineCount - 1]!;
      if (await endsWithBoundary(handle, lastStart)) {
        fromByte = lastStart;
        prefix = previous.starts.subarray(0, previous.lineCount - 1);
      }
    }
    const starts = await scanLineStarts(filePath, size, { fromByte, prefix, chunkBytes: options.chunkBytes });
    return { size, mtimeMs, lineCount: starts.length, starts, scannedFromByte: fromByte };
  } catch (error) {
    throw toAppError(error, filePath);
  } finally {
    await handle.close();
  }
}

/**
 * Reads physical lines `startLine..endLine` (1-based, inclusive), reading exactly their bytes
 * (`starts[startLine - 1]` up to the end of line `endLine`) in one pass. Each line loses its terminator (longest of `E2 80 A8|A9`, `C2 85`, `\r\n`, or
 * one break byte) and is decoded as UTF-8 with U+FFFD replacement, keeping a BOM.
 * @throws RangeError unless `1 <= startLine <= endLine <= index.lineCount` (integers).
 * @throws AppError not_found / io_error when the file is missing, unreadable or now shorter.
 */
export async function readLineRange(filePath: string, index: LineIndex, startLine: number, endLine: number): Promise<LineText[]> {
  // NOTE: Buffer#toString decodes like TextDecoder with ignoreBOM (WHATWG replacement, BOM
  // kept) and is several times faster on short lines, which dominated compact reads.
  return (await readLineRangeBytes(filePath, index, startLine, endLine)).map(({ line, bytes }) => ({ line, text: bytes.toString("utf8"), byteLength: bytes.length, bytes }));
}

/**
 * {@link readLineRange} without the decoding: each line's bytes without its terminator, as a
 * view of one buffer holding the range. For a reader that decodes one line at a time, so a
 * range's texts are never all alive at once (issue 13: a cold compact block decoded 500 lines
 * of ~8 KB before parsing the first).
 * @throws as {@link readLineRange}.
 */
export async function readLineRangeBytes(filePath: string, index: LineIndex, startLine: number, endLine: number): Promise<{ line: number; bytes: Buffer }[]> {
  const bytes = rangeBuffer(index, startLine, endLine);
  const from = index.starts[startLine - 1]!;
  if (bytes.length <= SYNC_READ_MAX_BYTES) {
    if (!readFullySync(filePath, bytes, from)) throw new AppError("io_error", "The file is shorter than its line index.", { path: filePath });
  } else {
    const handle = await openForRead(filePath);
    try {
      if (!(await readFully(handle, bytes, from))) throw new AppError("io_error", "The file is shorter than its line index.");
    } catch (error) {
      throw toAppError(error, filePath);
    } finally {
      await handle.close();
    }
  }
  return splitRange(index, startLine, endLine, bytes);
}

/**
 * {@link readLineRangeBytes} read on the calling thread, whatever the range's size: for a reader
 * that needs a few lines now (records asked for outside the window it read, issue 38).
 * @throws as {@link readLineRangeBytes}.
 */
export function readLineRangeBytesSync(filePath: string, index: LineIndex, startLine: number, endLine: number): { line: number; bytes: Buffer }[] {
  const bytes = rangeBuffer(index, startLine, endLine);
  if (!readFullySync(filePath, bytes, index.starts[startLine - 1]!)) throw new AppError("io_error", "The file is shorter than its line index.", { path: filePath });
  return splitRange(index, startLine, endLine, bytes);
}

/** A buffer for lines `startLine..endLine`'s bytes. @throws RangeError unless `1 <= startLine <= endLine <= index.lineCount` (integers). */
function rangeBuffer(index: LineIndex, startLine: number, endLine: number): Buffer {
  const { lineCount, starts } = index;
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || startLine > endLine || endLine > lineCount) {
    throw new RangeError(`Line range ${startLine}-${endLine} is outside 1-${lineCount}.`);
  }
  return Buffer.allocUnsafe((endLine < lineCount ? starts[endLine]! : index.size) - starts[startLine - 1]!);
}

/** Lines `startLine..endLine` of `bytes` (read from the first one's start), each without its terminator. */
function splitRange(index: LineIndex, startLine: number, endLine: number, bytes: Buffer): { line: number; bytes: Buffer }[] {
  const { lineCount, starts } = index;
  const from = starts[startLine - 1]!;
  const lines: { line: number; bytes: Buffer }[] = [];
  for (let line = startLine; line <= endLine; line++) {
    const start = starts[line - 1]! - from;
    const end = (line < lineCount ? starts[line]! : index.size) - from;
    lines.push({ line, bytes: bytes.subarray(start, end - terminatorBytes(bytes, start, end)) });
  }
  return lines;
}

/**
 * One physical line's bytes inside a shared read buffer: `bytes[start..end)` without its
 * terminator, `bytes[start..next)` with it.
 */
export type LineBytes = { line: number; bytes: Buffer; start: number; end: number; next: number };

// ignoreBOM keeps a leading U+FEFF, like Python's "utf-8" codec (contract §1.6).
/**
 * Bytes of line indexes kept in memory (issue 13 §4: bounded by bytes, not files): 8 bytes a
 * line, so ~8 million lines, e.g. the indexes of several gigabyte sessions (~320k lines, 2.5 MB
 * each) and every small one a project page touches. An index past the budget is served from its
 * persisted file on each call instead of pinned.
 */
export const LINE_INDEX_MEMORY_BYTES = 64 << 20;
/** Plain data, so one cache serves every copy of this module in the server. Unstamped: a stale index is the base a grown file extends. */
const memory = stampedCache<LineIndex>("line-index:lru", LINE_INDEX_MEMORY_BYTES);
const inFlight = sharedBuilds<LineIndex>("line-index:in-flight");

/**
 * Returns a current line index of `filePath`: from the in-process LRU (bounded by
 * {@link LINE_INDEX_MEMORY_BYTES}, keyed by absolute path), else from the persisted index in `cacheDir` (when not null;
 * none for a file under {@link PERSISTED_INDEX_MIN_BYTES}), else built.
 * An entry is current when size and mtimeMs match; a grown file is extended, any other change
 * rebuilds. New indexes are persisted atomically; a corrupt cache file is ignored (and with `log`,
 * set aside with a warning naming it).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function getLineIndex(filePath: string, cacheDir: string | null, log?: Logger): Promise<LineIndex> {
  const key = path.resolve(filePath);
  return inFlight.run(key, () => resolveLineIndex(key, cacheDir, log));
}

/**
 * Adopts `index`, built from another file with the same bytes (prepare's byte copy of the source
 * it just analysed, issue 13), as the line index of `filePath` instead of reading `filePath`
 * again: stored in the in-process cache and persisted in `cacheDir` (from {@link PERSISTED_INDEX_MIN_BYTES}), with `filePath`'s own
 * mtime. Adopted only when `filePath` has the index's size and its mtime within 1 ms (a copy
 * keeps its source's mtime, so a source changed since it was indexed is never adopted);
 * otherwise falls back to {@link getLineIndex}. `known`: `filePath`'s stat, when the caller has just taken it.
 * @throws AppError not_found / io_error when `filePath` cannot be read.
 */
export async function adoptLineIndex(filePath: string, cacheDir: string | null, index: LineIndex, known?: Stats): Promise<LineIndex> {
  const key = path.resolve(filePath);
  let stat: Stats;
  try {
    stat = known ?? statSync(key);
  } catch (error) {
    throw toAppError(error, key);
  }
  if (stat.size !== index.size || Math.abs(stat.mtimeMs - index.mtimeMs) >= 1) return getLineIndex(filePath, cacheDir);
  const adopted: LineIndex = { size: stat.size, mtimeMs: stat.mtimeMs, lineCount: index.lineCount, starts: index.starts };
  remember(key, adopted);
  if (cacheDir !== null && adopted.size >= PERSISTED_INDEX_MIN_BYTES) await writePersistedLineIndex(cacheDir, key, adopted);
  return adopted;
}

/**
 * Files below this many bytes get no persisted index: building theirs again (one read and a
 * newline scan) costs no more than reading a cache file back, and prepare of thousands of small
 * sessions spent a fifth of its time writing those files (issue 38, Copilot CLI's 20 KB sessions).
 */
export const PERSISTED_INDEX_MIN_BYTES = 64 << 10;

/** Empties the in-process cache (tests and benchmarks measure cold and persisted loads). */
export function clearLineIndexCache(): void {
  memory.clear();
}

async function resolveLineIndex(key: string, cacheDir: string | null, log?: Logger): Promise<LineIndex> {
  let stat: Stats;
  try {
    // On this thread: the stat decides whether the cached index serves (see SYNC_READ_MAX_BYTES).
    stat = statSync(key);
  } catch (error) {
    throw toAppError(error, key);
  }
  const isCurrent = (index: LineIndex): boolean => index.size === stat.size && index.mtimeMs === stat.mtimeMs;
  let base = memory.get(key);
  if (base && isCurrent(base)) return remember(key, base);
  // NOTE: an in-process entry is at least as recent as what this process persisted, so the
  // cache file is only consulted on a miss (a live session would otherwise reread it per call).
  if (!base && cacheDir !== null && stat.size >= PERSISTED_INDEX_MIN_BYTES) {
    const stored = await readPersistedLineIndex(cacheDir, key, log);
    if (stored && isCurrent(stored)) return remember(key, stored);
    base = stored ?? undefined;
  }
  const built = await buildLineIndex(key, base);
  remember(key, built);
  if (cacheDir !== null && built.size >= PERSISTED_INDEX_MIN_BYTES) await writePersistedLineIndex(cacheDir, key, built);
  return built;
}

function remember(key: string, index: LineIndex): LineIndex {
  // The whole buffer the offsets sit in: a view of a persisted file's bytes holds all of them.
  memory.set(key, "", index, Math.max(index.starts.byteLength, index.starts.buffer.byteLength) + 2 * key.length + 64);
  return index;
}

/** Whether the bytes just before `offset` end with a line boundary (always true at 0). */
async function endsWithBoundary(handle: FileHandle, offset: number): Promise<boolean> {
  if (offset === 0) return true;
  const from = Math.max(0, offset - 3);
  const tail = Buffer.alloc(offset - from);
  return (await readFully(handle, tail, from)) && terminatorBytes(tail, 0, tail.length) > 0;
}

/**
 * Reads of at most this many bytes are made on the calling thread: a thread-pool round trip costs
 * ~60 µs of CPU, more than such a read from the page cache (issue 25: a catalog refresh probes
 * the head and tail of 20,000 sessions).
 */
const SYNC_READ_MAX_BYTES = 1 << 20;

/** Fills `buffer` from file offset `position` of `filePath` on this thread; false when the file ends first. @throws the AppError of the open or read. */
function readFullySync(filePath: string, buffer: Buffer, position: number): boolean {
  let fd: number;
  try {
    fd = openSync(filePath, "r");
  } catch (error) {
    throw toAppError(error, filePath);
  }
  try {
    for (let filled = 0; filled < buffer.length; ) {
      const bytesRead = readSync(fd, buffer, filled, buffer.length - filled, position + filled);
      if (bytesRead === 0) return false;
      filled += bytesRead;
    }
    return true;
  } catch (error) {
    throw toAppError(error, filePath);
  } finally {
    closeSync(fd);
  }
}

/** Fills `buffer` from file offset `position`; false when the file ends first. */
async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<boolean> {
  // NOTE: one read(2) returns at most ~2 GiB on Linux, so loop rather than trust a single call.
  for (let filled = 0; filled < buffer.length; ) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) return false;
    filled += bytesRead;
  }
  return true;
}


async function openForRead(filePath: string): Promise<FileHandle> {
  try {
    return await fs.open(filePath, "r");
  } catch (error) {
    throw toAppError(error, filePath);
  }
}

function toAppError(error: unknown, filePath: string): unknown {
  if (error instanceof RangeError) return error;
  if (isAppError(error)) {
    return error.details.path ? error : new AppError(error.code, error.message, { ...error.details, path: filePath }, { cause: error.cause });
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === "ENOENT") return new AppError("not_found", "The session file does not exist.", { path: filePath }, { cause: error });
  return new AppError("io_error", "The session file could not be read.", { path: filePath }, { cause: error });
}
