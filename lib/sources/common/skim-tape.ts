/** The skim's tape walk: a line's object walked by the scanner in one call, its record built from the tape (shared between lines when a shared plan's values repeat). */
import * as jsonScan from "@/lib/jsonl/json-scan";
import type { JsonObject } from "@/lib/sources/common/json-object";
import * as grammar from "@/lib/sources/common/skim-bytes";
import * as plans from "@/lib/sources/common/skim-plans";
import type { ArrayPlan, ObjectPlan, Plan } from "@/lib/sources/common/skim-plans";
import * as readerState from "@/lib/sources/common/skim-state";
import type { SharedRecord, SkimReader } from "@/lib/sources/common/skim-state";
import * as repeatedTails from "@/lib/sources/common/skim-tails";
import * as walk from "@/lib/sources/common/skim-walk";

// Module copies of the imports read per line or per value: tsx reads an imported binding through a
// getter call (an esbuild bundle, as range workers run, does not).
const { TAPE_ARRAY, TAPE_AT, TAPE_CLOSE, TAPE_OPEN } = jsonScan;
const { QUOTE } = grammar;
const { FULL, plannedFields, STAMP, TEXT } = plans;
const { INVALID } = readerState;
const { deepFreeze } = repeatedTails;
const { stamp, stringAt, value } = walk;

/** Distinct shared records kept at most (then new ones are built per line). */
const SHARED_MAX = 4096;
/** A shared record's strings are at most this many raw bytes. */
const SHARED_STRING_BYTES = 64;

/**
 * The record of the object at `r.pos` walked by the scanner in one call (`JsonScanner.walkObject`),
 * built from its tape; null when the plan cannot be walked so (a key of 32 bytes or more, no room
 * left for plans) or the tape overflowed, so the caller walks it in JavaScript (same result).
 * @throws INVALID when the scanner finds the object invalid or meets an escaped key.
 */
export function walked(r: SkimReader, plan: ObjectPlan): JsonObject | null {
  const node = r.planImage.nodeOf(plan);
  if (node < 0) return null;
  const regions = r.memories.regions;
  r.planImage.install(regions);
  const state = regions.state;
  state[3] = TAPE_AT;
  const base = r.scanBase;
  const after = r.scanner!.walkObject(r.pos + base, r.end + base, node);
  if (after === -4) return null;
  if (after < 0) throw INVALID;
  r.tape = regions.tape;
  r.tapeAt = 0;
  r.tapeEnd = (state[3]! - TAPE_AT) / 4;
  r.tapeWalked = true;
  const record = plan.shared ? sharedRecord(r) : (tapeObject(r) as JsonObject);
  r.pos = after - base;
  return record;
}

/** Whether the walked line's tape holds one timestamp member only (its tail may then stand for later lines). */
export function oneStampMember(r: SkimReader): boolean {
  if (!r.tapeWalked) return false;
  const tape = r.tape;
  const stamps = plannedFields.stamps;
  let n = 0;
  for (let i = 0; i < r.tapeEnd; i += 3) if (stamps[tape[i]!] === 1) n++;
  return n === 1;
}

/**
 * The record of the tape just walked by a {@link ObjectPlan.shared} plan: that of an earlier line
 * with the same fields and values when there is one, else built (and kept when it can be shared).
 */
function sharedRecord(r: SkimReader): JsonObject {
  const key = sharedKey(r);
  if (key < 0) return tapeObject(r) as JsonObject;
  const records = r.sharedRecords;
  const known = records.get(key);
  if (known !== undefined && sameShared(r, known)) return known.record;
  const record = deepFreeze(tapeObject(r) as JsonObject);
  if (known === undefined && records.size < SHARED_MAX) {
    const strings = stringEntries(r);
    records.set(key, { record, codes: r.tape.slice(0, r.tapeEnd), strings, bytes: stringBytes(r, strings) });
  }
  return record;
}

/**
 * A hash of the tape just walked (its codes, and the length and three bytes of every built
 * string: {@link sameShared} then compares every byte, so equal raw bytes, hence equal decoded
 * strings, are what makes two lines share a record), with the line's timestamp read on the way;
 * -1 when the record cannot be shared (a value that is not a short string, an array).
 */
