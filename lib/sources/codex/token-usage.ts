/** Codex token usage per turn from cumulative `token_count` snapshots. */
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { objectField } from "@/lib/sources/codex/records";

/**
 * Token usage of one turn for display: differences of the cumulative
 * `total_token_usage` counters (tokens). `inputTokens` includes cached input, `outputTokens`
 * includes reasoning output, `totalTokens = input + output`. Each is null when unknown.
 */
export type CodexTokenUsage = { inputTokens: number | null; outputTokens: number | null; totalTokens: number | null };

/** The all-unknown usage. */
export const UNKNOWN_USAGE: CodexTokenUsage = Object.freeze({ inputTokens: null, outputTokens: null, totalTokens: null });

/** Cumulative counters of one `total_token_usage` (tokens; null when missing or not a non-negative integer). */
export type TokenCounters = { input: number | null; output: number | null; total: number | null };
/** One `token_count` snapshot: cumulative counters plus the last response's output tokens. */
export type TokenSnapshot = { total: TokenCounters; lastOutput: number | null };

/**
 * Reads an `event_msg` `token_count` record with an object `info` (rate-limit-only updates,
 * `info: null`, are not snapshots). A snapshot whose `total_token_usage` is missing or
 * malformed has all-null counters. Returns null for any other record.
 */
export function readTokenSnapshot(record: JsonObject): TokenSnapshot | null {
  // Asked of every line: the type first, the payload only of an event.
  if (record.type !== "event_msg") return null;
  const payload = objectField(record, "payload");
  if (payload?.type !== "token_count") return null;
  const info = objectField(payload, "info");
  if (info === null) return null;
  const total = objectField(info, "total_token_usage");
  return {
    total: { input: count(total, "input_tokens"), output: count(total, "output_tokens"), total: count(total, "total_tokens") },
    lastOutput: count(objectField(info, "last_token_usage"), "output_tokens"),
  };
}

/**
 * prompt-diary's per-turn output-token rule for Codex (contract §1.8 step 6): the difference of
 * the cumulative `info.total_token_usage.output_tokens` between the turn's start and its last
 * snapshot (never the per-response `last_token_usage`, so duplicate snapshots and the two
 * parallel channels are counted once). Call {@link observe} on every pre-trigger line, then per
 * turn {@link startTurn}, {@link observe} for each line of the turn, {@link finishTurn}.
 */
export class CodexOutputTokens {
  private total: number | null = null;
  private baseline: number | null = null;
  private seenUsage = false;
  private valid = true;
  private generated = false;
  private generatedAfterUsage = false;
  private terminal = false;

  /** Begins a turn: the baseline is the cumulative total seen so far (null when none). */
  startTurn(): void {
    this.baseline = this.total;
    this.seenUsage = false;
    this.valid = true;
    this.generated = false;
    this.generatedAfterUsage = false;
    this.terminal = false;
  }

  /** Observes one line: its parsed object, or null for a malformed line (usage becomes unknown). */
  observe(record: JsonObject | null): void {
    if (record === null) {
      this.valid = false;
      this.total = null;
      return;
    }
    const payload = objectField(record, "payload");
    if (payload === null) return;
    if (record.type === "event_msg") {
      if (payload.type === "token_count") this.recordUsage(objectField(payload, "info"));
      else if (payload.type === "task_complete" || payload.type === "turn_aborted" || payload.type === "task_failed") this.terminal = true;
    } else if (record.type === "response_item" && isGeneration(payload)) {
      this.generated = true;
      this.generatedAfterUsage = true;
    }
  }

  /**
   * Output tokens of the turn, or null when unknown: invalid or decreasing usage, no snapshot in
   * the turn, unknown baseline, generation after the last snapshot, or an open last turn
   * (`bounded` false and no `task_complete` / `turn_aborted` / `task_failed`). Zero is accepted
   * only when nothing was generated.
   * @param bounded true when a later trigger ends the turn.
   */
  finishTurn(bounded: boolean): number | null {
    if (!this.valid || !this.seenUsage || this.baseline === null || this.total === null) return null;
    if (this.generatedAfterUsage || (!bounded && !this.terminal)) return null;
    const output = this.total - this.baseline;
    return output !== 0 || !this.generated ? output : null;
  }

  private recordUsage(info: JsonObject | null): void {
    if (info === null) return;
    const total = count(objectField(info, "total_token_usage"), "output_tokens");
    if (total === null) {
      this.valid = false;
      this.total = null;
      return;
    }
    // The first snapshot of a session that starts from zero repeats its only response.
    if (!this.seenUsage && this.baseline === null && total === count(objectField(info, "last_token_usage"), "output_tokens")) this.baseline = 0;
    if (this.total !== null && total < this.total) this.valid = false;
    this.total = total;
    this.seenUsage = true;
    this.generatedAfterUsage = false;
  }
}

/** A position in the file as seen by {@link CodexUsageTracker}. */
export type UsageMark = { readonly current: TokenCounters | null; readonly snapshots: number; readonly decreases: number };

