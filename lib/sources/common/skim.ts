/** Byte-level skim of one JSONL line: the JSON grammar checked, only the planned fields built. */
import { CUT_MARK } from "@/lib/jsonl/cut-string";
import * as jsonScan from "@/lib/jsonl/json-scan";
import type { JsonObject } from "@/lib/sources/common/json-object";
import type { ObjectPlan } from "@/lib/sources/common/skim-plans";
import { SkimReader, type SkimmedRecord } from "@/lib/sources/common/skim-state";
import * as repeatedTails from "@/lib/sources/common/skim-tails";
import * as tapeWalk from "@/lib/sources/common/skim-tape";
import * as walk from "@/lib/sources/common/skim-walk";

/*
 * One walk over a line's bytes checks the JSON grammar of the whole line, exactly as `JSON.parse`
 * checks it, and builds only the fields the caller's plan names: most of a transcript's bytes are
 * never turned into strings or objects. The timestamp is parsed to `timestampMs`, left out of
 * `record`; long text strings are cut (skim-walk). The pieces: skim-state (the reader), skim-plans,
 * skim-walk (the walk in JavaScript), skim-bytes (the grammar on raw bytes), skim-tape (the
 * scanner's walk, shared records), skim-tails, skim-memories, skim-plan-image, skim-stamp.
 */

export { FULL, objectPlan, STAMP, TEXT, type ArrayPlan, type ObjectPlan, type Plan } from "@/lib/sources/common/skim-plans";
export type { SkimmedRecord } from "@/lib/sources/common/skim-state";
export { CUT_BYTES, KEEP_BYTES, MIN_KEPT_CHARS } from "@/lib/sources/common/skim-walk";
/** Marks a cut string: the same convention as lib/jsonl/cut-string (prefix, U+0000, byte length). */
export { CUT_MARK };

/** {@link skimLine}'s answer for a line of JSON whitespace only. */
export const BLANK: unique symbol = Symbol("blank");

/**
 * Test hooks: `tapeWalk` false makes every line walk in JavaScript (the reference the scanner's
 * one-call walk is tested against; no line is then settled by a repeated tail either);
 * `repeatedTails` false settles every line by its own bytes (the reference repeated tails are
 * tested against). Not for production use.
 */
export const skimTuning = { tapeWalk: true, repeatedTails: true };

// Module copies of the imports read per line or per value: tsx reads an imported binding through a
// getter call (an esbuild bundle, as range workers run, does not).
const { DATA_OFFSET } = jsonScan;
const { TAIL_MIN_BYTES } = repeatedTails;
const { oneStampMember, walked } = tapeWalk;
const { readObject, stamp, ws } = walk;

/** Lines longer than this are skimmed from the SIMD scratch memory (copied there once). */
const SCRATCH_MIN_BYTES = 256;
/** Lines longer than this are skimmed in place (the scratch memory never shrinks). */
const SCRATCH_MAX_BYTES = 16 << 20;

/** This thread's reader, and its callbacks for the repeated tails (made once, not per line). */
const reader = new SkimReader();
const stampOfLine = (from: number, to: number): number | null => stamp(reader, from, to);
const oneStampMemberOfLine = (): boolean => oneStampMember(reader);

/**
 * Skims `bytes[start, end)` (one JSONL line, terminator excluded), building the fields `plan`
 * names (the Claude Code plans are in lib/sources/claude-code/skim-plans, Codex's in
 * lib/sources/codex/skim-plan).
 * @returns the record and timestamp, {@link BLANK} for a line of JSON whitespace only, or null
 *   when the line is not a JSON object or the skim cannot decide (deep nesting, escaped keys):
 *   the caller then parses the line with `JSON.parse`, which settles it exactly. Never throws.
 */
export function skimLine(bytes: Buffer, start: number, stop: number, plan: ObjectPlan): SkimmedRecord | typeof BLANK | null {
  const r = reader;
  const length = stop - start;
  const memories = r.memories;
  const inPlace = memories.scannerIn(bytes.buffer);
  if (inPlace !== undefined) {
    // Read into a scan memory: scanned where it lies (addresses offset by the view's start).
    r.buf = r.scanBytes = bytes;
    r.scanner = inPlace;
    memories.useRegions(bytes.buffer);
    r.scanBase = bytes.byteOffset;
    r.pos = start;
    r.end = stop;
  } else if (length > SCRATCH_MIN_BYTES && length <= SCRATCH_MAX_BYTES) {
    const scratch = memories.scratch();
    const copy = scratch.load(bytes, start, stop);
    r.buf = r.scanBytes = copy;
    r.scanner = scratch;
    memories.useRegions(copy.buffer);
    r.scanBase = 0;
    r.pos = DATA_OFFSET;
    r.end = DATA_OFFSET + length;
  } else {
    r.buf = bytes;
    r.pos = start;
    r.end = stop;
  }
  r.stampMs = null;
  r.tapeWalked = false;
  try {
    const sample = plan.shared && length >= TAIL_MIN_BYTES && skimTuning.tapeWalk && skimTuning.repeatedTails ? r.tails.sample(bytes, start, stop) : 0;
    const settled = sample === 0 ? null : settledByTail(r, plan, bytes, start, stop, sample);
    if (settled !== null) return settled;
    ws(r);
    if (r.pos >= r.end) return BLANK;
    if (r.buf[r.pos] !== 0x7b) return null;
    const record = (r.buf === r.scanBytes && skimTuning.tapeWalk && walked(r, plan)) || (readObject(r, plan) as JsonObject);
    ws(r);
    if (r.pos !== r.end) return null;
    if (sample !== 0) return { record: r.tails.remember(plan, bytes, start, stop, sample, record, oneStampMemberOfLine), timestampMs: r.stampMs };
    return { record, timestampMs: r.stampMs };
  } catch {
    return null;
  } finally {
    r.release();
  }
}

/**
 * The line `[start, stop)` settled by a repeated tail (see `RepeatedTails.settle`). An unusual
 * timestamp is read from `b`, so `r.buf` points there; the walk that follows a miss reads the line
 * where skimLine put it (a scratch copy for a line outside a scan memory), so `r.buf` is restored
 * on a miss.
 */
function settledByTail(r: SkimReader, plan: ObjectPlan, b: Buffer, start: number, stop: number, sample: number): SkimmedRecord | null {
  const walking = r.buf;
  r.buf = b;
  const settled = r.tails.settle(plan, b, start, stop, sample, stampOfLine);
  if (settled === null) r.buf = walking;
  return settled;
}
