/** Byte-level skim of one JSONL line: the JSON grammar checked, only the planned fields built. */
import { CUT_MARK, safeCut } from "@/lib/jsonl/cut-string";
import { grown } from "@/lib/jsonl/grown";
import { DATA_OFFSET, TAPE_ARRAY, TAPE_AT, TAPE_CLOSE, TAPE_OPEN, type JsonScanner } from "@/lib/jsonl/json-scan";
import { deepFreeze, RepeatedTails, TAIL_MIN_BYTES } from "@/lib/sources/common/skim-tails";
import { SkimMemories } from "@/lib/sources/common/skim-memories";
import { PlanImage } from "@/lib/sources/common/skim-plan-image";
import { SHAPED_STAMP_CHARS, ShapedStamps } from "@/lib/sources/common/skim-stamp";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import type { JsonObject } from "@/lib/sources/common/json-object";

/**
 * Byte-level skim of one JSONL line: one walk over the line's bytes that checks the JSON grammar
 * of the whole line and builds only the fields a caller's plan names, skipping everything else.
 * Most of a real transcript's bytes are tool output and context that no index reads, and they are
 * never turned into strings or objects here (issues 9 and 13). The plans: the forensics scan's and
 * turn splitting's for Claude Code (lib/sources/claude-code/skim-plans), Codex's envelope
 * (lib/sources/codex/skim-plan).
 *
 * Exactness: a line is settled only when `JSON.parse` of its decoded text would give a JSON
 * object with the same built fields. Structure, numbers, literals and every string are checked
 * as `JSON.parse` checks them, string contents included (raw control bytes, escapes), skipped or
 * not: long lines are copied once into a wasm memory where a SIMD kernel finds the end of each
 * run of plain string bytes (lib/jsonl/json-scan). The timestamp is parsed here (`timestampMs`)
 * and left out of `record`.
 *
 * Long text (`text`, `content`, `error` strings over {@link CUT_BYTES} raw bytes) is cut like
 * lib/jsonl/cut-string: `<prefix>\u0000<raw byte length>` where the prefix is the first
 * {@link KEEP_BYTES} raw bytes decoded, and only when that prefix holds at least
 * {@link MIN_KEPT_CHARS} characters after leading whitespace, so blank tests, `trimStart()`
 * prefix tests and first-word tests on it decide exactly as on the whole string. A caller that
 * needs such a string whole (a kept user message, an API error text) re-reads the line.
 */

/** Raw bytes above which a text string is cut. */
export const CUT_BYTES = 512;
/** Raw bytes decoded as a cut string's prefix. */
export const KEEP_BYTES = 160;
/** Characters a cut prefix must keep after leading whitespace (else the string is built whole). */
export const MIN_KEPT_CHARS = 64;
/** Marks a cut string: the same convention as lib/jsonl/cut-string (prefix, U+0000, byte length). */
export { CUT_MARK };

/** A skimmed line: the record with the fields the classifier reads, and its timestamp. */
export type SkimmedRecord = { record: JsonObject; timestampMs: number | null };

/** {@link skimLine}'s answer for a line of JSON whitespace only. */
export const BLANK: unique symbol = Symbol("blank");

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// Field plans: what to build of a value. Keys not in an object plan are skipped (validated only).
const SKIP = 0;
/** Plan: build the value as JSON.parse would. */
export const FULL = 1;
/** Plan: build the value, cutting long strings at any depth (see the module comment). */
export const TEXT = 2;
/** Plan of a top-level `timestamp`: parsed to epoch ms ({@link SkimmedRecord.timestampMs}), left out of the record. */
export const STAMP = 3;
/** What to build of a value: {@link FULL}, {@link TEXT}, {@link STAMP}, an object plan or an array plan. */
export type Plan = number | ObjectPlan | ArrayPlan;
type Field = { bytes: Uint8Array; name: string; plan: Plan; id: number };
/**
 * An object plan (made by {@link objectPlan}): the keys to build and how, by raw byte length;
 * every other key is skipped. `lengths` has bit `n` set for each planned key `n` bytes long, or
 * is null when one is 32 bytes or longer (the scanner's member walk then is not used). `shared`
 * (see {@link objectPlan}).
 */