/**
 * Display token usage (Casefile): follows the cumulative counters of every `token_count`
 * snapshot in file order; a turn's usage is {@link between} a mark taken before its first line
 * and one taken after its last. Unlike {@link CodexOutputTokens} it does not require the turn to
 * be closed, so a running or interrupted turn still shows what was spent. Malformed lines are
 * ignored. Baseline rule as in §1.8 step 6: before the first snapshot the counters are unknown,
 * unless that first snapshot's cumulative output equals its `last_token_usage` output (a fresh
 * session), which makes the baseline zero.
 */
export class CodexUsageTracker {
  private current: TokenCounters | null = null;
  private snapshots = 0;
  private decreases = 0;
  private freshStart = false;

  /** Observes one parsed line (null for malformed: ignored). */
  observe(record: JsonObject | null): void {
    const snapshot = record === null ? null : readTokenSnapshot(record);
    if (snapshot === null) return;
    const { total } = snapshot;
    if (this.snapshots === 0) this.freshStart = total.output !== null && total.output === snapshot.lastOutput;
    const previous = this.current;
    if (previous !== null && (lower(total.input, previous.input) || lower(total.output, previous.output) || lower(total.total, previous.total))) this.decreases += 1;
    this.current = total;
    this.snapshots += 1;
  }

  /** Snapshots observed so far (what {@link mark} would hold, without building it). */
  get snapshotCount(): number {
    return this.snapshots;
  }

  /** The current position. */
  mark(): UsageMark {
    return { current: this.current, snapshots: this.snapshots, decreases: this.decreases };
  }

  /**
   * Usage between two marks: per counter `end − start`; all null when no snapshot lies between
   * them or a counter decreased; a counter is null when unknown at either end.
   */
  between(start: UsageMark, end: UsageMark): CodexTokenUsage {
    if (end.snapshots === start.snapshots || end.decreases !== start.decreases || end.current === null) return UNKNOWN_USAGE;
    const base = start.current ?? (start.snapshots === 0 && this.freshStart ? { input: 0, output: 0, total: 0 } : null);
    if (base === null) return UNKNOWN_USAGE;
    const diff = (k: keyof TokenCounters) => {
      const a = base[k];
      const b = end.current![k];
      return a === null || b === null || b < a ? null : b - a;
    };
    return { inputTokens: diff("input"), outputTokens: diff("output"), totalTokens: diff("total") };
  }
}

function isGeneration(payload: JsonObject): boolean {
  const type = payload.type;
  return type === "reasoning" || type === "function_call" || type === "custom_tool_call" || (type === "message" && payload.role === "assistant");
}

/** A non-negative integer token count (Python `type(v) is int and v >= 0`), else null. */
function count(usage: JsonObject | null, key: string): number | null {
  const value = usage !== null && isJsonObject(usage) ? usage[key] : undefined;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

function lower(value: number | null, previous: number | null): boolean {
  return value !== null && previous !== null && value < previous;
}

/** Token usage of one turn span, as {@link CodexUsageLog.usageOf} returns it (tokens; null = unknown). */
export type CodexSpanUsage = { start: number; input: number | null; output: number | null; total: number | null };

/**
 * The display usage of any turn span, computed after one pass (issue 13: per-turn usage in
 * prepare's own pass, so the first page view never streams a Codex file again). Feed every
 * physical line's parsed object in order with {@link observe}; it keeps only the positions where
 * a `token_count` snapshot moved the counters. {@link usageOf} then gives, per span, exactly what
 * `codexTurnUsage` gives when it streams the file: the usage between the mark before the span's
 * first line and the mark after its last (a span past the end stops at the last line seen; a span
 * starting past it is unknown).
 */
export class CodexUsageLog {
  private readonly tracker = new CodexUsageTracker();
  private readonly changedAt: number[] = [];
  private readonly marks: UsageMark[] = [];
  private lastLine = 0;

  /** Observes physical line `line` (1-based, increasing): its parsed object, or null when malformed. */
  observe(line: number, record: JsonObject | null): void {
    this.lastLine = line;
    const before = this.tracker.snapshotCount;
    this.tracker.observe(record);
    // A mark only where a snapshot moved the counters (most lines move nothing: no object per line).
    if (this.tracker.snapshotCount !== before) {
      this.changedAt.push(line);
      this.marks.push(this.tracker.mark());
    }
  }

  /** Usage of each span (1-based inclusive lines), in the order given. */
  usageOf(spans: readonly { turn_start_line: number; turn_end_line: number }[]): CodexSpanUsage[] {
    return spans.map(({ turn_start_line: start, turn_end_line: end }) => {
      const usage = start > this.lastLine ? UNKNOWN_USAGE : this.tracker.between(this.markAfter(start - 1), this.markAfter(Math.min(end, this.lastLine)));
      return { start, input: usage.inputTokens, output: usage.outputTokens, total: usage.totalTokens };
    });
  }

  /** The tracker's mark once line `line` was observed (the initial mark for line 0). */
  private markAfter(line: number): UsageMark {
    let lo = 0;
    let hi = this.changedAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.changedAt[mid]! <= line) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? { current: null, snapshots: 0, decreases: 0 } : this.marks[lo - 1]!;
  }
}
