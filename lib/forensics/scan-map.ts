/** The map half of the forensics scan: lines of a transcript as compact, order-independent facts. */
import { lineFactsReader, MALFORMED_FACTS, TOOL_FAMILIES, type RecordFacts } from "@/lib/forensics/classify";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { Columns, ValueTable } from "@/lib/columns/typed-columns";
import { terminatorBytes } from "@/lib/jsonl/terminator";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import type { LineFactsReader } from "@/lib/sources/common/source-format";

/**
 * The map half of the forensics scan (issue 9): lines of one transcript → compact,
 * order-independent facts, one slot per non-blank line. The reduce half (lib/forensics/scan.ts)
 * walks these in file and line order and keeps the sequential state (pending tool calls,
 * context resets, findings). A source whose lines hold no state between them (its format's
 * `independentLines`: Claude Code) may be mapped in pieces (worker threads); another is mapped
 * from its first line (a Codex legacy header decides how the rest reads).
 */

/** Actor strings, indexed by actor id (lib/forensics/scan's `actorId`). */
export const ACTORS = ["user", "assistant", "tool", "system"] as const;

/**
 * The facts of a line range, flat so a worker hands them over cheaply (typed arrays and one
 * string list; structured clone of one object per record cost more than the mapping itself).
 */
export type MappedLines = {
  count: number;
  /** Physical line number (1-based) of each slot. */
  line: Uint32Array;
  /** Own timestamp (epoch ms) or NaN. */
  ts: Float64Array;
  /** Index into `types`. */
  typeId: Uint16Array;
  /** Index into {@link ACTORS}. */
  actorId: Uint8Array;
  types: string[];
  /** Slots whose facts go beyond timestamp, type and actor, encoded (see {@link ExtraReader}). */
  extra: { count: number; nums: Float64Array; strs: (string | null)[] };
};

/**
 * Maps consecutive line ranges of one transcript of a `source` session to {@link MappedLines},
 * read by the source format's line reader (lib/sources/formats): a line is skimmed when the
 * reader names a plan (lib/sources/common/skim: grammar-checked, only the fields the classifier
 * reads built); a line the skim cannot settle, and every line the reader names no plan for, is
 * decoded and parsed with `JSON.parse`.
 */
export class LineMapper {
  private readonly reader: LineFactsReader;
  private readonly out: Builder = new Builder();
  /** Message id of the last usage mapped (lines of one file, in order). */
  private lastUsageId: string | null = null;

  /** @param options.skim false: parse every line (the reference the skimmed scan is tested against). */
  constructor(source: string, options: { skim?: boolean } = {}) {
    this.reader = lineFactsReader(source, options);
  }

  /**
   * `facts` to hand over: a usage whose message id is the previous usage's is left out (the
   * reduce counts a message's usage once, at its first line, and Claude Code repeats it on every
   * content block of the message), which spares the reduce most of its usage lookups.
   */
  private deduped(facts: RecordFacts): RecordFacts {
    const id = facts.usage?.messageId ?? null;
    if (id === null) return facts;
    if (id === this.lastUsageId) return { ...facts, usage: null };
    this.lastUsageId = id;
    return facts;
  }

  /**
   * Maps lines `first..last` (0-based indexes into `starts`) held in `buf` from file offset `base`;
   * `starts` are the line index's start offsets and `size` the file size (the last line's end).
   */
  mapRange(buf: Buffer, base: number, starts: ArrayLike<number>, first: number, last: number, size: number): void {
    const lineCount = starts.length;
    for (let i = first; i <= last; i++) {
      const start = starts[i]! - base;
      const stop = Math.min(buf.length, (i + 1 < lineCount ? starts[i + 1]! : size) - base);
      const end = stop - terminatorBytes(buf, start, stop);
      const plan = this.reader.plan();
      if (plan !== null) {
        const skimmed = skimLine(buf, start, end, plan);
        if (skimmed === BLANK) continue;
        const facts = skimmed === null ? null : this.reader.skimmed(skimmed.record, skimmed.timestampMs);
        if (facts !== null) {
          this.out.push(i + 1, this.deduped(facts), false);
          continue;
        }
      }
      const text = buf.toString("utf8", start, end);
      if (text.trim() === "") continue;
      const facts = this.parsed(text);
      this.out.push(i + 1, facts === null ? MALFORMED_FACTS : this.deduped(facts), facts === null);
    }
  }

