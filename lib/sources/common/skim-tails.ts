/** The skim's repeated tails: lines that repeat an earlier line but for their leading timestamp, settled by comparing bytes. */
import type { JsonObject } from "@/lib/sources/common/json-object";
import type { ObjectPlan } from "@/lib/sources/common/skim-plans";
import type { SkimmedRecord } from "@/lib/sources/common/skim-state";
import { SHAPED_STAMP_CHARS, type ShapedStamps } from "@/lib/sources/common/skim-stamp";

/*
 * Codex repeats most of a line's bytes from line to line; only the leading `timestamp` changes. A
 * shared plan's line starting `{"timestamp":"<plain stamp>",` whose tail equals, byte for byte, an
 * earlier walked line's gets that line's frozen record and its own timestamp. Lines are known by
 * length and a byte sample; a tail is kept on its second sighting when the timestamp member was
 * met once only, up to TAIL_VARIANTS per key (the last to settle a line first).
 */

/** Shortest line whose tail is looked up or kept. */
export const TAIL_MIN_BYTES = 256;
/** Longest tail kept. */
const TAIL_MAX_BYTES = 256 << 10;
/**
 * Bytes of kept tails at most: they are copied into one arena (from {@link TAIL_MAX_BYTES}, doubled
 * each time it fills, its tails kept, up to this), and all forgotten when it is full at this size
 * (2 MiB holds every repeated tail of the real-shaped rollout and stays in cache).
 */
const TAIL_ARENA_BYTES = 2 << 20;
/** Bytes at the start of a line left out of its sample (the prefix and its timestamp are shorter). */
const SAMPLE_SKIP = 64;
/** A line's key: its length and 12 bits of its sample (a small integer). */
const tailKey = (length: number, sample: number): number => length * 4096 + (sample & 0xfff);
/** A kept tail: its offset in the line, where its bytes are in the arena, their length, and the record. */
type Tail = { plan: ObjectPlan; sample: number; offset: number; at: number; length: number; record: JsonObject };
/** Tails kept per key at most (the least recently settling one goes first). */
const TAIL_VARIANTS = 16;
const QUOTE = 0x22;
const TAIL_PREFIX = Buffer.from('{"timestamp":"');
/** 1 for the bytes a timestamp string of a tail's prefix may hold (none needs an escape). */
const STAMP_BYTE = new Uint8Array(256);
for (const c of "0123456789:.+-TZtz") STAMP_BYTE[c.charCodeAt(0)] = 1;
/** Bytes of `{"timestamp":"YYYY-MM-DDTHH:MM:SS.mmmZ",`: where the tail of a line with the usual stamp shape starts. */
const SHAPED_TAIL_BYTES = TAIL_PREFIX.length + SHAPED_STAMP_CHARS + 2;

/** `value` with every object in it frozen (a shared record is read by every line it stands for). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The kept tails of one skimming thread, bounded by bytes ({@link TAIL_ARENA_BYTES}). */
export class RepeatedTails {
  /** Keys of lines walked once, by the key's low bits (a line seen again with its key there is kept). */
  private readonly seenKeys = new Float64Array(4096);
  /** Per key: its kept tails, the one that last settled a line first. */
  private readonly kept = new Map<number, Tail[]>();
  private arena: Buffer | null = null;
  private arenaUsed = 0;

  constructor(private readonly stamps: ShapedStamps) {}

  /** A cheap fingerprint of a line `[start, stop)` of at least {@link TAIL_MIN_BYTES}: 16 bytes spread past its first {@link SAMPLE_SKIP}. */
  sample(b: Buffer, start: number, stop: number): number {
    const from = start + SAMPLE_SKIP;
    const step = Math.floor((stop - from) / 16);
    let h = 0x811c9dc5;
    for (let k = 0, at = from; k < 16; k++, at += step) h = Math.imul(h ^ b[at]!, 0x01000193);
    return h;
  }

