/** Claude Code transcript analysis for prepare: triggers, turns and facts in one pass on every core. */
import fs from "node:fs/promises";

import { AppError } from "@/lib/errors";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { rangeCount, startWorker } from "@/lib/jsonl/workers";
import { mapLineRanges } from "@/lib/jsonl/range-lines";
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { claudeLineFact, claudeRangeFacts, factColumnsReader, newStreamFacts, type ClaudeLineFact, type ClaudeStreamFacts } from "@/lib/sources/claude-code/line-facts";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
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
  /** Whether every line's record was given to `options.onRecord` (the file was read on this thread). */
  recordsGiven: boolean;
} & TranscriptDiagnostics;

/**
 * Takes one JSON-object line's record as the analysis built it (see line-facts' `LineRecordSink`)
 * with its number and bytes `bytes[start, end)` (terminator excluded): valid only during the call.
 */
export type AnalysisRecordSink = (line: number, record: JsonObject, timestampMs: number | null, bytes: Buffer, start: number, end: number) => void;

/**
 * Reads a Claude Code transcript once and derives triggers, turns and the audit counters of
 * contract §1.7–§1.9. Memory: two 16 MiB chunks or the longest line plus 8 bytes a line of line
 * index; a file read on several cores (see `readFacts`) also holds one small fact per line.
 * @param filePath transcript path.
 * @param window report window for turn inclusion (`startMs ≤ ts < endMs`); null = all time.
 *   Out-of-window triggers still bound the previous turn.
 * @param options `onIndex` receives the file's line index, built in the same pass (prepare
 *   persists it for the byte copy instead of reading the copy again, issue 13). `onRecord` is
 *   given every JSON-object line's record in file order when the file is read on this thread
 *   (below `PARALLEL_MIN_BYTES`; `recordsGiven` says so): prepare counts the session's usage from
 *   them instead of reading the copy again (issue 25).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function analyzeClaudeTranscript(filePath: string, window: ReportWindow, options: { onIndex?: (index: LineIndex) => void; onRecord?: AnalysisRecordSink } = {}): Promise<ClaudeAnalysis> {
  const result: ClaudeAnalysis = {
    lineCount: 0,
    triggers: [],
    untimestampedTriggerCount: 0,
    turns: [],
    isSidechain: false,
    projectRoot: null,
    sessionIdField: null,
    listedOutputTokens: [],
    recordsGiven: false,
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

  /** Folds the next line's fact, in file order (the sequential half of the analysis). */
  const fold = (line: number, fact: ClaudeLineFact): void => {
    result.lineCount = line;
    if (fact.malformed) {
      result.malformedLineCount += 1;
      count(result.recordTypes, "malformed");
      usage.apply(fact.usage);
      if (fact.listed !== null) listed.apply(fact.listed);
      return;
    }
    count(result.recordTypes, fact.type ?? "(none)");
    if (fact.isSidechain) result.isSidechain = true;
    const ts = fact.timestampMs;
    if (ts === null) {
      result.untimestampedRecordCount += 1;
      if (fact.isTrigger) result.untimestampedTriggerCount += 1;
      usage.apply(fact.usage);
      if (fact.listed !== null) listed.apply(fact.listed);
      return;
    }
    if (previousTs !== null && ts < previousTs) result.nonMonotonicTimestampCount += 1;
    previousTs = ts;
    if (minTs === null || ts < minTs) minTs = ts;
    if (maxTs === null || ts > maxTs) maxTs = ts;
    if (fact.isTrigger) {
      closeTurn(result.triggers, usage);
      if (result.triggers.length > 0) result.listedOutputTokens.push(listed.total());
      usage.reset();
      listed.reset();
      result.triggers.push({ line, timestampMs: ts, outputTokens: null });
      result.firstUserMessage ??= fact.firstMessage;
    }
    usage.apply(fact.usage);
    if (fact.listed !== null) listed.apply(fact.listed);
  };

  try {
    const { streams, recordsGiven } = await readFacts(filePath, fold, options.onIndex, options.onRecord);
    result.recordsGiven = recordsGiven;
    for (const stream of streams) {
      result.projectRoot ??= stream.cwd;
      result.sessionIdField ??= stream.sessionId;
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
 * Feeds `fold` the fact of every physical line in order and returns the stream facts of each
 * part read, in file order. A file below `PARALLEL_MIN_BYTES` is streamed once in this thread
 * (byte-level boundaries, contract §1.6, one pass that also builds the line index). A bigger one
 * is cut into ranges of a few MiB after a `\n` and mapped by this thread and worker threads from
 * one queue (lib/jsonl/range-lines, range-pool: the threads finish together, whatever starts late), each line
 * read once by the skim; each range's facts are folded here in file order as soon as the ranges
 * before it are, so the result is the same as one pass (issue 13: prepare at disk speed). Only
 * the pass on this thread gives `onRecord` the records (`recordsGiven`).
 */
async function readFacts(
  filePath: string,
  fold: (line: number, fact: ClaudeLineFact) => void,
  onIndex?: (index: LineIndex) => void,
  onRecord?: AnalysisRecordSink,
): Promise<{ streams: ClaudeStreamFacts[]; recordsGiven: boolean }> {
  const stat = await fs.stat(filePath);
  const threads = rangeCount(stat.size);
  if (threads <= 1) {
    const stream = newStreamFacts();
    if (onRecord === undefined) await forEachLineBytes(filePath, { onIndex }, (line, bytes, start, end, next) => fold(line, claudeLineFact(bytes, start, end, next, stream)));
    else {
      // The line being read, for the record sink (no closure per line).
      const at: { line: number; bytes: Buffer; start: number; end: number } = { line: 0, bytes: EMPTY, start: 0, end: 0 };
      const sink = (record: JsonObject, timestampMs: number | null) => onRecord(at.line, record, timestampMs, at.bytes, at.start, at.end);
      await forEachLineBytes(filePath, { onIndex }, (line, bytes, start, end, next) => {
        at.line = line;
        at.bytes = bytes;
        at.start = start;
        at.end = end;
        fold(line, claudeLineFact(bytes, start, end, next, stream, sink));
      });
    }
    return { streams: [stream], recordsGiven: onRecord !== undefined };
  }
  const streams: ClaudeStreamFacts[] = [];
  let line = 0;
  const index = await mapLineRanges(() => startWorker(import.meta.url, "./analyze-worker.ts"), claudeRangeFacts, { path: filePath, size: stat.size, mtimeMs: stat.mtimeMs }, threads, (part) => {
    const next = factColumnsReader(part.columns);
    for (let i = 0; i < part.columns.count; i++) fold(++line, next());
    streams.push(part.stream);
  });
  onIndex?.(index);
  return { streams, recordsGiven: false };
}

const EMPTY = Buffer.alloc(0);

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
