/** The JSONL record reader: `\n`-delimited records with the physical line each starts on (contract §1.6), whole file or one byte range. */
import { readSync } from "node:fs";
import fs from "node:fs/promises";

import type { LineRange } from "@/lib/jsonl/workers";

const LF = 0x0a;
const CR = 0x0d;
/** Single-byte physical breaks other than `\n` (`\r` handled apart: `\r\n` is one break). */
const RARE_SINGLE = [CR, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e] as const;
const RARE_MULTI = [Buffer.from([0xc2, 0x85]), Buffer.from([0xe2, 0x80, 0xa8]), Buffer.from([0xe2, 0x80, 0xa9])] as const;

/**
 * Read size of {@link walkRecords}: small enough to stay in the CPU cache between the kernel's
 * copy and the scan (a 4 MiB buffer measured 2–3× more CPU for the read alone).
 */
const WALK_CHUNK_BYTES = 256 << 10;

/** Where a walk ended: the next local line number and the local line the last record started on (0 when none). */
export type WalkEnd = { nextLine: number; lastLine: number };

/** Options of {@link walkRecords}. */
export type WalkOptions = {
  /** Read size (default {@link WALK_CHUNK_BYTES}); a longer record grows the buffer. */
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
 * follows a final `\n`. `onRecord` returns false to stop the walk. Synchronous per record (no
 * promise per line), reading `chunkBytes` at a time with blocking reads unless `asyncReads` (a
 * file-cache read of a chunk takes well under a millisecond; async reads measured ~50% more CPU
 * for the walk). Memory: one chunk plus the longest record.
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
  const handle = await fs.open(filePath, "r");
  let line = 1;
  let lastLine = 0;
  try {
    let buf = Buffer.allocUnsafe(Math.max(1, options.chunkBytes ?? WALK_CHUNK_BYTES));
    let filled = 0;
    /** Rare-break offsets inside the carried (unfinished) record, ascending. */
    let carried: number[] = [];
    let position = startByte;
    for (;;) {
      if (filled === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const want = Math.min(buf.length - filled, endByte - position);
      const bytesRead = want <= 0 ? 0 : options.asyncReads ? (await handle.read(buf, filled, want, position)).bytesRead : readSync(handle.fd, buf, filled, want, position);
      position += bytesRead;
      const end = filled + bytesRead;
      if (bytesRead === 0) {
        if (filled > 0) {
          lastLine = line;
          onRecord(buf.subarray(0, filled), line);
        }
        break;
      }
      // Rare breaks of the new bytes join those of the record carried over, in order.
      const rare = rareBreaks(buf, filled, end, carried);
      let next = 0;
      let start = 0;
      for (let nl = buf.indexOf(LF, filled); nl !== -1 && nl < end; nl = buf.indexOf(LF, nl + 1)) {
        const rec = buf.subarray(start, nl);
        lastLine = line;
        if (onRecord(rec, line) === false) return { nextLine: line + 1, lastLine };
        let breaks = 0;
        // A `\r` right before the record's `\n` is part of `\r\n`.
        for (; next < rare.length && rare[next]! < nl; next++) if (rare[next] !== nl - 1 || buf[nl - 1] !== CR) breaks += 1;
        line += 1 + breaks;
        start = nl + 1;
      }
      carried = next === rare.length ? [] : rare.slice(next).map((at) => at - start);
      // Keep the unfinished record at the buffer's start.
      buf.copy(buf, 0, start, end);
      filled = end - start;
    }
  } finally {
    await handle.close();
  }
  return { nextLine: line, lastLine };
}

/**
 * Splits a file of `size` bytes into at most `parts` byte ranges, each starting just after a
 * `\n` (read from the file), for {@link walkRecords} in workers: the first range (read in the
 * calling thread while the workers start) gets `firstShare` of the bytes (default an equal
 * share), the others equal shares of the rest. Line numbers are not known before the ranges are
 * read: `firstLine`/`lastLine` are 0 and each range numbers its lines locally (the caller adds
 * the line counts of the ranges before it).
 * @throws the fs error when the file cannot be read.
 */
export async function splitRecordRanges(filePath: string, size: number, parts: number, firstShare = 1 / Math.max(1, parts)): Promise<LineRange[]> {
  const cuts = [0];
  if (parts > 1) {
    const first = Math.min(1, Math.max(0, firstShare)) * size;
    const handle = await fs.open(filePath, "r");
    try {
      const probe = Buffer.allocUnsafe(64 << 10);
      for (let k = 1; k < parts; k++) {
        let at = Math.max(cuts.at(-1)! + 1, Math.floor(first + ((size - first) * (k - 1)) / (parts - 1)));
        let cut = -1;
        while (at < size && cut === -1) {
          const { bytesRead } = await handle.read(probe, 0, probe.length, at);
          if (bytesRead === 0) break;
          const nl = probe.subarray(0, bytesRead).indexOf(LF);
          if (nl === -1) at += bytesRead;
          else cut = at + nl + 1;
        }
        if (cut === -1 || cut >= size) break;
        cuts.push(cut);
      }
    } finally {
      await handle.close();
    }
  }
  return cuts.map((startByte, i) => ({ firstLine: 0, lastLine: 0, startByte, endByte: cuts[i + 1] ?? size }));
}

/**
 * `carried` followed by the offsets of the physical breaks other than `\n` that end in
 * `buf[from, end)` (of a multi-byte break, its last byte; its first bytes may precede `from`),
 * ascending. One memchr pass per pattern; most reads find none. A `\r` is listed even before a
 * `\n` (the caller skips those).
 */
function rareBreaks(buf: Buffer, from: number, end: number, carried: number[]): number[] {
  const view = buf.subarray(from, end);
  let found: number[] | null = null;
  for (const b of RARE_SINGLE) {
    for (let i = view.indexOf(b); i !== -1; i = view.indexOf(b, i + 1)) (found ??= []).push(from + i);
  }
  // memchr for the multi-byte patterns' last byte (a continuation byte other text also uses),
  // then a look at the bytes before it.
  for (const p of RARE_MULTI) {
    const last = p[p.length - 1]!;
    for (let i = view.indexOf(last); i !== -1; i = view.indexOf(last, i + 1)) {
      const at = from + i;
      if (at >= p.length - 1 && buf[at - 1] === p[p.length - 2] && (p.length === 2 || buf[at - 2] === p[0])) (found ??= []).push(at);
    }
  }
  if (found === null) return carried;
  found.sort((a, b) => a - b);
  return carried.length === 0 ? found : [...carried, ...found];
}
