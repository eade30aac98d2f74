/** The forensics scan over one line range of a transcript (in a worker or this thread). */
import { closeSync, openSync, readSync } from "node:fs";

import { LineMapper, type MappedLines } from "@/lib/forensics/scan-map";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import type { LineRange } from "@/lib/jsonl/workers";

/**
 * Bytes read per chunk (whole lines; a longer line is read alone): 1 MiB, as lib/forensics/line-chunks
 * measured best. Not imported from there: the worker bundle then leaves the line index, its zod
 * schemas and the wasm search out.
 */
export const CHUNK_BYTES = 1 << 20;

/** What every range of one transcript shares: the session's source and the file's line index. */
export type ScanRangeArg = { source: string; starts: Float64Array; size: number };

/**
 * The map half of the forensics scan over one line range of a transcript (lib/jsonl/workers's
 * task, run in a worker): maps the range's lines with a {@link LineMapper}. Memory: one chunk
 * plus the compact facts of the range.
 * @throws the fs error when the file cannot be read.
 */
export async function mapScanRange(filePath: string, range: LineRange, arg: ScanRangeArg): Promise<MappedLines> {
  const mapper = new LineMapper(arg.source);
  await forEachRangeChunk(filePath, range, arg, (buf, base, first, last) => mapper.mapRange(buf, base, arg.starts, first, last, arg.size));
  return mapper.take();
}

/**
 * Calls `onChunk(buf, base, first, last)` for consecutive whole-line chunks of `range`: `buf`
 * holds lines `first..last` (0-based indexes into `arg.starts`) from file offset `base`, about
 * {@link CHUNK_BYTES} (a longer line alone). The buffer is reused for the next chunk.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachRangeChunk(filePath: string, range: LineRange, arg: ScanRangeArg, onChunk: (buf: Buffer, base: number, first: number, last: number) => void): Promise<void> {
  const { starts, size } = arg;
  const lineCount = starts.length;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  const last = range.lastLine - 1;
  // Sync open and close: a pass maps ~120 ranges per file, and each FileHandle close cost ~1 ms.
  const fd = openSync(filePath, "r");
  // A chunk buffer of an earlier range when one is free: a fresh 1 MiB one is page-faulted in again.
  const spare = freeChunks.pop();
  // Over a scan memory of its own (lib/jsonl/json-scan): the skim checks lines where they were read.
  const shared = spare ?? scanMemoryBuffer(CHUNK_BYTES);
  try {
    let first = range.firstLine - 1;
    let lastYield = performance.now();
    while (first <= last) {
      const from = starts[first]!;
      // The last line that still ends within CHUNK_BYTES of `from` (at least `first`).
      let a = first;
      let b = last;
      while (a < b) {
        const mid = Math.floor((a + b + 1) / 2);
        if (lineEnd(mid) - from <= CHUNK_BYTES) a = mid;
        else b = mid - 1;
      }
      const to = lineEnd(a);
      const buf = to - from <= shared.length ? shared.subarray(0, to - from) : Buffer.allocUnsafe(to - from);
      // Sync reads (cheaper than async ones, as in lib/forensics/line-chunks), with a turn for the
      // event loop every ~10 ms.
      let got = 0;
      while (got < buf.length) {
        const bytesRead = readSync(fd, buf, got, buf.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      onChunk(buf.subarray(0, got), from, first, a);
      first = a + 1;
      if (first <= last && performance.now() - lastYield >= 10) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = performance.now();
      }
    }
  } finally {
    closeSync(fd);
    if (freeChunks.length < 2) freeChunks.push(shared);
  }
}

/** Chunk buffers of finished ranges, reused by the next ones (two ranges may be read at once in one thread). */
const freeChunks: Buffer[] = [];
