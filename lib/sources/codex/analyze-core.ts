/** The Codex analyzer: lines or records folded into triggers, turns and usage. */
import { isCodexMessageEcho, parseCodexMessage, type CodexMessage } from "@/lib/sources/codex/codex-echo";
import { buildCodexAnalysis, type CodexAnalysis, type CodexTrigger } from "@/lib/sources/codex/analysis";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { formatIsoSeconds } from "@/lib/sources/common/timestamps";
import type { ReportWindow } from "@/lib/sources/common/window";
import { CodexSessionMeta } from "@/lib/sources/codex/session-meta";
import { isLegacyHeader, normalizeLegacyRecord, type CodexFormat } from "@/lib/sources/codex/legacy";
import { OpenTurn } from "@/lib/sources/codex/open-turn";
import { codexMessageText, codexRecordKind, codexRecordTimestamp, isCodexScaffolding, isCodexTrigger, type CodexRecordFacts } from "@/lib/sources/codex/records";
import { CodexOutputTokens, type CodexUsageLog, CodexUsageTracker, type UsageMark } from "@/lib/sources/codex/token-usage";

/** One physical line: 1-based number and decoded text without its terminator (contract §1.6). */
export type CodexLine = { line: number; text: string };

/** Options of {@link CodexAnalyzer}. */
export type CodexAnalyzeOptions = {
  /** Filename stem: the `source_session_id` when no `session_meta` has a non-blank `id` (§1.4). */
  fileStem: string;
  /** Fed every line's parsed object, so per-turn display usage comes from this same pass (issue 13). */
  usageLog?: CodexUsageLog;
  /**
   * Compute fork fingerprints (§1.8 step 5; default true). Without them `fork.history` is null
   * and `fork.qualifies` still tells whether the file would have one: prepare fingerprints only
   * the files that take part in fork inheritance, in a second pass (issue 13).
   */
  fingerprints?: boolean;
};

/**
 * The streaming core of Codex analysis: feed every physical line in order with {@link push},
 * then {@link finish}. Pure (no I/O); memory is one parsed line plus the scaffolding held back
 * at the end of the open turn. Implements contract §1.7 (triggers, echo merge, turn extent with
 * pre-trigger scaffolding), §1.3/§1.4 (project root, source session id), §1.8 steps 1, 2, 5, 6
 * (exclusion flags, fork fingerprints, output tokens) for both line formats.
 */
export class CodexAnalyzer {
  private lineCount = 0;
  private format: CodexFormat | null = null;
  private legacyHeaderTimestamp: unknown = undefined;
  private readonly meta = new CodexSessionMeta();
  private readonly triggers: CodexTrigger[] = [];
  private open: OpenTurn | null = null;
  private openMark: UsageMark | null = null;
  private previous: { line: number; message: CodexMessage | null } | null = null;
  private readonly tokens = new CodexOutputTokens();
  private readonly usage = new CodexUsageTracker();
  private readonly counts = { malformed: 0, untimestampedRecords: 0, untimestampedTriggers: 0, nonMonotonic: 0 };
  private minTs: number | null = null;
  private maxTs: number | null = null;
  private previousTs: number | null = null;
  private firstUserMessage: string | null = null;
  private readonly recordTypes: Record<string, number> = {};

  /**
   * @param window report window for turn inclusion (`startMs ≤ trigger ts < endMs`), epoch ms; null = all time.
   * @param options the file's stem, for the session id fallback.
   */
  constructor(
    private readonly window: ReportWindow,
    private readonly options: CodexAnalyzeOptions,
  ) {}

  /** True once a `session_meta` excludes the session for certain (subagent, prompt_diary originator): callers may stop reading. */
  get excluded(): boolean {
    return this.meta.subagentReason !== null || this.meta.reportReason !== null;
  }

  /** Feeds the next physical line (numbers must increase by one from 1). */
  push(line: number, text: string): void {
    this.pushRecord(line, parseJsonObject(text));
  }

  /**
   * True while a line may be fed as its skimmed envelope ({@link pushRecord} with a record that
   * lib/sources/codex/skim-plan's `envelopeSuffices` accepts): the format is known to be the
   * envelope one and no fork fingerprint is computed (it hashes the whole record).
   */
  get skimmable(): boolean {
    return this.format === "envelope" && this.options.fingerprints === false;
  }

  /**
   * Feeds the next physical line already parsed: its JSON object, or null when it is not one
   * (malformed, contract §1.6). While {@link skimmable}, a record holding only the fields the
   * analysis reads of its kind may stand for the whole one, its top-level `timestamp` read from
   * the bytes and given as `timestampMs` (epoch ms, null when it is not an aware timestamp, as
   * `codexRecordTimestamp` would read it); `undefined` reads it from the record. `facts`, when
   * given, are `codexRecordFacts` of `raw` (an envelope-format record, as classified), computed
   * once for a record many lines share.
   */
  pushRecord(line: number, raw: JsonObject | null, timestampMs?: number | null, facts?: CodexRecordFacts): void {
    this.lineCount = line;
    this.options.usageLog?.observe(line, raw);
    if (raw === null) {
      this.counts.malformed += 1;
      this.count("malformed");
      this.open?.stopHashing();
      this.feed(line, null, null, false);
      return;
    }
    const record = this.normalize(raw);
    this.count(facts !== undefined ? facts.kind : codexRecordKind(record));
    this.meta.observe(record, this.format === "legacy");
    if (!this.hashable()) this.open?.stopHashing();
    const ts = timestampMs !== undefined ? timestampMs : codexRecordTimestamp(record);
    const trigger = facts !== undefined ? facts.trigger : isCodexTrigger(record);
    if (ts === null) {
      this.counts.untimestampedRecords += 1;
      if (trigger) {
        this.counts.untimestampedTriggers += 1;
        this.open?.stopHashing();
      }
    } else {
      this.observeTimestamp(ts);
      if (trigger && this.startsTurn(line, record)) {
        this.startTurn(line, ts, raw, record);
        return;
      }
    }
    this.feed(line, raw, record, facts !== undefined ? facts.scaffolding : isCodexScaffolding(record));
  }

