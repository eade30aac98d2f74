import fs from "node:fs/promises";

import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";

/** Bytes read per chunk (whole lines; a longer line is read alone). */
export const CHUNK_BYTES = 8 << 20;

/**
 * Calls `onChunk(buf, base, first, last)` for consecutive whole-line chunks of `filePath`:
 * `buf` holds the bytes of lines `first..last` (0-based line indexes) starting at file offset
 * `base`, at most {@link CHUNK_BYTES} unless one line is longer. Memory: one chunk. An async
 * `onChunk` is awaited before the next chunk is read.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachLineChunk(filePath: string, index: LineIndex, onChunk: (buf: Buffer, base: number, first: number, last: number) => void | Promise<void>): Promise<void> {
  const { starts, lineCount, size } = index;
  if (lineCount === 0) return;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  const handle = await fs.open(filePath, "r");
  try {
    let first = 0;
    while (first < lineCount) {
      const from = starts[first]!;
      // The last line that still ends within CHUNK_BYTES of `from` (at least `first`).
      let a = first;
      let b = lineCount - 1;
      while (a < b) {
        const mid = Math.floor((a + b + 1) / 2);
        if (lineEnd(mid) - from <= CHUNK_BYTES) a = mid;
        else b = mid - 1;
      }
      const to = lineEnd(a);
      const buf = Buffer.allocUnsafe(to - from);
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await handle.read(buf, got, buf.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      await onChunk(buf.subarray(0, got), from, first, a);
      first = a + 1;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Bytes of lines handed to `onLine` between two yields to the event loop in {@link forEachLine}
 * (issue 13: a server scanning a 1 GB session for one page kept every other request waiting
 * for a whole 8 MiB chunk's parsing at each of its steps; a page's first rows took seconds).
 */
export const YIELD_BYTES = 1 << 20;

/**
 * Every physical line of `filePath` decoded (UTF-8 with replacement, terminator removed), in
 * order, as `(lineNumber, text)`: the line index's numbering (contract §1.6), read in chunks.
 * Yields to the event loop (`setImmediate`) after every {@link YIELD_BYTES} of lines, so other
 * requests of the same process are served while a long file is read.
 */
export async function forEachLine(filePath: string, index: LineIndex, onLine: (lineNumber: number, text: string) => void): Promise<void> {
  const { starts, lineCount, size } = index;
  await forEachLineChunk(filePath, index, async (buf, base, first, last) => {
    let sinceYield = 0;
    for (let i = first; i <= last; i++) {
      const start = starts[i]! - base;
      const end = Math.min(buf.length, (i + 1 < lineCount ? starts[i + 1]! : size) - base);
      onLine(i + 1, buf.toString("utf8", start, end - terminatorBytes(buf, start, end)));
      sinceYield += end - start;
      if (sinceYield >= YIELD_BYTES && i < last) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  });
}
