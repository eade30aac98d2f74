import fs from "node:fs/promises";

import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";

/**
 * Bytes read per chunk (whole lines; a longer line is read alone). 1 MiB stays in the CPU's L2
 * cache between the read and the search, and measured faster than 8 MiB on the 1 GB bench.
 */
export const CHUNK_BYTES = 1 << 20;

/**
 * Calls `onChunk(buf, base, first, last)` for consecutive whole-line chunks of `filePath`:
 * `buf` holds the bytes of lines `first..last` (0-based line indexes) starting at file offset
 * `base`, at most {@link CHUNK_BYTES} unless one line is longer. Memory: one chunk. The buffer
 * is reused for the next chunk: `onChunk` must copy (or decode) what it keeps.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachLineChunk(filePath: string, index: LineIndex, onChunk: (buf: Buffer, base: number, first: number, last: number) => void): Promise<void> {
  const { starts, lineCount, size } = index;
  if (lineCount === 0) return;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  const handle = await fs.open(filePath, "r");
  const shared = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
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
      const buf = to - from <= shared.length ? shared.subarray(0, to - from) : Buffer.allocUnsafe(to - from);
      let got = 0;
      while (got < buf.length) {
        const { bytesRead } = await handle.read(buf, got, buf.length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      onChunk(buf.subarray(0, got), from, first, a);
      first = a + 1;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Every physical line of `filePath` decoded (UTF-8 with replacement, terminator removed), in
 * order, as `(lineNumber, text)`: the line index's numbering (contract §1.6), read in chunks.
 */
export async function forEachLine(filePath: string, index: LineIndex, onLine: (lineNumber: number, text: string) => void): Promise<void> {
  const { starts, lineCount, size } = index;
  await forEachLineChunk(filePath, index, (buf, base, first, last) => {
    for (let i = first; i <= last; i++) {
      const start = starts[i]! - base;
      const end = Math.min(buf.length, (i + 1 < lineCount ? starts[i + 1]! : size) - base);
      onLine(i + 1, buf.toString("utf8", start, end - terminatorBytes(buf, start, end)));
    }
  });
}