export type ObjectPlan = { keys: (Field[] | undefined)[]; lengths: number | null; shared: boolean };
/** An array plan: `items` for each item of an array, `orElse` for a value that is not an array. */
export type ArrayPlan = { items: Plan; orElse: Plan };

/**
 * The object plan building `fields` (name → plan) and skipping every other key. With `shared`
 * (a line's own plan, whose records are read only and repeat: Codex's envelope), a line whose
 * built fields are all short plain strings gets the same frozen record as every earlier line
 * with the same fields and values, rather than a new one (see {@link skimLine}).
 */
export function objectPlan(fields: Record<string, Plan>, options: { shared?: boolean } = {}): ObjectPlan {
  const keys: (Field[] | undefined)[] = [];
  let lengths: number | null = 0;
  for (const [name, plan] of Object.entries(fields)) {
    const bytes = new Uint8Array(Buffer.from(name, "utf8"));
    const field = { bytes, name, plan, id: FIELDS.length };
    FIELDS.push(field);
    if (plan === STAMP) {
      if (field.id >= STAMP_FIELDS.length) STAMP_FIELDS = grown(STAMP_FIELDS, field.id * 2);
      STAMP_FIELDS[field.id] = 1;
    }
    (keys[bytes.length] ??= []).push(field);
    lengths = lengths === null || bytes.length >= 32 ? null : lengths | (1 << bytes.length);
  }
  return { keys, lengths, shared: options.shared === true };
}

/**
 * Test hooks: `tapeWalk` false makes every line walk in JavaScript (the reference the scanner's
 * one-call walk is tested against; no line is then settled by a repeated tail either);
 * `repeatedTails` false settles every line by its own bytes (the reference repeated tails are
 * tested against). Not for production use.
 */
export const skimTuning = { tapeWalk: true, repeatedTails: true };

/** Every planned member, by the id the scanner's tape names it with. */
const FIELDS: Field[] = [];
/** The ids of members planned as {@link STAMP} (1 at a member's id; looked up for every tape entry of a shared line). */
let STAMP_FIELDS = new Uint8Array(64);

class Invalid extends Error {}
const INVALID = new Invalid("invalid JSON");

let buf: Buffer = Buffer.alloc(0);
let pos = 0;
let end = 0;
let stampMs: number | null = null;

/**
 * Skims `bytes[start, end)` (one JSONL line, terminator excluded), building the fields `plan`
 * names (the Claude Code plans are in lib/sources/claude-code/skim-plans, Codex's in
 * lib/sources/codex/skim-plan).
 * @returns the record and timestamp, {@link BLANK} for a line of JSON whitespace only, or null
 *   when the line is not a JSON object or the skim cannot decide (deep nesting, escaped keys):
 *   the caller then parses the line with `JSON.parse`, which settles it exactly. Never throws.
 */
export function skimLine(bytes: Buffer, start: number, stop: number, plan: ObjectPlan): SkimmedRecord | typeof BLANK | null {
  const length = stop - start;
  const inPlace = memories.scannerIn(bytes.buffer);
  if (inPlace !== undefined) {
    // Read into a scan memory: scanned where it lies (addresses offset by the view's start).
    buf = scanBytes = bytes;
    scanner = inPlace;
    memories.useRegions(bytes.buffer);
    scanBase = bytes.byteOffset;
    pos = start;
    end = stop;
  } else if (length > SCRATCH_MIN_BYTES && length <= SCRATCH_MAX_BYTES) {
    const scratch = memories.scratch();
    buf = scanBytes = scratch.load(bytes, start, stop);
    scanner = scratch;
    memories.useRegions(buf.buffer);
    scanBase = 0;
    pos = DATA_OFFSET;
    end = DATA_OFFSET + length;
  } else {
    buf = bytes;
    pos = start;
    end = stop;
  }
  stampMs = null;
  tapeWalked = false;
  try {
    const sample = plan.shared && length >= TAIL_MIN_BYTES && skimTuning.tapeWalk && skimTuning.repeatedTails ? tails.sample(bytes, start, stop) : 0;
    const settled = sample === 0 ? null : settledByTail(plan, bytes, start, stop, sample);
    if (settled !== null) return settled;
    ws();
    if (pos >= end) return BLANK;
    if (ch(pos) !== 0x7b) return null;
    const record = (buf === scanBytes && skimTuning.tapeWalk && walked(plan)) || (readObject(plan) as JsonObject);
    ws();
    if (pos !== end) return null;
    if (sample !== 0) return { record: tails.remember(plan, bytes, start, stop, sample, record, oneStampMember), timestampMs: stampMs };
    return { record, timestampMs: stampMs };
  } catch {
    return null;
  } finally {
    buf = EMPTY;
    scanBytes = null;
    scanner = null;
  }
}
const EMPTY = Buffer.alloc(0);