  /** The facts mapped so far; the mapper starts afresh. */
  take(): MappedLines {
    return this.out.take();
  }

  private parsed(text: string): RecordFacts | null {
    const record = parseJsonObject(text);
    return record === null ? null : this.reader.parsed(record);
  }
}

/** True when facts say more than timestamp, type and actor. */
function hasExtra(f: RecordFacts): boolean {
  return (
    f.userText !== null ||
    f.assistantReply ||
    f.toolCalls.length > 0 ||
    f.toolResults.length > 0 ||
    f.apiError !== null ||
    f.interrupted ||
    f.compaction ||
    f.usage !== null ||
    f.codexTotals !== null ||
    f.contextPoint !== null
  );
}

// Flags of an encoded extra.
const MALFORMED = 1;
const USER_FROM_EVENT = 2;
const ASSISTANT_REPLY = 4;
const INTERRUPTED = 8;
const COMPACTION = 16;
const USAGE = 32;
const CODEX_TOTALS = 64;
const CONTEXT_POINT = 128;
const USER_TEXT = 256;
const API_ERROR = 512;

/**
 * Encoding of one extra: nums `slot, flags, calls, results`, then per call its family index
 * (strs: id, name, subagent type), per result `failed` (strs: id), then usage (4 numbers; strs:
 * message id), Codex totals (3), context point (3, NaN for a null cache creation); strs also get
 * the user text and the API error when flagged.
 */
class ExtraWriter {
  count = 0;
  private readonly nums = new Columns({ nums: Float64Array }, 1 << 14);
  private strs: (string | null)[] = [];

  write(slot: number, f: RecordFacts, malformed: boolean): void {
    this.count++;
    const flags =
      (malformed ? MALFORMED : 0) |
      (f.userFromEvent ? USER_FROM_EVENT : 0) |
      (f.assistantReply ? ASSISTANT_REPLY : 0) |
      (f.interrupted ? INTERRUPTED : 0) |
      (f.compaction ? COMPACTION : 0) |
      (f.usage !== null ? USAGE : 0) |
      (f.codexTotals !== null ? CODEX_TOTALS : 0) |
      (f.contextPoint !== null ? CONTEXT_POINT : 0) |
      (f.userText !== null ? USER_TEXT : 0) |
      (f.apiError !== null ? API_ERROR : 0);
    this.num4(slot, flags, f.toolCalls.length, f.toolResults.length);
    for (const call of f.toolCalls) {
      this.num1(TOOL_FAMILIES.indexOf(call.family));
      this.strs.push(call.id, call.name, call.subagentType);
    }
    for (const result of f.toolResults) {
      this.num1(result.failed ? 1 : 0);
      this.strs.push(result.id);
    }
    if (f.usage !== null) {
      this.num4(f.usage.input, f.usage.output, f.usage.cacheRead, f.usage.cacheCreation);
      this.strs.push(f.usage.messageId);
    }
    if (f.codexTotals !== null) this.num3(f.codexTotals.input, f.codexTotals.output, f.codexTotals.cacheRead);
    if (f.contextPoint !== null) this.num3(f.contextPoint.cacheRead, f.contextPoint.cacheCreation ?? NaN, f.contextPoint.input);
    if (f.userText !== null) this.strs.push(f.userText);
    if (f.apiError !== null) this.strs.push(f.apiError);
  }

  take(): MappedLines["extra"] {
    const out = { count: this.count, nums: this.nums.take().nums, strs: this.strs };
    this.count = 0;
    this.strs = [];
    return out;
  }

  // Fixed arities: no rest array per call on the per-line path.
  private num1(a: number): void {
    const at = this.nums.add(1);
    this.nums.cols.nums[at] = a;
  }

  private num3(a: number, b: number, c: number): void {
    const at = this.nums.add(3);
    const nums = this.nums.cols.nums;
    nums[at] = a;
    nums[at + 1] = b;
    nums[at + 2] = c;
  }

