/**
 * Lean parsing of one JSONL line: `JSON.parse` of the line with every long string value cut
 * to a short prefix before decoding, so a record's structure, keys, numbers and short strings
 * cost what they cost, while the tool output, file content or prompt it carries (most of a
 * real transcript's bytes) is skipped with `Buffer#indexOf` at memchr speed (issues 9, 10, 13).
 *
 * A cut string becomes `<prefix>\u0000<raw bytes>`: the prefix is the string's first
 * `keepBytes` raw bytes (never cut inside a UTF-8 sequence or an escape), then U+0000, then the
 * decimal byte length of the whole literal between its quotes. Object keys are never cut. Use {@link isCut},
 * {@link cutPrefix} and {@link cutBytes} to read such a value; a caller that needs a cut
 * string whole parses the line with `JSON.parse` instead.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Marks a cut string: U+0000 never appears unescaped in a JSON text, so a real string holding it is rare. */
export const CUT_MARK = "\u0000";

/** The value {@link parseLeanLine} returns for a line that is not valid JSON. */
export const MALFORMED: unique symbol = Symbol("malformed");

/** Options of {@link parseLeanLine}. */
export type LeanOptions = {
  /** String literals longer than this many raw bytes are cut (default 512). */
  maxStringBytes?: number;
  /** Raw bytes kept of a cut string (default 128; at most `maxStringBytes`). */
  keepBytes?: number;
};

/** Lines shorter than this are parsed whole: the quote walk would cost more than it saves. */
const WHOLE_LINE_BYTES = 2048;

/**
 * Parses `bytes[start, end)` (one line, terminator excluded) as JSON, cutting long string
 * literals (see the module comment). Equivalent to `JSON.parse(bytes.toString("utf8", start,
 * end))` except for cut strings, and except that the *content* of a cut string is not validated:
 * a raw control character or an invalid escape inside it (which no JSON writer produces) does
 * not make the line malformed. Structure errors, truncation (an unterminated string) and
 * anything outside long strings are detected exactly as `JSON.parse` does.
 * @returns the parsed value, or {@link MALFORMED}. Never throws.
 */
export function parseLeanLine(bytes: Uint8Array, start: number, end: number, options: LeanOptions = {}): unknown {
  const text = leanLineText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), start, end, options);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return MALFORMED;
  }
}

/**
 * The JSON text {@link parseLeanLine} parses: the line decoded as UTF-8 (WHATWG replacement, like
 * `Buffer#toString`) with long string literals cut. An unterminated string leaves the line whole.
 */
export function leanLineText(bytes: Buffer, start: number, end: number, options: LeanOptions = {}): string {
  const maxString = options.maxStringBytes ?? 512;
  if (end - start < Math.max(WHOLE_LINE_BYTES, maxString)) return bytes.toString("utf8", start, end);
  const keep = Math.min(options.keepBytes ?? 128, maxString);
  let text = "";
  let copied = start;
  let at = start;
  for (;;) {
    const open = bytes.indexOf(QUOTE, at);
    if (open === -1 || open >= end) break;
    const close = closingQuote(bytes, open + 1, end);
    if (close === -1) return bytes.toString("utf8", start, end);
    const length = close - open - 1;
    if (length > maxString && !isKey(bytes, close + 1, end)) {
      const kept = safeCut(bytes, open + 1, open + 1 + keep);
      text += bytes.toString("utf8", copied, kept) + `\\u0000${length}`;
      copied = close;
    }
    at = close + 1;
  }
  return copied === start ? bytes.toString("utf8", start, end) : text + bytes.toString("utf8", copied, end);
}

/** True for a string {@link parseLeanLine} cut. */
export function isCut(value: unknown): value is string {
  return typeof value === "string" && value.includes(CUT_MARK);
}

/** The kept prefix of a cut string, or the string itself when it was not cut. */
export function cutPrefix(value: string): string {
  const mark = value.lastIndexOf(CUT_MARK);
  return mark === -1 ? value : value.slice(0, mark);
}

/**
 * Raw byte length of the literal a string came from: for a cut string the recorded length
 * (escapes counted as written), else the UTF-8 byte length of the value.
 */
export function cutBytes(value: string): number {
  const mark = value.lastIndexOf(CUT_MARK);
  if (mark !== -1) {
    const n = Number(value.slice(mark + 1));
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return Buffer.byteLength(value, "utf8");
}

/** True when the string that closed just before `from` is an object key (next non-blank byte is `:`). */
function isKey(bytes: Buffer, from: number, end: number): boolean {
  let at = from;
  while (at < end && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0d || bytes[at] === 0x0a)) at++;
  return bytes[at] === 0x3a;
}

/** Index of the quote closing a string whose content starts at `from`, or -1 before `end`. */
function closingQuote(bytes: Buffer, from: number, end: number): number {
  for (let at = from; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at === -1 || at >= end) return -1;
    let slashes = 0;
    while (bytes[at - 1 - slashes] === BACKSLASH) slashes++;
    if ((slashes & 1) === 0) return at;
  }
}

/**
 * A cut point at or before `at` (inside a string literal starting at `from`) that splits neither
 * a UTF-8 sequence nor an escape: back over continuation bytes to a lead byte, then before any
 * backslash run in the last 6 bytes (the longest escape is `\uXXXX`), so the kept prefix is
 * complete text. Used by every reader that cuts long strings (here and lib/forensics/skim).
 */
export function safeCut(bytes: Buffer, from: number, at: number): number {
  let cut = at;
  while (cut > from && (bytes[cut]! & 0xc0) === 0x80) cut--;
  for (let i = Math.max(from, cut - 6); i < cut; i++) {
    if (bytes[i] === BACKSLASH) {
      let run = i;
      while (run > from && bytes[run - 1] === BACKSLASH) run--;
      return run;
    }
  }
  return cut;
}
