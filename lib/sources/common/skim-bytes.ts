/** The skim's JSON grammar on raw bytes: where a string closes, where a skipped value ends (the scanner's SIMD module when it reaches the line). */
import type { SkimReader } from "@/lib/sources/common/skim-state";

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const TRUE_BYTES = new Uint8Array(Buffer.from("true"));
export const FALSE_BYTES = new Uint8Array(Buffer.from("false"));
export const NULL_BYTES = new Uint8Array(Buffer.from("null"));

/** 1 for the bytes that stop a run of plain string content: `"`, `\\` and the control bytes. */
const SPECIAL = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) SPECIAL[c] = 1;
SPECIAL[QUOTE] = 1;
SPECIAL[BACKSLASH] = 1;

const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;

/**
 * Index just past the JSON value starting at `i` in `b` (whitespace before it skipped), checking
 * the grammar of everything but string contents; -1 when it is not valid before `end`. When `b`
 * is the line `r`'s scanner reaches, the scanner checks the whole value in one call. One tight
 * loop with locals only: most of a transcript's bytes go through here.
 */
export function skipValue(r: SkimReader, b: Buffer, i: number, end: number): number {
  if (b === r.scanBytes) {
    const base = r.scanBase;
    const after = r.scanner!.valueEnd(i + base, end + base);
    return after < 0 ? -1 : after - base;
  }
  const open = r.open;
  let depth = 0;
  for (;;) {
    // A value at i.
    let c = i < end ? b[i]! : -1;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < end ? b[i]! : -1;
    if (c === QUOTE) {
      i = closeQuote(r, b, i, end);
      if (i < 0) return -1;
      i++;
    } else if (c === 0x7b || c === 0x5b) {
      const isObject = c === 0x7b;
      i++;
      c = i < end ? b[i]! : -1;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < end ? b[i]! : -1;
      if (isObject ? c === 0x7d : c === 0x5d) {
        i++;
      } else {
        if (depth >= open.length) return -1;
        open[depth++] = isObject ? 1 : 0;
        if (isObject) {
          if (c !== QUOTE) return -1;
          i = afterKey(r, b, i, end);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const word = c === 0x74 ? TRUE_BYTES : c === 0x66 ? FALSE_BYTES : NULL_BYTES;
      if (i + word.length > end) return -1;
      for (let k = 1; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
      i += word.length;
    } else {
      if (c === 0x2d) c = ++i < end ? b[i]! : -1;
      if (c === 0x30) c = ++i < end ? b[i]! : -1;
      else if (c >= 0x31 && c <= 0x39) {
        do c = ++i < end ? b[i]! : -1;
        while (c >= 0x30 && c <= 0x39);
      } else return -1;
      if (c === 0x2e) {
        c = ++i < end ? b[i]! : -1;
        if (c < 0x30 || c > 0x39) return -1;
        do c = ++i < end ? b[i]! : -1;
        while (c >= 0x30 && c <= 0x39);
      }
      if (c === 0x65 || c === 0x45) {
        c = ++i < end ? b[i]! : -1;
        if (c === 0x2b || c === 0x2d) c = ++i < end ? b[i]! : -1;
        if (c < 0x30 || c > 0x39) return -1;
        do c = ++i < end ? b[i]! : -1;
        while (c >= 0x30 && c <= 0x39);
      }
    }
    // After a value: close containers, or a comma and the next value (with its key in an object).
    for (;;) {
      if (depth === 0) return i;
      c = i < end ? b[i]! : -1;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < end ? b[i]! : -1;
      const inObject = open[depth - 1] === 1;
      if (c === 0x2c) {
        i++;
        if (inObject) {
          c = i < end ? b[i]! : -1;
          while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < end ? b[i]! : -1;
          if (c !== QUOTE) return -1;
          i = afterKey(r, b, i, end);
          if (i < 0) return -1;
        }
        break;
      }
      if (c === (inObject ? 0x7d : 0x5d)) {
        depth--;
        i++;
        continue;
      }
      return -1;
    }
  }
}

/** Index just past `"key":` whose opening quote is at `i` (whitespace before the colon allowed), or -1. */
function afterKey(r: SkimReader, b: Buffer, i: number, end: number): number {
  let at = closeQuote(r, b, i, end);
  if (at < 0) return -1;
  let c = ++at < end ? b[at]! : -1;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++at < end ? b[at]! : -1;
  return c === 0x3a ? at + 1 : -1;
}

/**
 * Index of the quote closing the string whose opening quote is at `open` in `b`, or -1 when the
 * string does not close before `end` or its content is not valid JSON (a raw control character
 * below U+0020, an escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`): exactly what
 * `JSON.parse` accepts, checked on the raw UTF-8 bytes (every byte of a multi-byte character is
 * ≥ 0x80, so the check is the same on the bytes as on the decoded text). Short strings are
 * checked here four bytes at a time; past 32 bytes, the rest of a long one by the scanner's SIMD
 * module when `b` is the line `r`'s scanner reaches.
 */
export function closeQuote(r: SkimReader, b: Buffer, open: number, end: number): number {
  const special = SPECIAL;
  let at = open + 1;
  const stop = b === r.scanBytes && at + 32 < end ? at + 32 : end;
  for (;;) {
    while (at + 4 <= stop && (special[b[at]!]! | special[b[at + 1]!]! | special[b[at + 2]!]! | special[b[at + 3]!]!) === 0) at += 4;
    if (at >= stop) {
      if (stop === end) return -1;
      const base = r.scanBase;
      const after = r.scanner!.stringEnd(at - 1 + base, end + base);
      return after < 0 ? -1 : after - base - 1;
    }
    const c = b[at]!;
    if (special[c] === 0) at++;
    else if (c === QUOTE) return at;
    else if (c === BACKSLASH) {
      at = escapeEnd(b, at, end);
      if (at < 0) return -1;
    } else return -1;
  }
}

/** Index just past the escape whose backslash is at `at`, or -1 when it is not a JSON escape. */
function escapeEnd(b: Buffer, at: number, end: number): number {
  const e = at + 1 < end ? b[at + 1]! : -1;
  if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return at + 2;
  if (e !== 0x75 || at + 6 > end) return -1;
  for (let k = at + 2; k < at + 6; k++) if (HEX[b[k]!] === 0) return -1;
  return at + 6;
}
