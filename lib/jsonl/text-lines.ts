/** The in-memory line reader: physical lines (contract §1.6) and `\n` records of a small file read whole. */
import { isUtf8 } from "node:buffer";

import { LineStartList, scanChunk } from "@/lib/jsonl/line-scan";

/** Every physical line break of contract §1.6 in decoded text (`\r\n` is one break). */
const BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/**
 * Calls `onLine(start, end, next)` for every physical line of `text` (contract §1.6, Python
 * `str.splitlines()`): `text.slice(start, end)` is the line, `text.slice(end, next)` its break
 * (empty for a last line without one). No line follows a final break; the empty text has none.
 */
function forEachPhysicalLine(text: string, onLine: (start: number, end: number, next: number) => void): void {
  let start = 0;
  BREAK.lastIndex = 0;
  for (let m = BREAK.exec(text); m !== null; m = BREAK.exec(text)) {
    onLine(start, m.index, BREAK.lastIndex);
    start = BREAK.lastIndex;
  }
  if (start < text.length) onLine(start, text.length, text.length);
}

/**
 * The physical lines of decoded text, without their breaks, as the viewer numbers them (contract
 * §1.6: `\n`, `\r\n`, `\r`, `\v`, `\f`, `\x1c`–`\x1e`, U+0085, U+2028, U+2029; no extra line
 * after a final break): the text-file counterpart of lib/jsonl/stream-line-bytes.
 */
export function physicalLines(text: string): string[] {
  const out: string[] = [];
  forEachPhysicalLine(text, (start, end) => out.push(text.slice(start, end)));
  return out;
}

/** The breaks of contract §1.6 other than `\n`, as bytes (lib/jsonl/line-scan: none is produced by decoding anything else). */
const RARE_BREAK_BYTES: readonly (number | Buffer)[] = [0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, Buffer.from([0xc2, 0x85]), Buffer.from([0xe2, 0x80, 0xa8]), Buffer.from([0xe2, 0x80, 0xa9])];

/**
 * {@link physicalLines} of `data` decoded, when `data` is valid UTF-8 whose every break is `\n`
 * (memchr-speed checks), each line decoded on its own (an ASCII line stays a one-byte string,
 * which `JSON.parse` reads faster, and no text of the whole file is made); null otherwise (a
 * `\r\n`, another break, invalid bytes): decode it and take its physicalLines. A byte copy's
 * lines (issue 38): `data` is then these lines each followed by `\n` when it ends with one.
 */
export function newlineLines(data: Buffer): string[] | null {
  if (!newlineOnly(data)) return null;
  const out: string[] = [];
  for (let start = 0; start < data.length; ) {
    const nl = data.indexOf(0x0a, start);
    const end = nl === -1 ? data.length : nl;
    out.push(data.toString("utf8", start, end));
    start = end + 1;
  }
  return out;
}

/** True when `data` is valid UTF-8 whose every break of contract §1.6 is `\n` (memchr-speed checks, nothing decoded). */
function newlineOnly(data: Buffer): boolean {
  return isUtf8(data) && !RARE_BREAK_BYTES.some((b) => data.indexOf(b) !== -1);
}

/**
 * {@link byteCopyLines} whose `lines` are decoded only when first read, when `data` is newline-only
 * UTF-8 ending with `\n` (`bytes` is then `data`): a reader that takes what it needs from the
 * bytes never decodes them (issue 38: Gemini's prepare-turns). Otherwise byteCopyLines' answer.
 */
export function lazyByteCopyLines(data: Buffer): { lines: string[]; bytes?: Buffer } {
  if (data.length === 0 || data[data.length - 1] !== 0x0a || !newlineOnly(data)) return byteCopyLines(data);
  let lines: string[] | null = null;
  return {
    get lines(): string[] {
      return (lines ??= newlineLines(data)!);
    },
    bytes: data,
  };
}