function sharedKey(r: SkimReader): number {
  const t = r.tape;
  const b = r.buf;
  const base = r.scanBase;
  const tapeEnd = r.tapeEnd;
  const stamps = plannedFields.stamps;
  let h = 0x811c9dc5;
  r.stampMs = null;
  for (let i = 0; i < tapeEnd; i += 3) {
    const code = t[i]!;
    h = Math.imul(h ^ code, 0x01000193);
    if ((code & TAPE_ARRAY) !== 0) return -1;
    if (code === TAPE_CLOSE || (code & TAPE_OPEN) !== 0) continue;
    const from = t[i + 1]! - base;
    const to = t[i + 2]! - base;
    if (stamps[code] === 1) {
      r.stampMs = b[from] === QUOTE ? stamp(r, from + 1, to - 1) : null;
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
function stringEntries(r: SkimReader): Int32Array {
  const out: number[] = [];
  const stamps = plannedFields.stamps;
  for (let i = 0; i < r.tapeEnd; i += 3) {
    const code = r.tape[i]!;
    if (code !== TAPE_CLOSE && (code & TAPE_OPEN) === 0 && stamps[code] !== 1) out.push(i);
  }
  return Int32Array.from(out);
}

/** The bytes of the strings at tape entries `strings`, each with its closing quote (none holds a raw quote, so lengths match too). */
function stringBytes(r: SkimReader, strings: Int32Array): Uint8Array {
  const out: number[] = [];
  const t = r.tape;
  const base = r.scanBase;
  for (const i of strings) for (let j = t[i + 1]! - base + 1; j < t[i + 2]! - base; j++) out.push(r.buf[j]!);
  return Uint8Array.from(out);
}

/** True when the tape just walked has `known`'s codes and string bytes (no hash collision). */
function sameShared(r: SkimReader, known: SharedRecord): boolean {
  const codes = known.codes;
  const tapeEnd = r.tapeEnd;
  if (codes.length !== tapeEnd) return false;
  const t = r.tape;
  for (let i = 0; i < tapeEnd; i += 3) if (t[i] !== codes[i]) return false;
  // The strings, by the entries known to hold them (same codes: the same entries here).
  const bytes = known.bytes;
  const strings = known.strings;
  const b = r.buf;
  const base = r.scanBase;
  let at = 0;
  for (let k = 0; k < strings.length; k++) {
    const i = strings[k]!;
    const to = t[i + 2]! - base;
    for (let j = t[i + 1]! - base + 1; j < to; j++) if (b[j] !== bytes[at++]) return false;
  }
  return at === bytes.length;
}

/** The members of the object whose entries start at `r.tapeAt`, up to its CLOSE entry (the line's own object: to the tape's end). */
function tapeObject(r: SkimReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = r.tape;
  const fields = plannedFields.fields;
  while (r.tapeAt < r.tapeEnd) {
    const at = r.tapeAt;
    const code = t[at]!;
    if (code === TAPE_CLOSE) {
      r.tapeAt = at + 3;
      return out;
    }
    const field = fields[code & 0xffff]!;
    r.tapeAt = at + 3;
    let v: unknown;
    if ((code & TAPE_OPEN) !== 0) v = tapeObject(r);
    else if ((code & TAPE_ARRAY) !== 0) v = tapeArray(r, (field.plan as ArrayPlan).items);
    else v = leaf(r, t[at + 1]! - r.scanBase, t[at + 2]! - r.scanBase, field.plan);
    if (field.plan !== STAMP) {
      if (field.name === "__proto__") Object.defineProperty(out, field.name, { value: v, enumerable: true, writable: true, configurable: true });
      else out[field.name] = v;
    }
  }
  return out;
}

/** The items of the array whose entries start at `r.tapeAt`, up to its CLOSE entry. */
function tapeArray(r: SkimReader, items: Plan): unknown[] {
  const out: unknown[] = [];
  const t = r.tape;
  for (;;) {
    const at = r.tapeAt;
    const code = t[at]!;
    r.tapeAt = at + 3;
    if (code === TAPE_CLOSE) return out;
    if ((code & TAPE_OPEN) !== 0) out.push(tapeObject(r));
    else out.push(leaf(r, t[at + 1]! - r.scanBase, t[at + 2]! - r.scanBase, items));
  }
}

/** The value `plan` builds of the checked value at `[from, to)`, as the JavaScript walk builds it. */
function leaf(r: SkimReader, from: number, to: number, plan: Plan): unknown {
  if (r.buf[from] === QUOTE) {
    if (plan === STAMP) {
      r.stampMs = stamp(r, from + 1, to - 1);
      return undefined;
    }
    if (plan === FULL || plan === TEXT) return stringAt(r, from, to - 1, plan === TEXT);
  } else if (plan === STAMP) {
    r.stampMs = null;
    return undefined;
  }
  r.pos = from;
  return value(r, plan);
}