/** This thread's timestamp reader and repeated tails (lib/sources/common/skim-tails). */
const stamps = new ShapedStamps();
const tails = new RepeatedTails(stamps);

/**
 * The line `[start, stop)` settled by a repeated tail (see {@link RepeatedTails.settle}). An
 * unusual timestamp is read from `b` by {@link stamp}, so `buf` points there; the walk that
 * follows a miss reads the line where skimLine put it (a scratch copy for a line outside a scan
 * memory), so `buf` is restored on a miss.
 */
function settledByTail(plan: ObjectPlan, b: Buffer, start: number, stop: number, sample: number): SkimmedRecord | null {
  const walking = buf;
  buf = b;
  const settled = tails.settle(plan, b, start, stop, sample, stamp);
  if (settled === null) buf = walking;
  return settled;
}

/** Whether the walked line's tape holds one timestamp member only (its tail may then stand for later lines). */
function oneStampMember(): boolean {
  if (!tapeWalked) return false;
  let n = 0;
  for (let i = 0; i < tapeEnd; i += 3) if (STAMP_FIELDS[tape[i]!] === 1) n++;
  return n === 1;
}

/** This thread's scan memories (lib/sources/common/skim-memories). */
const memories = new SkimMemories();

/** The byte at `i`, or -1 at or past the line's end (the next line's bytes are never read). */
function ch(i: number): number {
  return i < end ? buf[i]! : -1;
}

function ws(): void {
  let c = ch(pos);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ch(++pos);
}

/** Index of the quote closing the string whose opening quote is at `open`. */
function closeOf(open: number): number {
  const close = closeQuote(buf, open, end);
  if (close < 0) throw INVALID;
  return close;
}

function value(plan: Plan): unknown {
  if (plan === SKIP) {
    skip();
    return undefined;
  }
  const c = ch(pos);
  if (typeof plan === "object") {
    if ("keys" in plan) {
      if (c === 0x7b) return readObject(plan);
    } else if (c === 0x5b) return readArray(plan.items);
    else return value(plan.orElse);
  }
  if (c === QUOTE) {
    if (plan === STAMP) {
      const close = closeOf(pos);
      stampMs = stamp(pos + 1, close);
      pos = close + 1;
      return undefined;
    }
    return readString(plan === TEXT);
  }
  if (plan === STAMP) {
    stampMs = null;
    skip();
    return undefined;
  }
  if (c === 0x7b) return readObject(plan === TEXT ? TEXT : FULL);
  if (c === 0x5b) return readArray(plan);
  return scalar();
}

/** Reads an object at `pos` (`{`); `plan` is an object plan, or FULL/TEXT for every key. */
function readObject(plan: Plan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const b = buf;
  const e = end;
  const fields = typeof plan === "object" && "keys" in plan ? plan.keys : null;
  let i = pos + 1;
  let c = i < e ? b[i]! : -1;
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
  if (c === 0x7d) {
    pos = i + 1;
    return out;
  }
  for (;;) {
    if (c !== QUOTE) throw INVALID;
    const close = closeQuote(b, i, e);
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
      pos = i;
      name = decode(i, close);
    }
    i = close + 1;
    c = i < e ? b[i]! : -1;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
    if (c !== 0x3a) throw INVALID;
    i++;
    if (sub === SKIP) {
      i = skipValue(b, i, e);
      if (i < 0) throw INVALID;
    } else {
      c = i < e ? b[i]! : -1;
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < e ? b[i]! : -1;
      pos = i;
      const v = value(sub);
      i = pos;
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
      pos = i + 1;
      return out;
    }
    throw INVALID;
  }
}

