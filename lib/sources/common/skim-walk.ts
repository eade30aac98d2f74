/** The skim's walk in JavaScript: a line's values built from its bytes as its plan says (strings decoded, long text cut, the timestamp read). */
import * as cutString from "@/lib/jsonl/cut-string";
import * as grammar from "@/lib/sources/common/skim-bytes";
import * as plans from "@/lib/sources/common/skim-plans";
import type { Plan } from "@/lib/sources/common/skim-plans";
import * as shapedStamp from "@/lib/sources/common/skim-stamp";
import * as readerState from "@/lib/sources/common/skim-state";
import type { SkimReader } from "@/lib/sources/common/skim-state";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";

// Module copies of the imports read per line or per value: tsx reads an imported binding through a
// getter call (an esbuild bundle, as range workers run, does not).
const { CUT_MARK, safeCut } = cutString;
const { BACKSLASH, closeQuote, FALSE_BYTES, NULL_BYTES, QUOTE, skipValue, TRUE_BYTES } = grammar;
const { FULL, SKIP, STAMP, TEXT } = plans;
const { SHAPED_STAMP_CHARS } = shapedStamp;
const { INVALID } = readerState;

/**
 * Raw bytes above which a `TEXT` string is cut like lib/jsonl/cut-string: `<prefix>\u0000<raw byte
 * length>`, the prefix the first {@link KEEP_BYTES} raw bytes decoded, and only when it keeps
 * {@link MIN_KEPT_CHARS} characters after leading whitespace, so blank, `trimStart()` prefix and
 * first-word tests decide on it as on the whole string.
 */
export const CUT_BYTES = 512;
/** Raw bytes decoded as a cut string's prefix. */
export const KEEP_BYTES = 160;
/** Characters a cut prefix must keep after leading whitespace (else the string is built whole). */
export const MIN_KEPT_CHARS = 64;

/** The byte at `i`, or -1 at or past the line's end (the next line's bytes are never read). */
function ch(r: SkimReader, i: number): number {
  return i < r.end ? r.buf[i]! : -1;
}

/** Steps `r.pos` over JSON whitespace. */
export function ws(r: SkimReader): void {
  let c = ch(r, r.pos);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ch(r, ++r.pos);
}

/** Index of the quote closing the string whose opening quote is at `open`. */
function closeOf(r: SkimReader, open: number): number {
  const close = closeQuote(r, r.buf, open, r.end);
  if (close < 0) throw INVALID;
  return close;
}

/** The value at `r.pos` as `plan` builds it (undefined for a skipped value or a timestamp), `r.pos` moved past it. */
export function value(r: SkimReader, plan: Plan): unknown {
  if (plan === SKIP) {
    skip(r);
    return undefined;
  }
  const c = ch(r, r.pos);
  if (typeof plan === "object") {
    if ("keys" in plan) {
      if (c === 0x7b) return readObject(r, plan);
    } else if (c === 0x5b) return readArray(r, plan.items);
    else return value(r, plan.orElse);
  }
  if (c === QUOTE) {
    if (plan === STAMP) {
      const close = closeOf(r, r.pos);
      r.stampMs = stamp(r, r.pos + 1, close);
      r.pos = close + 1;
      return undefined;
    }
    return readString(r, plan === TEXT);
  }
  if (plan === STAMP) {
    r.stampMs = null;
    skip(r);
    return undefined;
  }
  if (c === 0x7b) return readObject(r, plan === TEXT ? TEXT : FULL);
  if (c === 0x5b) return readArray(r, plan);
  return scalar(r);
}