/**
 * The physical lines of a file copied byte for byte (contract §1.6), decoded as {@link newlineLines}
 * decodes them when it can, with `bytes` (`data` itself) when `data` is exactly those lines each
 * followed by `\n` (then written as they are: issue 38, an agent's workspace file).
 */
export function byteCopyLines(data: Buffer): { lines: string[]; bytes?: Buffer } {
  const lines = newlineLines(data);
  if (lines === null) return { lines: physicalLines(data.toString("utf8")) };
  return data.length === 0 || data[data.length - 1] === 0x0a ? { lines, bytes: data } : { lines };
}

/** One `\n`-delimited record of a text and the physical line it starts on (1-based). */
export type TextRecord = { line: number; text: string };

/** A break of contract §1.6 other than `\n` (inside a `\n` record, each starts a physical line). */
const RARE_BREAK = /[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/**
 * The `\n`-delimited records of a JSONL file read whole (its bytes, or its decoded text), each
 * with the physical line it starts on (contract §1.6), exactly as lib/jsonl/record-walk's
 * `walkRecords` reads them from the file: a raw U+2028 (or another break that is not `\n`)
 * inside a record keeps it whole but counts a line; a `\r` before the `\n` stays in the record;
 * blank records are included; no record follows a final `\n`. Bytes are split by the streaming
 * reader's boundary scanner (lib/jsonl/line-scan) and decoded one record at a time (UTF-8 with
 * replacement), so an ASCII record stays a one-byte string, which `JSON.parse` reads faster than
 * a slice of one large decoded text. For small files (indexes, audit lists, ledger segments); big
 * ones stream with `walkRecords`.
 */
export function textRecords(input: string | Buffer): TextRecord[] {
  const out: TextRecord[] = [];
  forEachTextRecord(input, (text, line) => void out.push({ line, text }));
  return out;
}

/**
 * {@link textRecords} one record at a time, `onRecord(text, line)` in file order: for a caller
 * that parses each record and keeps no text (the texts of a whole file are never all alive).
 */
export function forEachTextRecord(input: string | Buffer, onRecord: (text: string, line: number) => void): void {
  if (typeof input === "string") recordsOfText(input, onRecord);
  else recordsOfBytes(input, onRecord);
}

/** {@link forEachTextRecord} of bytes: the physical lines found by the streaming reader's scanner, joined into records. */
function recordsOfBytes(data: Buffer, onRecord: (text: string, line: number) => void): void {
  if (data.length === 0) return;
  const starts = new LineStartList(data.length / 1024);
  starts.push(0);
  scanChunk(data, 0, true, data.length, starts);
  const offsets = starts.offsets;
  const count = starts.length;
  let recordStart = -1;
  let recordLine = 0;
  for (let k = 0; k < count; k++) {
    if (recordStart === -1) {
      recordStart = offsets[k]!;
      recordLine = k + 1;
    }
    const next = k + 1 < count ? offsets[k + 1]! : data.length;
    // The record ends at a line whose break ends in `\n` (`\n` or `\r\n`; the `\r` stays in it).
    if (data[next - 1] === 0x0a) {
      onRecord(data.toString("utf8", recordStart, next - 1), recordLine);
      recordStart = -1;
    }
  }
  if (recordStart !== -1) onRecord(data.toString("utf8", recordStart), recordLine);
}

/** {@link forEachTextRecord} of decoded text. */
function recordsOfText(text: string, onRecord: (text: string, line: number) => void): void {
  let line = 1;
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const record = text.slice(start, end);
    onRecord(record, line);
    // Every rare break inside starts a line, but a `\r` just before the `\n` is part of `\r\n`.
    let breaks = 0;
    RARE_BREAK.lastIndex = 0;
    while (RARE_BREAK.test(record)) breaks++;
    if (nl !== -1 && record.endsWith("\r")) breaks--;
    line += 1 + breaks;
    start = end + 1;
  }
}