/**
 * The record of the object at `pos` walked by the scanner in one call ({@link JsonScanner.walkObject}),
 * built from its tape; null when the plan cannot be walked so (a key of 32 bytes or more, no room
 * left for plans) or the tape overflowed, so the caller walks it in JavaScript (same result).
 * @throws INVALID when the scanner finds the object invalid or meets an escaped key.
 */
function walked(plan: ObjectPlan): JsonObject | null {
  const node = planImage.nodeOf(plan);
  if (node < 0) return null;
  const regions = memories.regions;
  planImage.install(regions);
  const state = regions.state;
  state[3] = TAPE_AT;
  const after = scanner!.walkObject(pos + scanBase, end + scanBase, node);
  if (after === -4) return null;
  if (after < 0) throw INVALID;
  tape = regions.tape;
  tapeAt = 0;
  tapeEnd = (state[3]! - TAPE_AT) / 4;
  tapeWalked = true;
  const record = plan.shared ? sharedRecord() : (tapeObject() as JsonObject);
  pos = after - scanBase;
  return record;
}

/**
 * The record of the tape just walked by a {@link ObjectPlan.shared} plan: that of an earlier line
 * with the same fields and values when there is one, else built (and kept when it can be shared).
 */
function sharedRecord(): JsonObject {
  const key = sharedKey();
  if (key < 0) return tapeObject() as JsonObject;
  const known = sharedRecords.get(key);
  if (known !== undefined && sameShared(known)) return known.record;
  const record = deepFreeze(tapeObject() as JsonObject);
  if (known === undefined && sharedRecords.size < SHARED_MAX) {
    const strings = stringEntries();
    sharedRecords.set(key, { record, codes: tape.slice(0, tapeEnd), strings, bytes: stringBytes(strings) });
  }
  return record;
}

/** Records shared by a {@link ObjectPlan.shared} plan, by the hash of their tape's codes and string bytes (issue 13: ~130 distinct envelopes among the 184,465 lines of the 321 MB rollout). */
const sharedRecords = new Map<number, SharedRecord>();
/** A shared record, with what its lines hold: the tape's codes, the entries of its strings and their bytes (each with its closing quote). */
type SharedRecord = { record: JsonObject; codes: Int32Array; strings: Int32Array; bytes: Uint8Array };
/** Distinct shared records kept at most (then new ones are built per line). */
const SHARED_MAX = 4096;
/** A shared record's strings are at most this many raw bytes. */
const SHARED_STRING_BYTES = 64;

/**
 * A hash of the tape just walked (its codes, and the length and three bytes of every built
 * string: {@link sameShared} then compares every byte, so equal raw bytes, hence equal decoded
 * strings, are what makes two lines share a record), with the line's timestamp read on the way;
 * -1 when the record cannot be shared (a value that is not a short string, an array).
 */
function sharedKey(): number {
  const t = tape;
  const b = buf;
  let h = 0x811c9dc5;
  stampMs = null;
  for (let i = 0; i < tapeEnd; i += 3) {
    const code = t[i]!;
    h = Math.imul(h ^ code, 0x01000193);
    if ((code & TAPE_ARRAY) !== 0) return -1;
    if (code === TAPE_CLOSE || (code & TAPE_OPEN) !== 0) continue;
    const from = t[i + 1]! - scanBase;
    const to = t[i + 2]! - scanBase;
    if (STAMP_FIELDS[code] === 1) {
      stampMs = b[from] === QUOTE ? stamp(from + 1, to - 1) : null;
      continue;
    }
    const length = to - from;
    if (b[from] !== QUOTE || length - 2 > SHARED_STRING_BYTES) return -1;
    h = Math.imul(h ^ length, 0x01000193);
    h = Math.imul(h ^ b[from + 1]!, 0x01000193);
    h = Math.imul(h ^ b[from + (length >> 1)]!, 0x01000193);
    h = Math.imul(h ^ b[to - 2]!, 0x01000193);
  }
  // Kept within a small integer (a Map key V8 hashes without boxing it).
  return h & 0x3fffffff;
}

