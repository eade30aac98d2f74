import { AppError } from "@/lib/errors";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { formatIsoSeconds } from "@/lib/sources/common/timestamps";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { IndexTurn } from "@/lib/sources/common/schema";
import type { TranscriptDiagnostics } from "@/lib/sources/common/diagnostics";

/** One timestamped human trigger (a turn start, in or out of the window). */
export type ClaudeTrigger = {
  /** 1-based physical line (contract §1.6). */
  line: number;
  /** Trigger timestamp, epoch ms. */
  timestampMs: number;
  /**
   * Output tokens of the turn this trigger starts (trigger line to the line before the next
   * trigger), or null when unknown. Raw per-turn value: prepare additionally treats every turn
   * as unknown when the file has malformed lines or untimestamped triggers (§1.8 step 6).
   */
  outputTokens: number | null;
};

/** Everything one streaming pass over a Claude Code transcript yields. */
export type ClaudeAnalysis = {
  /** Number of physical lines (contract §1.6); malformed and blank lines count. */
  lineCount: number;
  /** Every human trigger that has a valid aware timestamp, in line order. */
  triggers: ClaudeTrigger[];
  /** Human triggers without a valid aware timestamp: never turn starts, never bounds. */
  untimestampedTriggerCount: number;
  /** In-window turns numbered T0001… (contract §1.7 Claude extent: next trigger − 1, last = lineCount). */
  turns: IndexTurn[];
  /** True when any record has `isSidechain: true` (such a file is never a session, §1.8). */
  isSidechain: boolean;
  /** First non-blank top-level `cwd` string in file order, unmodified; null if none (§1.3). */
  projectRoot: string | null;
  /** First non-blank top-level `sessionId` string (informational; source_session_id is the file stem). */
  sessionIdField: string | null;
  /**
   * Per entry of `triggers`: the turn's output tokens exactly as the session list counts them
   * (`getTurnUsage`: only lines holding the bytes `"assistant"` are observed, so a malformed
   * line without them does not void the turn), so prepare can store turn usage from this one
   * pass (issue 13).
   */
  listedOutputTokens: (number | null)[];
} & TranscriptDiagnostics;

const FIRST_MESSAGE_MAX = 500;

/**
 * Streams a Claude Code transcript (memory: one 16 MiB chunk or the longest line, plus 8 bytes a
 * line of line index) and derives
 * triggers, turns and the audit counters of contract §1.7–§1.9.
 * @param filePath transcript path.
 * @param window report window for turn inclusion (`startMs ≤ ts < endMs`); null = all time.
 *   Out-of-window triggers still bound the previous turn.
 * @param options `onIndex` receives the file's line index, built in the same pass (prepare
 *   persists it for the byte copy instead of reading the copy again, issue 13).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function analyzeClaudeTranscript(filePath: string, window: ReportWindow, options: { onIndex?: (index: LineIndex) => void } = {}): Promise<ClaudeAnalysis> {
  const result: ClaudeAnalysis = {
    lineCount: 0,
    triggers: [],
    untimestampedTriggerCount: 0,
    turns: [],
    isSidechain: false,
    projectRoot: null,
    sessionIdField: null,
    listedOutputTokens: [],
    malformedLineCount: 0,
    untimestampedRecordCount: 0,
    nonMonotonicTimestampCount: 0,
    firstEventAt: null,
    lastEventAt: null,
    firstUserMessage: null,
    recordTypes: {},
  };
  const usage = new ClaudeTurnUsage();
  const listed = new ClaudeTurnUsage();
  let minTs: number | null = null;
  let maxTs: number | null = null;
  let previousTs: number | null = null;

  try {
    for await (const { line, record, listedRecord } of claudeRecords(filePath, options.onIndex)) {
      result.lineCount = line;
      if (record === null) {
        result.malformedLineCount += 1;
        count(result.recordTypes, "malformed");
        usage.observe(null);
        if (listedRecord !== undefined) listed.observe(listedRecord);
        continue;
      }
      const cls = classifyClaudeRecord(record);
      count(result.recordTypes, cls.type ?? "(none)");
      if (cls.isSidechain) result.isSidechain = true;
      result.projectRoot ??= nonBlankString(record.cwd);
      result.sessionIdField ??= nonBlankString(record.sessionId);

      const ts = cls.timestampMs;
      if (ts === null) {
        result.untimestampedRecordCount += 1;
        if (cls.isTrigger) result.untimestampedTriggerCount += 1;
        usage.observe(record);
        if (listedRecord !== undefined) listed.observe(listedRecord);
        continue;
      }
      if (previousTs !== null && ts < previousTs) result.nonMonotonicTimestampCount += 1;
      previousTs = ts;
      if (minTs === null || ts < minTs) minTs = ts;
      if (maxTs === null || ts > maxTs) maxTs = ts;

      if (cls.isTrigger) {
        closeTurn(result.triggers, usage);
        if (result.triggers.length > 0) result.listedOutputTokens.push(listed.total());
        usage.reset();
        listed.reset();
        result.triggers.push({ line, timestampMs: ts, outputTokens: null });
        if (result.firstUserMessage === null) result.firstUserMessage = firstMessageText(record);
      }
      usage.observe(record);
      if (listedRecord !== undefined) listed.observe(listedRecord);
    }
  } catch (error) {
    throw toReadError(filePath, error);
  }
  closeTurn(result.triggers, usage);
  if (result.triggers.length > 0) result.listedOutputTokens.push(listed.total());

  result.turns = buildTurns(result.triggers, result.lineCount, window);
  result.firstEventAt = minTs === null ? null : formatIsoSeconds(minTs);
  result.lastEventAt = maxTs === null ? null : formatIsoSeconds(maxTs);
  return result;
}

/**
 * Every physical line of a Claude Code transcript parsed (null when malformed, as
 * `parseJsonObject` of the decoded line). Lines come from the byte-level line scanner (contract
 * §1.6 boundaries; one pass that also builds the line index) and 16 MiB reads, each decoded alone with Buffer#toString (WHATWG
 * replacement, BOM kept, like the TextDecoder stream it replaces). NOTE (issue 13 profile):
 * the stream decoder plus the boundary regex cost more than JSON.parse itself; a byte-level
 * skim that decoded only the index's fields measured slower than this JSON.parse.
 */
