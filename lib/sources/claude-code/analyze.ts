import { AppError } from "@/lib/errors";
import { streamPhysicalLines } from "@/lib/jsonl/stream-lines";
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { formatIsoSeconds } from "@/lib/sources/common/timestamps";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { IndexTurn } from "@/lib/workspace/schema";
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
} & TranscriptDiagnostics;

const FIRST_MESSAGE_MAX = 500;

/**
 * Streams a Claude Code transcript once (memory: one chunk plus the longest line) and derives
 * triggers, turns and the audit counters of contract §1.7–§1.9.
 * @param filePath transcript path.
 * @param window report window for turn inclusion (`startMs ≤ ts < endMs`); null = all time.
 *   Out-of-window triggers still bound the previous turn.
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function analyzeClaudeTranscript(filePath: string, window: ReportWindow): Promise<ClaudeAnalysis> {
  const result: ClaudeAnalysis = {
    lineCount: 0,
    triggers: [],
    untimestampedTriggerCount: 0,
    turns: [],
    isSidechain: false,
    projectRoot: null,
    sessionIdField: null,
    malformedLineCount: 0,
    untimestampedRecordCount: 0,
    nonMonotonicTimestampCount: 0,
    firstEventAt: null,
    lastEventAt: null,
    firstUserMessage: null,
    recordTypes: {},
  };
  const usage = new ClaudeTurnUsage();
  let minTs: number | null = null;
  let maxTs: number | null = null;
  let previousTs: number | null = null;

  try {
    for await (const { line, text } of streamPhysicalLines(filePath)) {
      result.lineCount = line;
      const record = parseJsonObject(text);
      if (record === null) {
        result.malformedLineCount += 1;
        count(result.recordTypes, "malformed");
        usage.observe(null);
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
        continue;
      }
      if (previousTs !== null && ts < previousTs) result.nonMonotonicTimestampCount += 1;
      previousTs = ts;
      if (minTs === null || ts < minTs) minTs = ts;
      if (maxTs === null || ts > maxTs) maxTs = ts;

      if (cls.isTrigger) {
        closeTurn(result.triggers, usage);
        usage.reset();
        result.triggers.push({ line, timestampMs: ts, outputTokens: null });
        if (result.firstUserMessage === null) result.firstUserMessage = firstMessageText(record);
      }
      usage.observe(record);
    }
  } catch (error) {
    throw toReadError(filePath, error);
  }
  closeTurn(result.triggers, usage);

  result.turns = buildTurns(result.triggers, result.lineCount, window);
  result.firstEventAt = minTs === null ? null : formatIsoSeconds(minTs);
  result.lastEventAt = maxTs === null ? null : formatIsoSeconds(maxTs);
  return result;
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

/** Maps fs errors to AppError; anything else is a bug and propagates unchanged. */
function toReadError(filePath: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return error;
  return code === "ENOENT"
    ? new AppError("not_found", `Transcript not found: ${filePath}`, { path: filePath }, { cause: error })
    : new AppError("io_error", `Cannot read transcript ${filePath}: ${String(error)}`, { path: filePath }, { cause: error });
}