/** Reads an object at `r.pos` (`{`); `plan` is an object plan, or FULL/TEXT for every key. */
export function readObject(r: SkimReader, plan: Plan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const b = r.buf;
  const e = r.end;
  const fields = typeof plan === "object" && "keys" in plan ? plan.keys : null;
  let i = r.pos + 1;
  let c = i < e ? b[i]! : -1;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
  if (c === 0x7d) {
    r.pos = i + 1;
    return out;
  }
  for (;;) {
    if (c !== QUOTE) throw INVALID;
    const close = closeQuote(r, b, i, e);
    if (close < 0) throw INVALID;
    const length = close - i - 1;
    let name: string | null = null;
    let sub: Plan = plan;
    if (fields !== null) {
      sub = SKIP;
      const candidates = length < fields.length ? fields[length] : undefined;
      if (candidates !== undefined) {
        for (let k = 0; k < candidates.length; k++) {
          const f = candidates[k]!;
          const want = f.bytes;
          let j = 0;
          while (j < length && b[i + 1 + j] === want[j]) j++;
          if (j === length) {
            name = f.name;
            sub = f.plan;
            break;
          }
        }
      }
      // An escaped key could spell a wanted name: let JSON.parse settle the line.
      if (name === null) for (let j = i + 1; j < close; j++) if (b[j] === BACKSLASH) throw INVALID;
    } else {
      r.pos = i;
      name = decode(r, i, close);
    }
    i = close + 1;
    c = i < e ? b[i]! : -1;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
    if (c !== 0x3a) throw INVALID;
    i++;
    if (sub === SKIP) {
      i = skipValue(r, b, i, e);
      if (i < 0) throw INVALID;
    } else {
      c = i < e ? b[i]! : -1;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
      r.pos = i;
      const v = value(r, sub);
      i = r.pos;
      if (sub !== STAMP) {
        if (name === "__proto__") Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
        else out[name!] = v;
      }
    }
    c = i < e ? b[i]! : -1;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
    if (c === 0x2c) {
      i++;
      c = i < e ? b[i]! : -1;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
      continue;
    }
    if (c === 0x7d) {
      r.pos = i + 1;
      return out;
    }
    throw INVALID;
  }
}

function readArray(r: SkimReader, plan: Plan): unknown[] {
  const out: unknown[] = [];
  r.pos++;
  ws(r);
  if (ch(r, r.pos) === 0x5d) {
    r.pos++;
    return out;
  }
  for (;;) {
    out.push(value(r, plan));
    ws(r);
    const c = ch(r, r.pos);
    if (c === 0x2c) {
      r.pos++;
      ws(r);
      continue;
    }
    if (c === 0x5d) {
      r.pos++;
      return out;
    }
    throw INVALID;
  }
}

/** Validates and steps over one value at `r.pos` without building it. */
function skip(r: SkimReader): void {
  const at = skipValue(r, r.buf, r.pos, r.end);
  if (at < 0) throw INVALID;
  r.pos = at;
}

/** Steps over a number or literal at `r.pos`, checking its grammar; returns where it started. */
function scalarEnd(r: SkimReader): number {
  const from = r.pos;
  let c = ch(r, r.pos);
  if (c === 0x74) return literal(r, from, TRUE_BYTES);
  if (c === 0x66) return literal(r, from, FALSE_BYTES);
  if (c === 0x6e) return literal(r, from, NULL_BYTES);
  if (c === 0x2d) c = ch(r, ++r.pos);
  if (c === 0x30) c = ch(r, ++r.pos);
  else if (c >= 0x31 && c <= 0x39) {
    do c = ch(r, ++r.pos);
    while (c >= 0x30 && c <= 0x39);
  } else throw INVALID;
  if (c === 0x2e) {
    c = ch(r, ++r.pos);
    if (c < 0x30 || c > 0x39) throw INVALID;
    do c = ch(r, ++r.pos);
    while (c >= 0x30 && c <= 0x39);
  }
  if (c === 0x65 || c === 0x45) {
    c = ch(r, ++r.pos);
    if (c === 0x2b || c === 0x2d) c = ch(r, ++r.pos);
    if (c < 0x30 || c > 0x39) throw INVALID;
    do c = ch(r, ++r.pos);
    while (c >= 0x30 && c <= 0x39);
  }
  return from;
}

function literal(r: SkimReader, from: number, word: Uint8Array): number {
  if (from + word.length > r.end) throw INVALID;
  const b = r.buf;
  for (let i = 1; i < word.length; i++) if (b[from + i] !== word[i]) throw INVALID;
  r.pos = from + word.length;
  return from;
}

function scalar(r: SkimReader): unknown {
  const c = ch(r, r.pos);
  const from = scalarEnd(r);
  if (c === 0x74) return true;
  if (c === 0x66) return false;
  if (c === 0x6e) return null;
  // Token counts: plain integers of up to 15 digits, read from their digits (exact below 2^53).
  const b = r.buf;
  const to = r.pos;
  if (to - from <= 15) {
    let v = 0;
    let i = from;
    for (; i < to; i++) {
      const d = b[i]! - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === to) return v;
  }
  return Number(latin1(b, from, to));
}

