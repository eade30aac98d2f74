/** The JSONL record reader: `\n`-delimited records with the physical line each starts on (contract §1.6), whole file or one byte range, over the streaming line reader. */
import fs from "node:fs/promises";

import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import type { LineRange } from "@/lib/jsonl/workers";

const LF = 0x0a;

/**
 * Read size of {@link walkRecords}: small enough to stay in the CPU cache between the kernel's
 * copy and the scan (a 4 MiB buffer measured 2–3× more CPU for the read alone).
 */
const WALK_CHUNK_BYTES = 256 << 10;

/** Where a walk ended: the next local line number and the local line the last record started on (0 when none). */
export type WalkEnd = { nextLine: number; lastLine: number };

/** Options of {@link walkRecords}. */
export type WalkOptions = {
  /** Read size (default {@link WALK_CHUNK_BYTES}); a longer record is joined across reads. */
  chunkBytes?: number;
  /**
   * Awaited reads instead of blocking ones: the event loop runs between chunks (a walk of a
   * whole transcript on a server's main thread must not hold it for the file's length).
   */
  asyncReads?: boolean;
};

/**
 * Calls `onRecord` for every `\n`-delimited record of `[startByte, endByte)` of a file, in order,
 * with the record's bytes (terminator excluded; valid only during the call) and the physical
 * line it starts on, counted locally from 1 (contract §1.6: a raw U+2028/U+2029/U+0085, `\v`,
 * `\f`, `\x1c`–`\x1e` or a lone `\r` inside a record is a physical break too); so a JSON record
 * is never cut by a raw U+2028 inside one of its strings. `startByte` must follow a `\n` (or be
 * 0; `endByte` may be Infinity for the whole file). Blank records are passed too; no record
 * follows a final `\n`. `onRecord` returns false to stop the walk. A layer over the streaming
 * line reader ({@link forEachLineBytes}, which owns reading and splitting): synchronous per
 * record (no promise per line), reading `chunkBytes` at a time with blocking reads unless
 * `asyncReads`, up to the file's size when opened (and at most to `endByte`). Memory: the
 * reader's two buffers plus the longest record (a record cut by a rare break is copied).
 * @returns the next local line and the local line of the last record passed (0 when none);
 *   after a stop, `nextLine` is only the stopping record's line plus one.
 * @throws the fs error when the file cannot be read.
 */
export async function walkRecords(
  filePath: string,
  startByte: number,
  endByte: number,
  onRecord: (bytes: Buffer, line: number) => boolean | void,
  options: WalkOptions = {},
): Promise<WalkEnd> {
  let line = 1; // local line the next record starts on
  let lastLine = 0;
  let stoppedAt = 0; // nextLine after a stop
  // The earlier physical lines of a record cut by a rare break (copies: a read buffer is reused).
  let pending: Buffer[] = [];
  let pendingLine = 0;
  const streamOptions = { chunkBytes: Math.max(1, options.chunkBytes ?? WALK_CHUNK_BYTES), syncReads: !options.asyncReads, range: { startByte, endByte, firstLine: 1, upToFileEnd: true } };
  await forEachLineBytes(filePath, streamOptions, (n, bytes, start, end, next) => {
    const lf = next > end && bytes[next - 1] === LF;
    if (!lf && next > end) {
      // A break other than `\n` (a raw U+2028 in a string, a lone `\r`...): the record goes on.
      if (pending.length === 0) pendingLine = n;
      pending.push(Buffer.from(bytes.subarray(start, next)));
      return true;
    }
    // The record ends here: at its `\n` (a `\r` before it stays in the record), or at the stream's end.
    const recordLine = pending.length === 0 ? n : pendingLine;
    const tail = bytes.subarray(start, lf ? next - 1 : end);
    const record = pending.length === 0 ? tail : Buffer.concat([...pending, tail]);
    pending = [];
    lastLine = recordLine;
    line = lf ? n + 1 : recordLine;
    // Only a `\n`-ended record can stop the walk (the last one ends it anyway).
    if (onRecord(record, recordLine) === false && lf) {
      stoppedAt = recordLine + 1;
      return false;
    }
    return true;
  });
  if (stoppedAt > 0) return { nextLine: stoppedAt, lastLine };
  // The stream ended inside a record (its last break was not a `\n`).
  if (pending.length > 0) {
    lastLine = line = pendingLine;
    onRecord(Buffer.concat(pending), pendingLine);
  }
  return { nextLine: line, lastLine };
}

/**
 * Cuts bytes `[0, size)` into ranges starting right after the first `\n` at or after each of
 * `targets` (ascending byte offsets; always a line boundary, never inside another one, contract
 * §1.6), so every range holds whole lines. Line numbers are left 0: results are numbered when folded.
 * @throws the fs error when the file cannot be read.
 */
export async function newlineRanges(filePath: string, size: number, targets: readonly number[]): Promise<LineRange[]> {
  const cuts = [0];
  const handle = await fs.open(filePath, "r");
  try {
    const probe = Buffer.allocUnsafe(64 << 10);
    for (const target of targets) {
      let at = Math.max(cuts.at(-1)!, Math.floor(target));
      let cut = -1;
      while (cut === -1 && at < size) {
        const { bytesRead } = await handle.read(probe, 0, Math.min(probe.length, size - at), at);
        if (bytesRead === 0) break;
        const lf = probe.subarray(0, bytesRead).indexOf(0x0a);
        if (lf !== -1) cut = at + lf + 1;
        at += bytesRead;
      }
      if (cut === -1 || cut >= size) break;
      if (cut > cuts.at(-1)!) cuts.push(cut);
    }
  } finally {
    await handle.close();
  }
  return cuts.map((startByte, i) => ({ firstLine: 0, lastLine: 0, startByte, endByte: cuts[i + 1] ?? size }));
}

/**
 * Splits a file of `size` bytes into at most `parts` byte ranges, each starting just after a
 * `\n` ({@link newlineRanges}), for {@link walkRecords} in workers: the first range (read in the
 * calling thread while the workers start) gets `firstShare` of the bytes (default an equal
 * share), the others equal shares of the rest. Line numbers are not known before the ranges are
 * read: `firstLine`/`lastLine` are 0 and each range numbers its lines locally (the caller adds
 * the line counts of the ranges before it).
 * @throws the fs error when the file cannot be read.
 */
export async function splitRecordRanges(filePath: string, size: number, parts: number, firstShare = 1 / Math.max(1, parts)): Promise<LineRange[]> {
  if (parts <= 1) return [{ firstLine: 0, lastLine: 0, startByte: 0, endByte: size }];
  const first = Math.min(1, Math.max(0, firstShare)) * size;
  const targets = Array.from({ length: parts - 1 }, (_, k) => Math.floor(first + ((size - first) * k) / (parts - 1)));
  return newlineRanges(filePath, size, targets);
}
