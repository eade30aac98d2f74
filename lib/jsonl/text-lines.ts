/** The in-memory line reader: physical lines (contract §1.6) and `\n` records of text already read whole (small files). */

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

/** One `\n`-delimited record of a text and the physical line it starts on (1-based). */
export type TextRecord = { line: number; text: string };

/** A break of contract §1.6 other than `\n` (inside a `\n` record, each starts a physical line). */
const RARE_BREAK = /[\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/**
 * The `\n`-delimited records of a JSONL file read whole (its bytes, or its decoded text), each
 * with the physical line it starts on (contract §1.6), exactly as lib/jsonl/record-walk's
 * `walkRecords` reads them from the file: a raw U+2028 (or another break that is not `\n`)
 * inside a record keeps it whole but counts a line; a `\r` before the `\n` stays in the record;
 * blank records are included; no record follows a final `\n`. Bytes are decoded one record at a
 * time (UTF-8 with replacement), so an ASCII record stays a one-byte string, which `JSON.parse`
 * reads faster than a slice of one large decoded text. For small files (indexes, audit lists,
 * ledger segments); big ones stream with `walkRecords`.
 */
export function textRecords(input: string | Buffer): TextRecord[] {
  const out: TextRecord[] = [];
  const text = typeof input === "string";
  let line = 1;
  for (let start = 0; start < input.length; ) {
    const nl = text ? input.indexOf("\n", start) : input.indexOf(0x0a, start);
    const end = nl === -1 ? input.length : nl;
    const record = text ? input.slice(start, end) : input.toString("utf8", start, end);
    out.push({ line, text: record });
    // Every rare break inside starts a line, but a `\r` just before the `\n` is part of `\r\n`.
    let breaks = 0;
    RARE_BREAK.lastIndex = 0;
    while (RARE_BREAK.test(record)) breaks++;
    if (nl !== -1 && record.endsWith("\r")) breaks--;
    line += 1 + breaks;
    start = end + 1;
  }
  return out;
}