/** Buffer's own slicers, without `toString`'s argument handling (a measurable cost per short string). */
type Slicers = { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };
function latin1(b: Buffer, start: number, end: number): string {
  return (b as unknown as Slicers).latin1Slice(start, end);
}
function utf8(b: Buffer, start: number, end: number): string {
  return (b as unknown as Slicers).utf8Slice(start, end);
}

/** Decodes the string literal at `r.pos`, cutting it when `cut` and long (see lib/sources/common/skim). */
function readString(r: SkimReader, cut: boolean): string {
  const open = r.pos;
  const close = closeOf(r, open);
  r.pos = close + 1;
  return stringAt(r, open, close, cut);
}

/** The string literal between the quotes at `open` and `close`, cut when `cut` and long. */
export function stringAt(r: SkimReader, open: number, close: number, cut: boolean): string {
  if (cut && close - open - 1 > CUT_BYTES) {
    const kept = safeCut(r.buf, open + 1, open + 1 + KEEP_BYTES);
    const prefix = decode(r, open, kept, false);
    if (prefix.trimStart().length >= MIN_KEPT_CHARS) return `${prefix}${CUT_MARK}${close - open - 1}`;
  }
  return decode(r, open, close);
}

/**
 * The text of the literal opening at `open` up to `close` (exclusive); `closed` false when
 * `close` is a cut point inside the string rather than its closing quote.
 */
function decode(r: SkimReader, open: number, close: number, closed = true): string {
  const b = r.buf;
  const length = close - open - 1;
  if (length <= 32) {
    // Short ASCII text without escapes (names, ids, types): the common case, read directly.
    let j = open + 1;
    while (j < close && b[j]! >= 0x20 && b[j]! < 0x7f && b[j] !== BACKSLASH) j++;
    if (j === close) {
      const known = length < INTERNED.length ? INTERNED[length] : undefined;
      if (known !== undefined) {
        for (let k = 0; k < known.length; k++) {
          const want = known[k]!.bytes;
          let m = 0;
          while (m < length && b[open + 1 + m] === want[m]) m++;
          if (m === length) return known[k]!.text;
        }
      }
      return latin1(b, open + 1, close);
    }
  }
  const slash = b.indexOf(BACKSLASH, open + 1);
  if (slash === -1 || slash >= close) {
    // Raw control characters are invalid in a JSON string: let JSON.parse say so.
    const text = utf8(b, open + 1, close);
    if (!CONTROL.test(text)) return text;
  }
  const literalText = closed ? utf8(b, open, close + 1) : `${utf8(b, open, close)}"`;
  try {
    return JSON.parse(literalText) as string;
  } catch {
    throw INVALID;
  }
}
/** Values read on most lines, returned without building a new string. */
const INTERNED: ({ bytes: Uint8Array; text: string }[] | undefined)[] = [];
for (const text of ["user", "assistant", "progress", "system", "summary", "file-history-snapshot", "queue-operation", "tool_use", "tool_result", "text", "thinking", "redacted_thinking", "image", "compact_boundary", "api_error", "Read", "Bash", "Edit", "Write", "Grep", "Glob", "Task", "TodoWrite", "response_item", "event_msg", "turn_context", "message", "developer", "function_call", "function_call_output", "custom_tool_call", "reasoning", "token_count", "agent_message", "agent_reasoning", "exec_command_end"]) {
  (INTERNED[text.length] ??= []).push({ bytes: new Uint8Array(Buffer.from(text)), text });
}

const CONTROL = /[\u0000-\u001f]/;

/** Epoch ms of the timestamp string of `r.buf` between `from` and `to` (its quotes excluded), or null when it is not one. */
export function stamp(r: SkimReader, from: number, to: number): number | null {
  // The shape Claude Code and Codex write, `YYYY-MM-DDTHH:MM:SS.mmmZ`, read from its bytes;
  // anything else goes through the shared parser.
  if (to - from === SHAPED_STAMP_CHARS) {
    const ms = r.stamps.read(r.buf, from);
    if (ms !== -1) return ms;
  }
  return parseAwareTimestamp(decode(r, from - 1, to));
}
