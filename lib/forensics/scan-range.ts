/** The forensics scan over one line range of a transcript (in a worker or this thread). */
import { CHUNK_BYTES, forEachRangeChunk } from "@/lib/forensics/line-chunks";
import { LineMapper, type MappedLines } from "@/lib/forensics/scan-map";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import type { LineRange } from "@/lib/jsonl/workers";

/** What every range of one transcript shares: the session's source and the file's line index. */
export type ScanRangeArg = { source: string; starts: Float64Array; size: number };

/**
 * The map half of the forensics scan over one line range of a transcript (lib/jsonl/workers's
 * task, run in a worker): maps the range's lines, read by lib/forensics/line-chunks, with a
 * {@link LineMapper}. Memory: one chunk plus the compact facts of the range.
 * @throws the fs error when the file cannot be read.
 */
export async function mapScanRange(filePath: string, range: LineRange, arg: ScanRangeArg): Promise<MappedLines> {
  const mapper = new LineMapper(arg.source);
  // A chunk buffer of an earlier range when one is free (a fresh 1 MiB one is page-faulted in
  // again), over a scan memory of its own (lib/jsonl/json-scan): the skim checks lines where they were read.
  const shared = freeChunks.pop() ?? scanMemoryBuffer(CHUNK_BYTES);
  try {
    await forEachRangeChunk(
      filePath,
      arg,
      range.firstLine - 1,
      range.lastLine - 1,
      (length) => (length <= shared.length ? shared.subarray(0, length) : Buffer.allocUnsafe(length)),
      (buf, base, first, last) => mapper.mapRange(buf, base, arg.starts, first, last, arg.size),
    );
  } finally {
    if (freeChunks.length < 2) freeChunks.push(shared);
  }
  return mapper.take();
}

/** Chunk buffers of finished ranges, reused by the next ones (two ranges may be read at once in one thread). */
const freeChunks: Buffer[] = [];
