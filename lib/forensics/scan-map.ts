import { classifyRecord, MALFORMED_FACTS, type RecordFacts } from "@/lib/forensics/classify";
import { BLANK, CUT_MARK, skimClaudeLine } from "@/lib/forensics/skim";
import { terminatorBytes } from "@/lib/jsonl/line-index";
import { isLegacyHeader } from "@/lib/sources/codex/legacy";
import { parseJsonObject } from "@/lib/sources/common/json-object";

/**
 * The map half of the forensics scan (issue 9): lines of one transcript → compact,
 * order-independent facts, one slot per non-blank line. The reduce half (lib/forensics/scan.ts)
 * walks these in file and line order and keeps the sequential state (pending tool calls,
 * context resets, findings). A Claude Code range holds no state between lines, so a file may be
 * mapped in pieces (worker threads); a Codex file is mapped from its first line (the legacy
 * header decides how the rest reads).
 */

/** What most records are: a timestamp, an event type and an actor; the rest sits in `extra`. */
export type MappedLines = {
  count: number;
  /** Physical line number (1-based) of each slot. */
  line: Uint32Array;
  /** Own timestamp (epoch ms) or NaN. */
  ts: Float64Array;
  /** Index into `types`. */
  typeId: Uint16Array;
  actor: string[];
  types: string[];
  /** Slots whose facts go beyond timestamp, type and actor (tool calls and results, usage, text…), in slot order. */
  extra: { slot: number; facts: RecordFacts; malformed: boolean }[];
};

/** Per-file state of a {@link LineMapper} (Codex's legacy header). */
type CodexState = { firstObject: boolean; legacy: { headerTimestamp: unknown } | null };

/**
 * Maps consecutive line ranges of one transcript of a `source` session (`claude-code`, `codex`
 * or another source) to {@link MappedLines}. Claude Code lines are skimmed
 * (lib/forensics/skim: grammar-checked, only the fields the classifier reads built); a line the
 * skim cannot settle, and every line of other sources, is decoded and parsed with `JSON.parse`.
 */
export class LineMapper {
  private readonly codex: CodexState = { firstObject: true, legacy: null };
  private readonly out: Builder = new Builder();

  constructor(private readonly source: string) {}

  /**
   * Maps lines `first..last` (0-based indexes into `starts`) held in `buf` from file offset `base`;
   * `starts` are the line index's start offsets and `size` the file size (the last line's end).
   */
  mapRange(buf: Buffer, base: number, starts: ArrayLike<number>, first: number, last: number, size: number): void {
    const lineCount = starts.length;
    const claude = this.source === "claude-code";
    for (let i = first; i <= last; i++) {
      const start = starts[i]! - base;
      const stop = Math.min(buf.length, (i + 1 < lineCount ? starts[i + 1]! : size) - base);
      const end = stop - terminatorBytes(buf, start, stop);
      if (claude) {
        const skimmed = skimClaudeLine(buf, start, end);
        if (skimmed === BLANK) continue;
        if (skimmed !== null) {
          let facts = classifyRecord(skimmed.record, this.source, null, skimmed.timestampMs);
          // An API error's text was cut: classify the whole record (rare).
          if (facts.apiError !== null && facts.apiError.includes(CUT_MARK)) facts = this.parsed(buf.toString("utf8", start, end))!;
          this.out.push(i + 1, facts, false);
          continue;
        }
      }
      const text = buf.toString("utf8", start, end);
      if (text.trim() === "") continue;
      const facts = this.parsed(text);
      this.out.push(i + 1, facts ?? MALFORMED_FACTS, facts === null);
    }
  }

  /** The facts mapped so far; the mapper starts afresh. */
  take(): MappedLines {
    return this.out.take();
  }

  private parsed(text: string): RecordFacts | null {
    const record = parseJsonObject(text);
    if (record === null) return null;
    let legacy: CodexState["legacy"] = null;
    if (this.source === "codex") {
      if (this.codex.firstObject && isLegacyHeader(record)) this.codex.legacy = { headerTimestamp: record.timestamp };
      this.codex.firstObject = false;
      legacy = this.codex.legacy;
    }
    return classifyRecord(record, this.source, legacy);
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

class Builder {
  count = 0;
  line = new Uint32Array(4096);
  ts = new Float64Array(4096);
  typeId = new Uint16Array(4096);
  actor: string[] = [];
  types: string[] = [];
  private typeIds = new Map<string, number>();
  extra: MappedLines["extra"] = [];

  push(line: number, facts: RecordFacts, malformed: boolean): void {
    if (this.count === this.line.length) this.grow();
    let id = this.typeIds.get(facts.eventType);
    if (id === undefined) {
      id = this.types.length;
      this.typeIds.set(facts.eventType, id);
      this.types.push(facts.eventType);
    }
    const i = this.count++;
    this.line[i] = line;
    this.ts[i] = facts.timestampMs ?? NaN;
    this.typeId[i] = id;
    this.actor.push(facts.actor);
    if (malformed || hasExtra(facts)) this.extra.push({ slot: i, facts, malformed });
  }

  take(): MappedLines {
    const n = this.count;
    const out: MappedLines = { count: n, line: this.line.slice(0, n), ts: this.ts.slice(0, n), typeId: this.typeId.slice(0, n), actor: this.actor, types: this.types, extra: this.extra };
    this.count = 0;
    this.actor = [];
    this.types = [];
    this.typeIds = new Map();
    this.extra = [];
    return out;
  }

  private grow(): void {
    const n = this.line.length * 2;
    const line = new Uint32Array(n);
    line.set(this.line);
    this.line = line;
    const ts = new Float64Array(n);
    ts.set(this.ts);
    this.ts = ts;
    const typeId = new Uint16Array(n);
    typeId.set(this.typeId);
    this.typeId = typeId;
  }
}
