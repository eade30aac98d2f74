/** The persisted line index format: encode, decode, read and write beside the workspace's copies. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as z from "zod";
import type { Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { setAsideDerived } from "@/lib/fs/set-aside";
import type { LineIndex } from "@/lib/jsonl/line-index";

/**
 * Persisted line index format, version 1 (little- or big-endian as recorded):
 * `[u32 LE header length][header JSON, UTF-8][zero padding to a multiple of 8 bytes]`
 * `[lineCount × float64 line-start offsets in bytes]`.
 */
export const LINE_INDEX_FILE_VERSION = 1;
const FORMAT = "casefile-line-index";
const ENDIAN = os.endianness();

const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(LINE_INDEX_FILE_VERSION),
  endian: z.literal(ENDIAN),
  sourcePath: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  lineCount: z.number().int().nonnegative(),
});

/** The cache file for `sourcePath` (absolute) inside `cacheDir`: `<sha256 hex of the path>.lidx`. */
export function lineIndexCachePath(cacheDir: string, sourcePath: string): string {
  return path.join(cacheDir, `${createHash("sha256").update(sourcePath).digest("hex")}.lidx`);
}

/** Serializes `index` of the file at absolute `sourcePath` into the persisted format. */
export function encodeLineIndexFile(sourcePath: string, index: LineIndex): Buffer {
  const { size, mtimeMs, lineCount } = index;
  const header = Buffer.from(
    JSON.stringify({ format: FORMAT, version: LINE_INDEX_FILE_VERSION, endian: ENDIAN, sourcePath, size, mtimeMs, lineCount }),
  );
  const dataStart = align8(4 + header.length);
  const bytes = Buffer.alloc(dataStart + lineCount * 8);
  bytes.writeUInt32LE(header.length, 0);
  header.copy(bytes, 4);
  const starts = index.starts.subarray(0, lineCount);
  Buffer.from(starts.buffer, starts.byteOffset, starts.byteLength).copy(bytes, dataStart);
  return bytes;
}

/**
 * Parses a persisted index and checks it is well formed and belongs to `sourcePath`: offsets
 * start at 0, strictly increase and stay below the recorded size. Does not compare with the
 * file on disk.
 * @returns the index, or null when the bytes are not a valid index for `sourcePath`.
 */
export function decodeLineIndexFile(bytes: Buffer, sourcePath: string): LineIndex | null {
  if (bytes.length < 4) return null;
  const headerLength = bytes.readUInt32LE(0);
  if (4 + headerLength > bytes.length) return null;
  let header: z.infer<typeof headerSchema>;
  try {
    header = headerSchema.parse(JSON.parse(bytes.toString("utf8", 4, 4 + headerLength)));
  } catch {
    return null;
  }
  const { size, mtimeMs, lineCount } = header;
  const dataStart = align8(4 + headerLength);
  if (header.sourcePath !== sourcePath || bytes.length !== dataStart + lineCount * 8) return null;
  const offset = bytes.byteOffset + dataStart;
  const starts =
    offset % 8 === 0
      ? new Float64Array(bytes.buffer, offset, lineCount)
      : new Float64Array(new Uint8Array(bytes.subarray(dataStart)).buffer);
  return hasValidStarts(starts, size) ? { size, mtimeMs, lineCount, starts } : null;
}

/**
 * Reads the persisted index of absolute `sourcePath` from `cacheDir`. With `log` (a workspace's
 * reads), a file that is corrupt or truncated (not merely of another format version, endianness or
 * source) is set aside with a warning naming it (issue 35), and the caller builds the index anew.
 * @returns the decoded index, or null when it is missing, unreadable or corrupt (never throws).
 */
export async function readPersistedLineIndex(cacheDir: string, sourcePath: string, log?: Logger): Promise<LineIndex | null> {
  const file = lineIndexCachePath(cacheDir, sourcePath);
  let bytes: Buffer;
  try {
    // On this thread: an index file is 8 bytes a line, and a thread-pool read of it cost more than the read (issue 25).
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  const index = decodeLineIndexFile(bytes, sourcePath);
  if (index === null && log && !isForeignIndex(bytes, sourcePath)) setAsideDerived(file, "corrupt", "is not a valid line index (corrupt or truncated)", log);
  return index;
}

/** Whether `bytes` start with a whole header of this format written by another version, machine or source: not corrupt, only not ours to use. */
function isForeignIndex(bytes: Buffer, sourcePath: string): boolean {
  if (bytes.length < 4 || 4 + bytes.readUInt32LE(0) > bytes.length) return false;
  try {
    const header = JSON.parse(bytes.toString("utf8", 4, 4 + bytes.readUInt32LE(0))) as Record<string, unknown> | null;
    return header?.format === FORMAT && (header.version !== LINE_INDEX_FILE_VERSION || header.endian !== ENDIAN || header.sourcePath !== sourcePath);
  } catch {
    return false;
  }
}

/**
 * Persists `index` atomically (writeFileAtomic), without fsync: the reader checks size, mtime
 * and every offset ({@link readPersistedLineIndex}), so a file cut short by a crash is rebuilt,
 * and prepare writes one per session (issue 13). Best effort: the cache is only an
 * optimisation, so a failed write (read-only or full disk) is swallowed and the index is
 * simply rebuilt next time.
 */
export async function writePersistedLineIndex(cacheDir: string, sourcePath: string, index: LineIndex): Promise<void> {
  try {
    await writeFileAtomic(lineIndexCachePath(cacheDir, sourcePath), encodeLineIndexFile(sourcePath, index), { durable: false });
  } catch {
    /* NOTE: deliberately ignored, see above */
  }
}

function hasValidStarts(starts: Float64Array, size: number): boolean {
  if (starts.length === 0) return size === 0;
  if (starts[0] !== 0 || starts[starts.length - 1]! >= size) return false;
  for (let i = 1; i < starts.length; i++) if (!(starts[i]! > starts[i - 1]!)) return false;
  return true;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
