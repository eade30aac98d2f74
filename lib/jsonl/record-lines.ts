import fs from "node:fs/promises";

/** One JSONL record as raw bytes, with the physical line (contract §1.6) it starts on. */
export type RecordLine = { line: number; bytes: Buffer };

const LF = 0x0a;
const CR = 0x0d;
/** Single-byte physical breaks other than `\n` (`\r` handled apart: `\r\n` is one break). */
const RARE_SINGLE = [0x0b, 0x0c, 0x1c, 0x1d, 0x1e] as const;
const RARE_MULTI = [Buffer.from([0xc2, 0x85]), Buffer.from([0xe2, 0x80, 0xa8]), Buffer.from([0xe2, 0x80, 0xa9])] as const;

/** True when `buf` holds any physical line break other than `\n` (one memchr pass per pattern). */
function hasRareBreak(buf: Buffer): boolean {
  if (buf.indexOf(CR) !== -1) return true;
  for (const b of RARE_SINGLE) if (buf.indexOf(b) !== -1) return true;
  // memchr for the multi-byte patterns' last byte (a continuation byte other text also uses),
  // then a look at the bytes before it: no pattern search over the whole buffer.
  for (const p of RARE_MULTI) {
    const last = p[p.length - 1]!;
    for (let i = buf.indexOf(last, p.length - 1); i !== -1; i = buf.indexOf(last, i + 1)) {
      if (buf[i - 1] === p[p.length - 2] && (p.length === 2 || buf[i - 2] === p[0])) return true;
    }
  }
  return false;
}

/**
 * Physical breaks inside one `\n`-delimited record (Python `splitlines` boundaries other than
 * `\n`): a raw U+2028/U+2029/U+0085 inside a JSON string, or stray control breaks. A `\r`
 * directly before the record's `\n` is part of `\r\n` and not counted.
 */
function countRareBreaks(rec: Buffer, endsWithLf: boolean): number {
  let n = 0;
  for (let i = 0; i < rec.length; i++) {
    const b = rec[i]!;
    if (b === CR) {
      if (i !== rec.length - 1 || !endsWithLf) n += 1;
    } else if (b === 0x0b || b === 0x0c || b === 0x1c || b === 0x1d || b === 0x1e) n += 1;
    else if (b === 0xc2 && rec[i + 1] === 0x85) n += 1;
    else if (b === 0xe2 && rec[i + 1] === 0x80 && (rec[i + 2] === 0xa8 || rec[i + 2] === 0xa9)) n += 1;
  }
  return n;
}

/**
 * Streams a JSONL file's records (split on `\n`, so a raw U+2028 inside a JSON string never
 * breaks a record) as byte slices, each with the 1-based physical line it starts on as the
 * viewer and `read_session_lines` number lines (contract §1.6). Nothing is decoded here: the
 * caller decides per record whether it is worth a `JSON.parse`. Blank records are yielded too.
 * With `range` (a {@link import("@/lib/jsonl/workers").LineRange}: its start follows a `\n`),
 * only the records in `[startByte, endByte)` are read, numbered from `firstLine`.
 * Memory: one read buffer (`chunkBytes`, default 4 MiB) plus the longest record.
 * A yielded slice is only valid until the next iteration (the buffer is reused).
 * @throws the fs error when the file cannot be read.
 */
export async function* streamRecordLines(
  filePath: string,
  chunkBytes = 4 << 20,
  range: { firstLine: number; startByte: number; endByte: number } = { firstLine: 1, startByte: 0, endByte: Number.POSITIVE_INFINITY },
): AsyncGenerator<RecordLine> {
  const handle = await fs.open(filePath, "r");
  try {
    let buf = Buffer.allocUnsafe(chunkBytes);
    let filled = 0;
    let line = range.firstLine;
    let position = range.startByte;
    let eof = false;
    while (!eof) {
      if (filled === buf.length) {
        // One record longer than the buffer: grow it.
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      const want = Math.min(buf.length - filled, range.endByte - position);
      const { bytesRead } = want > 0 ? await handle.read(buf, filled, want, position) : { bytesRead: 0 };
      position += bytesRead;
      if (bytesRead === 0) eof = true;
      const end = filled + bytesRead;
      const scanFrom = filled;
      const view = buf.subarray(0, end);
      const rare = hasRareBreak(view.subarray(scanFrom));
      let start = 0;
      for (let nl = view.indexOf(LF, scanFrom); nl !== -1; nl = view.indexOf(LF, nl + 1)) {
        const rec = view.subarray(start, nl);
        yield { line, bytes: rec };
        line += 1 + (rare || start < scanFrom ? countRareBreaks(rec, true) : 0);
        start = nl + 1;
      }
      if (eof) {
        if (start < end) {
          const rec = view.subarray(start, end);
          yield { line, bytes: rec };
        }
        break;
      }
      // Keep the unfinished record at the buffer's start.
      buf.copy(buf, 0, start, end);
      filled = end - start;
    }
  } finally {
    await handle.close();
  }
}