  private num4(a: number, b: number, c: number, d: number): void {
    const at = this.nums.add(4);
    const nums = this.nums.cols.nums;
    nums[at] = a;
    nums[at + 1] = b;
    nums[at + 2] = c;
    nums[at + 3] = d;
  }
}

/** Reads the extras of a {@link MappedLines} back in slot order, one {@link RecordFacts} at a time. */
export class ExtraReader {
  private read = 0;
  private n = 0;
  private s = 0;
  /** Slot of the next extra, or -1 when none is left. */
  nextSlot: number;
  /** Whether the extra just read came from a malformed line. */
  malformed = false;

  constructor(private readonly extra: MappedLines["extra"]) {
    this.nextSlot = extra.count > 0 ? extra.nums[0]! : -1;
  }

  /** The facts of the extra at {@link nextSlot} (eventType, actor and timestamp are not filled in). */
  next(): RecordFacts {
    const { nums, strs } = this.extra;
    this.n++; // slot
    const flags = nums[this.n++]!;
    const calls = nums[this.n++]!;
    const results = nums[this.n++]!;
    const f: RecordFacts = {
      timestampMs: null,
      eventType: "",
      actor: "system",
      userText: null,
      userFromEvent: (flags & USER_FROM_EVENT) !== 0,
      assistantReply: (flags & ASSISTANT_REPLY) !== 0,
      toolCalls: [],
      toolResults: [],
      apiError: null,
      interrupted: (flags & INTERRUPTED) !== 0,
      compaction: (flags & COMPACTION) !== 0,
      usage: null,
      codexTotals: null,
      contextPoint: null,
    };
    this.malformed = (flags & MALFORMED) !== 0;
    for (let k = 0; k < calls; k++) {
      const family = TOOL_FAMILIES[nums[this.n++]!]!;
      f.toolCalls.push({ id: strs[this.s++]!, name: strs[this.s++]!, family, subagentType: strs[this.s++]! });
    }
    for (let k = 0; k < results; k++) f.toolResults.push({ id: strs[this.s++]!, failed: nums[this.n++] === 1 });
    if (flags & USAGE) f.usage = { input: nums[this.n++]!, output: nums[this.n++]!, cacheRead: nums[this.n++]!, cacheCreation: nums[this.n++]!, messageId: strs[this.s++]! };
    if (flags & CODEX_TOTALS) f.codexTotals = { input: nums[this.n++]!, output: nums[this.n++]!, cacheRead: nums[this.n++]! };
    if (flags & CONTEXT_POINT) {
      const cacheRead = nums[this.n++]!;
      const cacheCreation = nums[this.n++]!;
      f.contextPoint = { cacheRead, cacheCreation: Number.isNaN(cacheCreation) ? null : cacheCreation, input: nums[this.n++]! };
    }
    if (flags & USER_TEXT) f.userText = strs[this.s++]!;
    if (flags & API_ERROR) f.apiError = strs[this.s++]!;
    this.read++;
    this.nextSlot = this.read < this.extra.count ? nums[this.n]! : -1;
    return f;
  }
}

/** The per-slot columns of {@link MappedLines}. */
const SLOT_COLUMNS = { line: Uint32Array, ts: Float64Array, typeId: Uint16Array, actorId: Uint8Array } as const;

class Builder {
  private readonly slots = new Columns(SLOT_COLUMNS, 4096);
  private types = new ValueTable<string>();
  private readonly extra = new ExtraWriter();

  push(line: number, facts: RecordFacts, malformed: boolean): void {
    const id = this.types.id(facts.eventType);
    const i = this.slots.add();
    const c = this.slots.cols;
    c.line[i] = line;
    c.ts[i] = facts.timestampMs ?? NaN;
    c.typeId[i] = id;
    c.actorId[i] = Math.max(0, ACTORS.indexOf(facts.actor));
    if (malformed || hasExtra(facts)) this.extra.write(i, facts, malformed);
  }

  take(): MappedLines {
    const count = this.slots.count;
    const out: MappedLines = { count, ...this.slots.take(), types: this.types.values, extra: this.extra.take() };
    this.types = new ValueTable();
    return out;
  }
}