async function* claudeRecords(filePath: string, onIndex?: (index: LineIndex) => void): AsyncGenerator<{ line: number; record: JsonObject | null; listedRecord: JsonObject | null | undefined }> {
  for await (const { line, bytes, start, end, next } of streamLineBytes(filePath, { onIndex })) {
    const record = parseJsonObject(bytes.toString("utf8", start, end));
    yield { line, record, listedRecord: listedRecordOf(bytes, start, end, next, record) };
  }
}

const ASSISTANT = Buffer.from('"assistant"');

/**
 * What `getTurnUsage` observes for a line: nothing (undefined) unless the line's bytes, terminator
 * included, hold `"assistant"`; then the parse of the decoded line with trailing whitespace
 * trimmed. That is `record` itself whenever the line ends in `}` before a `\n`, `\r\n` or EOF
 * (nothing to trim); any other ending is parsed the slow, exact way.
 */
function listedRecordOf(bytes: Buffer, start: number, end: number, next: number, record: JsonObject | null): JsonObject | null | undefined {
  if (bytes.subarray(start, next).indexOf(ASSISTANT) === -1) return undefined;
  const terminator = next - end;
  const plainEnd = terminator === 0 || (terminator === 1 && bytes[end] === 0x0a) || (terminator === 2 && bytes[end] === 0x0d);
  if (plainEnd && end > start && bytes[end - 1] === 0x7d) return record;
  return parseJsonObject(bytes.toString("utf8", start, next).trimEnd());
}

/**
 * Claude turn extent (contract §1.7): a turn runs from its trigger to the line before the next
 * timestamped trigger (all triggers count, in window or not), the last one to `lineCount`.
 * Only turns whose trigger is in the window are kept, renumbered T0001….
 */
export function buildTurns(
  triggers: readonly { line: number; timestampMs: number }[],
  lineCount: number,
  window: ReportWindow,
): IndexTurn[] {
  const turns: IndexTurn[] = [];
  triggers.forEach((trigger, index) => {
    if (window !== null && !(window.startMs <= trigger.timestampMs && trigger.timestampMs < window.endMs)) return;
    const next = triggers[index + 1];
    turns.push({
      turn_ref: `T${String(turns.length + 1).padStart(4, "0")}`,
      turn_start_line: trigger.line,
      turn_end_line: next === undefined ? lineCount : next.line - 1,
    });
  });
  return turns;
}

function closeTurn(triggers: ClaudeTrigger[], usage: ClaudeTurnUsage): void {
  const open = triggers.at(-1);
  if (open !== undefined) open.outputTokens = usage.total();
}

function firstMessageText(record: Record<string, unknown>): string | null {
  const text = claudeUserText(record).trim();
  if (text === "") return null;
  const chars = Array.from(text); // code points, so a surrogate pair is never split
  return chars.length <= FIRST_MESSAGE_MAX ? text : chars.slice(0, FIRST_MESSAGE_MAX).join("").trimEnd();
}

function nonBlankString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** Maps fs errors (raw or as the line index's AppError) to AppError; anything else is a bug and propagates unchanged. */
function toReadError(filePath: string, error: unknown): unknown {
  if (error instanceof AppError && (error.code === "not_found" || error.code === "io_error")) {
    const cause = error.cause ?? error;
    return error.code === "not_found"
      ? new AppError("not_found", `Transcript not found: ${filePath}`, { path: filePath }, { cause })
      : new AppError("io_error", `Cannot read transcript ${filePath}: ${String(cause)}`, { path: filePath }, { cause });
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return error;
  return code === "ENOENT"
    ? new AppError("not_found", `Transcript not found: ${filePath}`, { path: filePath }, { cause: error })
    : new AppError("io_error", `Cannot read transcript ${filePath}: ${String(error)}`, { path: filePath }, { cause: error });
}