/** The tape entries (word indexes) of the strings {@link sharedKey} hashed: every value but the stamps. */
function stringEntries(): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < tapeEnd; i += 3) {
    const code = tape[i]!;
    if (code !== TAPE_CLOSE && (code & TAPE_OPEN) === 0 && STAMP_FIELDS[code] !== 1) out.push(i);
  }
  return Int32Array.from(out);
}

/** The bytes of the strings at tape entries `strings`, each with its closing quote (none holds a raw quote, so lengths match too). */
function stringBytes(strings: Int32Array): Uint8Array {
  const out: number[] = [];
  for (const i of strings) for (let j = tape[i + 1]! - scanBase + 1; j < tape[i + 2]! - scanBase; j++) out.push(buf[j]!);
  return Uint8Array.from(out);
}

/** True when the tape just walked has `known`'s codes and string bytes (no hash collision). */
function sameShared(known: SharedRecord): boolean {
  const codes = known.codes;
  if (codes.length !== tapeEnd) return false;
  const t = tape;
  for (let i = 0; i < tapeEnd; i += 3) if (t[i] !== codes[i]) return false;
  // The strings, by the entries known to hold them (same codes: the same entries here).
  const bytes = known.bytes;
  const strings = known.strings;
  const b = buf;
  const base = scanBase;
  let at = 0;
  for (let k = 0; k < strings.length; k++) {
    const i = strings[k]!;
    const to = t[i + 2]! - base;
    for (let j = t[i + 1]! - base + 1; j < to; j++) if (b[j] !== bytes[at++]) return false;
  }
  return at === bytes.length;
}

let tape: Int32Array = new Int32Array(0);
/** True once the scanner walked the current line (its tape holds the line's planned members). */
let tapeWalked = false;
let tapeAt = 0;
let tapeEnd = 0;

/** The members of the object whose entries start at `tapeAt`, up to its CLOSE entry (the line's own object: to the tape's end). */
function tapeObject(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = tape;
  while (tapeAt < tapeEnd) {
    const code = t[tapeAt]!;
    if (code === TAPE_CLOSE) {
      tapeAt += 3;
      return out;
    }
    const field = FIELDS[code & 0xffff]!;
    let v: unknown;
    if ((code & TAPE_OPEN) !== 0) {
      tapeAt += 3;
      v = tapeObject();
    } else if ((code & TAPE_ARRAY) !== 0) {
      tapeAt += 3;
      v = tapeArray((field.plan as ArrayPlan).items);
    } else {
      const from = t[tapeAt + 1]! - scanBase;
      const to = t[tapeAt + 2]! - scanBase;
      tapeAt += 3;
      v = leaf(from, to, field.plan);
    }
    if (field.plan !== STAMP) {
      if (field.name === "__proto__") Object.defineProperty(out, field.name, { value: v, enumerable: true, writable: true, configurable: true });
      else out[field.name] = v;
    }
  }
  return out;
}

/** The items of the array whose entries start at `tapeAt`, up to its CLOSE entry. */
function tapeArray(items: Plan): unknown[] {
  const out: unknown[] = [];
  const t = tape;
  for (;;) {
    const code = t[tapeAt]!;
    if (code === TAPE_CLOSE) {
      tapeAt += 3;
      return out;
    }
    if ((code & TAPE_OPEN) !== 0) {
      tapeAt += 3;
      out.push(tapeObject());
    } else {
      const from = t[tapeAt + 1]! - scanBase;
      const to = t[tapeAt + 2]! - scanBase;
      tapeAt += 3;
      out.push(leaf(from, to, items));
    }
  }
}

/** The value `plan` builds of the checked value at `[from, to)`, as {@link value} builds it. */
function leaf(from: number, to: number, plan: Plan): unknown {
  if (buf[from] === QUOTE) {
    if (plan === STAMP) {
      stampMs = stamp(from + 1, to - 1);
      return undefined;
    }
    if (plan === FULL || plan === TEXT) return stringAt(from, to - 1, plan === TEXT);
  } else if (plan === STAMP) {
    stampMs = null;
    return undefined;
  }
  pos = from;
  return value(plan);
}

/** This thread's compiled object plans (lib/sources/common/skim-plan-image). */
const planImage = new PlanImage();