  /** Ends the pass and returns the analysis (see {@link CodexAnalysis}). */
  finish(): CodexAnalysis {
    if (this.open !== null) {
      this.open.flush();
      this.closeTurn(this.lineCount, false);
    }
    return buildCodexAnalysis({
      format: this.format ?? "envelope",
      lineCount: this.lineCount,
      triggers: this.triggers,
      window: this.window,
      meta: this.meta,
      fileStem: this.options.fileStem,
      counts: this.counts,
      hashable: this.hashable(),
      fingerprinted: this.options.fingerprints !== false,
      firstEventAt: this.minTs === null ? null : formatIsoSeconds(this.minTs),
      lastEventAt: this.maxTs === null ? null : formatIsoSeconds(this.maxTs),
      firstUserMessage: this.firstUserMessage,
      recordTypes: this.recordTypes,
    });
  }

  private normalize(raw: JsonObject): JsonObject {
    if (this.format === null) {
      this.format = isLegacyHeader(raw) ? "legacy" : "envelope";
      if (this.format === "legacy") {
        this.legacyHeaderTimestamp = raw.timestamp;
        return normalizeLegacyRecord(raw, raw.timestamp, true);
      }
    }
    return this.format === "legacy" ? normalizeLegacyRecord(raw, this.legacyHeaderTimestamp, false) : raw;
  }

  /** A timestamped trigger starts a turn unless it echoes the trigger on the line before (§1.7). */
  private startsTurn(line: number, record: JsonObject): boolean {
    const message = parseCodexMessage(record);
    const previous = this.previous;
    const echo = previous !== null && previous.line === line - 1 && previous.message !== null && message !== null && isCodexMessageEcho(previous.message, message);
    if (echo) return false;
    this.previous = { line, message };
    return true;
  }

  private startTurn(line: number, ts: number, raw: JsonObject, record: JsonObject): void {
    if (this.open !== null) this.closeTurn(this.open.endLine, true);
    this.openMark = this.usage.mark();
    this.usage.observe(record);
    this.tokens.startTurn();
    this.open = new OpenTurn(line, ts, this.tokens, this.options.fingerprints !== false && this.hashable());
    this.open.add(line, raw, record, false);
    if (this.firstUserMessage === null) this.firstUserMessage = firstMessage(codexMessageText(record));
  }

  private closeTurn(endLine: number, bounded: boolean): void {
    const open = this.open!;
    this.triggers.push({
      line: open.line,
      timestampMs: open.timestampMs,
      endLine,
      outputTokens: this.tokens.finishTurn(bounded),
      usage: this.usage.between(this.openMark!, this.usage.mark()),
      fingerprint: open.fingerprint(),
    });
    this.open = null;
  }

  private feed(line: number, raw: JsonObject | null, record: JsonObject | null, scaffolding: boolean): void {
    this.usage.observe(record);
    if (this.open !== null) this.open.add(line, raw, record, scaffolding);
    else this.tokens.observe(record); // lines before the first trigger set the baseline
  }

  private hashable(): boolean {
    return this.format !== "legacy" && this.counts.malformed === 0 && this.counts.untimestampedTriggers === 0 && this.meta.forkCandidate();
  }

  private observeTimestamp(ts: number): void {
    if (this.previousTs !== null && ts < this.previousTs) this.counts.nonMonotonic += 1;
    this.previousTs = ts;
    if (this.minTs === null || ts < this.minTs) this.minTs = ts;
    if (this.maxTs === null || ts > this.maxTs) this.maxTs = ts;
  }

  private count(key: string): void {
    this.recordTypes[key] = (this.recordTypes[key] ?? 0) + 1;
  }
}

/**
 * Analyses Codex lines held in memory (tests, small inputs): {@link CodexAnalyzer} over `lines`.
 * @param lines physical lines in order, numbered from 1.
 * @param window report window (`startMs ≤ ts < endMs`), or null for all time.
 * @param options the filename stem for the session id fallback (default `"session"`).
 */
export function analyzeCodexLines(lines: Iterable<CodexLine>, window: ReportWindow, options: CodexAnalyzeOptions = { fileStem: "session" }): CodexAnalysis {
  const analyzer = new CodexAnalyzer(window, options);
  for (const { line, text } of lines) analyzer.push(line, text);
  return analyzer.finish();
}

const FIRST_MESSAGE_MAX = 500;

function firstMessage(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const chars = Array.from(trimmed);
  return chars.length <= FIRST_MESSAGE_MAX ? trimmed : chars.slice(0, FIRST_MESSAGE_MAX).join("").trimEnd();
}
