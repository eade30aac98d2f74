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

/**
 * The `\n`-delimited records of a JSONL text read whole, each with the physical line it starts on
 * (contract §1.6), exactly as lib/jsonl/record-walk's `walkRecords` reads them from the file: a
 * raw U+2028 (or another break that is not `\n`) inside a record keeps it whole but counts a
 * line; a `\r` before the `\n` stays in the record; blank records are included; no record
 * follows a final `\n`. For small files (indexes, audit lists); big ones stream with `walkRecords`.
 */
export function textRecords(text: string): TextRecord[] {
  const out: TextRecord[] = [];
  let recordStart = -1;
  let recordLine = 0;
  let line = 0;
  forEachPhysicalLine(text, (start, end, next) => {
    line += 1;
    if (recordStart === -1) {
      recordStart = start;
      recordLine = line;
    }
    if (next > end && text.charCodeAt(next - 1) !== 0x0a) return; // a break inside the record
    out.push({ line: recordLine, text: text.slice(recordStart, next > end ? next - 1 : end) });
    recordStart = -1;
  });
  if (recordStart !== -1) out.push({ line: recordLine, text: text.slice(recordStart) });
  return out;
}