function readArray(plan: Plan): unknown[] {
  const out: unknown[] = [];
  pos++;
  ws();
  if (ch(pos) === 0x5d) {
    pos++;
    return out;
  }
  for (;;) {
    out.push(value(plan));
    ws();
    const c = ch(pos);
    if (c === 0x2c) {
      pos++;
      ws();
      continue;
    }
    if (c === 0x5d) {
      pos++;
      return out;
    }
    throw INVALID;
  }
}

/** Validates and steps over one value at `pos` without building it. */
function skip(): void {
  const at = skipValue(buf, pos, end);
  if (at < 0) throw INVALID;
  pos = at;
}

/** Containers open in {@link skipValue}: 1 object, 0 array (deeper values are left to JSON.parse). */
const OPEN = new Uint8Array(4096);

/**
 * Index just past the JSON value starting at `i` in `b` (whitespace before it skipped), checking
 * the grammar of everything but string contents; -1 when it is not valid before `end`. One
 * tight loop with locals only: most of a transcript's bytes go through here.
 */
export function skipValue(b: Buffer, i: number, end: number): number {
  // A line a scanner reaches: its module checks the whole value at once.
  if (b === scanBytes) {
    const after = scanner!.valueEnd(i + scanBase, end + scanBase);
    return after < 0 ? -1 : after - scanBase;
  }
  const open = OPEN;
  let depth = 0;
  for (;;) {
    // A value at i.
    let c = i < end ? b[i]! : -1;
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = ++i < end ? b[i]! : -1;
    if (c === QUOTE) {
      i = closeQuote(b, i, end);
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
          i = afterKey(b, i, end);
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
          i = afterKey(b, i, end);
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
function afterKey(b: Buffer, i: number, end: number): number {
  let at = closeQuote(b, i, end);
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
 * ≥ 0x80, so the check is the same on the bytes as on the decoded text). Long runs of plain bytes
 * are checked four at a time here, and by lib/jsonl/json-scan's SIMD module when it reaches the line.
 */
export function closeQuote(b: Buffer, open: number, end: number): number {
  const special = SPECIAL;
  let at = open + 1;
  // Short strings (keys, ids, most values) in JavaScript; past 32 bytes, the rest of a long one
  // by the SIMD module when one reaches the line.
  const stop = b === scanBytes && at + 32 < end ? at + 32 : end;
  for (;;) {
    while (at + 4 <= stop && (special[b[at]!]! | special[b[at + 1]!]! | special[b[at + 2]!]! | special[b[at + 3]!]!) === 0) at += 4;
    if (at >= stop) {
      if (stop === end) return -1;
      const after = scanner!.stringEnd(at - 1 + scanBase, end + scanBase);
      return after < 0 ? -1 : after - scanBase - 1;
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

/** Lines longer than this are skimmed from the SIMD scratch memory (copied there once). */
const SCRATCH_MIN_BYTES = 256;
/** Lines longer than this are skimmed in place (the scratch memory never shrinks). */
const SCRATCH_MAX_BYTES = 16 << 20;
/** The bytes of the line being skimmed when a scanner reaches them, that scanner, and the memory address of `scanBytes[0]`. */
let scanBytes: Buffer | null = null;
let scanner: JsonScanner | null = null;
let scanBase = 0;

/** 1 for the bytes that stop a run of plain string content: `"`, `\\` and the control bytes. */
const SPECIAL = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) SPECIAL[c] = 1;
SPECIAL[QUOTE] = 1;
SPECIAL[BACKSLASH] = 1;

/** Index just past the escape whose backslash is at `at`, or -1 when it is not a JSON escape. */
function escapeEnd(b: Buffer, at: number, end: number): number {
  const e = at + 1 < end ? b[at + 1]! : -1;
  if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return at + 2;
  if (e !== 0x75 || at + 6 > end) return -1;
  for (let k = at + 2; k < at + 6; k++) if (HEX[b[k]!] === 0) return -1;
  return at + 6;
}

const HEX = new Uint8Array(256);
for (const c of "0123456789abcdefABCDEF") HEX[c.charCodeAt(0)] = 1;


/** Steps over a number or literal at `pos`, checking its grammar; returns where it started. */
function scalarEnd(): number {
  const from = pos;
  let c = ch(pos);
  if (c === 0x74) return literal(from, TRUE_BYTES);
  if (c === 0x66) return literal(from, FALSE_BYTES);
  if (c === 0x6e) return literal(from, NULL_BYTES);
  if (c === 0x2d) c = ch(++pos);
  if (c === 0x30) c = ch(++pos);
  else if (c >= 0x31 && c <= 0x39) {
    do c = ch(++pos);
    while (c >= 0x30 && c <= 0x39);
  } else throw INVALID;
  if (c === 0x2e) {
    c = ch(++pos);
    if (c < 0x30 || c > 0x39) throw INVALID;
    do c = ch(++pos);
    while (c >= 0x30 && c <= 0x39);
  }
  if (c === 0x65 || c === 0x45) {
    c = ch(++pos);
    if (c === 0x2b || c === 0x2d) c = ch(++pos);
    if (c < 0x30 || c > 0x39) throw INVALID;
    do c = ch(++pos);
    while (c >= 0x30 && c <= 0x39);
  }
  return from;
}

const TRUE_BYTES = new Uint8Array(Buffer.from("true"));
const FALSE_BYTES = new Uint8Array(Buffer.from("false"));
const NULL_BYTES = new Uint8Array(Buffer.from("null"));

function literal(from: number, word: Uint8Array): number {
  if (from + word.length > end) throw INVALID;
  for (let i = 1; i < word.length; i++) if (buf[from + i] !== word[i]) throw INVALID;
  pos = from + word.length;
  return from;
}

function scalar(): unknown {
  const c = ch(pos);
  const from = scalarEnd();
  if (c === 0x74) return true;
  if (c === 0x66) return false;
  if (c === 0x6e) return null;
  // Token counts: plain integers of up to 15 digits, read from their digits (exact below 2^53).
  if (pos - from <= 15) {
    let v = 0;
    let i = from;
    for (; i < pos; i++) {
      const d = buf[i]! - 0x30;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === pos) return v;
  }
  return Number(latin1(buf, from, pos));
}

/** Buffer's own slicers, without `toString`'s argument handling (a measurable cost per short string). */
type Slicers = { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };
function latin1(b: Buffer, start: number, end: number): string {
  return (b as unknown as Slicers).latin1Slice(start, end);
}
function utf8(b: Buffer, start: number, end: number): string {
  return (b as unknown as Slicers).utf8Slice(start, end);
}

/** Decodes the string literal at `pos`, cutting it when `cut` and long (see the module comment). */
function readString(cut: boolean): string {
  const open = pos;
  const close = closeOf(open);
  pos = close + 1;
  return stringAt(open, close, cut);
}

/** The string literal between the quotes at `open` and `close`, cut when `cut` and long. */
function stringAt(open: number, close: number, cut: boolean): string {
  if (cut && close - open - 1 > CUT_BYTES) {
    const kept = safeCut(buf, open + 1, open + 1 + KEEP_BYTES);
    const prefix = decode(open, kept, false);
    if (prefix.trimStart().length >= MIN_KEPT_CHARS) return `${prefix}${CUT_MARK}${close - open - 1}`;
  }
  return decode(open, close);
}

/**
 * The text of the literal opening at `open` up to `close` (exclusive); `closed` false when
 * `close` is a cut point inside the string rather than its closing quote.
 */
function decode(open: number, close: number, closed = true): string {
  const b = buf;
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
    const text = utf8(buf, open + 1, close);
    if (!CONTROL.test(text)) return text;
  }
  const literalText = closed ? utf8(buf, open, close + 1) : `${utf8(buf, open, close)}"`;
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


/** Epoch ms of the timestamp string between `from` and `to` (its quotes excluded). */
function stamp(from: number, to: number): number | null {
  // The shape Claude Code and Codex write, `YYYY-MM-DDTHH:MM:SS.mmmZ`, read from its bytes;
  // anything else goes through the shared parser.
  if (to - from === SHAPED_STAMP_CHARS) {
    const ms = stamps.read(buf, from);
    if (ms !== -1) return ms;
  }
  return parseAwareTimestamp(decode(from - 1, to));
}