  /**
   * The line `[start, stop)` of `plan` (its `sample`) settled by an earlier line's tail: that
   * line's record and this line's timestamp (an unusual stamp shape read by `stampOf(from, to)`,
   * its quotes excluded); null when no kept tail is byte for byte its own.
   */
  settle(plan: ObjectPlan, b: Buffer, start: number, stop: number, sample: number, stampOf: (from: number, to: number) => number | null): SkimmedRecord | null {
    const variants = this.kept.get(tailKey(stop - start, sample));
    if (variants === undefined) return null;
    // Most lines carry the usual stamp shape: its parse checks every byte tailStart would.
    const shaped = hasTailPrefix(b, start) && b[start + SHAPED_TAIL_BYTES - 2] === QUOTE && b[start + SHAPED_TAIL_BYTES - 1] === 0x2c ? this.stamps.read(b, start + TAIL_PREFIX.length) : -1;
    const from = shaped !== -1 ? start + SHAPED_TAIL_BYTES : tailStart(b, start, stop);
    for (let v = 0; from !== -1 && v < variants.length; v++) {
      const known = variants[v]!;
      if (known.sample !== sample || known.plan !== plan || start + known.offset !== from) continue;
      if (b.compare(this.arena!, known.at, known.at + known.length, from, stop) !== 0) continue;
      if (v > 0) {
        variants[v] = variants[0]!;
        variants[0] = known;
      }
      return { record: known.record, timestampMs: shaped !== -1 ? shaped : stampOf(start + TAIL_PREFIX.length, from - 2) };
    }
    return null;
  }

  /**
   * `record` (walked whole from the line `[start, stop)` of the given `sample`), frozen and kept
   * for later lines with the same tail on the line's second sighting when it may stand for its
   * line (`oneStampMember()`: the walk met the timestamp member once only); else `record` as it is.
   */
  remember(plan: ObjectPlan, b: Buffer, start: number, stop: number, sample: number, record: JsonObject, oneStampMember: () => boolean): JsonObject {
    const key = tailKey(stop - start, sample);
    const slot = (key ^ (key >>> 12)) & 4095;
    if (this.seenKeys[slot] !== key) {
      this.seenKeys[slot] = key;
      return record;
    }
    this.seenKeys[slot] = 0;
    const from = tailStart(b, start, stop);
    if (from === -1 || stop - from > TAIL_MAX_BYTES || !oneStampMember()) return record;
    let arena = this.arena;
    if (arena === null || this.arenaUsed + (stop - from) > arena.length) {
      // The arena doubles up to its cap, its tails kept (a small rollout never holds the whole
      // arena); full at its cap, every kept tail is forgotten.
      const size = Math.min(TAIL_ARENA_BYTES, Math.max(TAIL_MAX_BYTES, 2 * (arena?.length ?? 0)));
      if (arena !== null && this.arenaUsed + (stop - from) <= size) {
        const bigger = Buffer.allocUnsafeSlow(size);
        arena.copy(bigger, 0, 0, this.arenaUsed);
        arena = bigger;
      } else {
        this.kept.clear();
        this.arenaUsed = 0;
        if (arena === null || size > arena.length) arena = Buffer.allocUnsafeSlow(size);
      }
      this.arena = arena;
    }
    b.copy(arena, this.arenaUsed, from, stop);
    const frozen = deepFreeze(record);
    const tail: Tail = { plan, sample, offset: from - start, at: this.arenaUsed, length: stop - from, record: frozen };
    const variants = this.kept.get(key);
    if (variants === undefined) this.kept.set(key, [tail]);
    else {
      if (variants.length === TAIL_VARIANTS) variants.pop();
      variants.unshift(tail);
    }
    this.arenaUsed += stop - from;
    return frozen;
  }
}

/** Whether `b` holds {@link TAIL_PREFIX} at `start`. */
function hasTailPrefix(b: Buffer, start: number): boolean {
  for (let i = 0; i < TAIL_PREFIX.length; i++) if (b[start + i] !== TAIL_PREFIX[i]) return false;
  return true;
}

/** The index just after `{"timestamp":"<stamp>",` at `start` (at most 40 plain stamp bytes), or -1. */
function tailStart(b: Buffer, start: number, stop: number): number {
  if (!hasTailPrefix(b, start)) return -1;
  const from = start + TAIL_PREFIX.length;
  let j = from;
  while (j < stop && j - from <= 40 && STAMP_BYTE[b[j]!] === 1) j++;
  return j + 1 < stop && b[j] === QUOTE && b[j + 1] === 0x2c ? j + 2 : -1;
}
