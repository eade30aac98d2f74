import { streamPhysicalLines } from "@/lib/jsonl/stream-lines";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { toTranscriptReadError } from "@/lib/sources/codex/read-error";
import { CodexUsageTracker, UNKNOWN_USAGE, type UsageMark } from "@/lib/sources/codex/token-usage";
import type { IndexTurn } from "@/lib/sources/common/schema";

/** Token usage of one indexed turn, for the session list and viewer. Counts are tokens; null = unknown. */
export type CodexTurnUsageRow = {
  turn_ref: string;
  /** Input tokens sent during the turn (cached input included). */
  input_tokens: number | null;
  /** Output tokens generated during the turn (reasoning included). */
  output_tokens: number | null;
  /** `input_tokens + output_tokens` as Codex reports it. */
  total_tokens: number | null;
};

/**
 * Per-turn token usage of an indexed Codex session file (any workspace: Casefile's or
 * prompt-diary's, whose index stores no tokens). Streams the file once and follows the
 * cumulative `event_msg` `token_count` `info.total_token_usage` counters (contract §1.8 step 6;
 * source-formats §1.7): a turn's usage is the counters after its last line minus the counters
 * before its first line, so duplicate snapshots and the parallel `last_token_usage` channel are
 * never double counted, and snapshots outside any indexed turn (off-window turns, dropped fork
 * turns) still move the baseline. A turn with no snapshot, an unknown baseline (no snapshot
 * before it and the session does not start fresh) or a decreasing counter is all null. Turn
 * spans past the end of the file end at the last line. Rows come back in the order of `turns`.
 * @param filePath the session file (physical lines as in contract §1.6).
 * @param turns the index row's turns.
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function codexTurnUsage(filePath: string, turns: readonly IndexTurn[]): Promise<CodexTurnUsageRow[]> {
  const tracker = new CodexUsageTracker();
  const starts = groupBy(turns, (t) => t.turn_start_line);
  const ends = groupBy(turns, (t) => t.turn_end_line);
  const startMarks = new Map<number, UsageMark>();
  const endMarks = new Map<number, UsageMark>();
  const lastLine = Math.max(0, ...turns.map((t) => t.turn_end_line));
  try {
    for await (const { line, text } of streamPhysicalLines(filePath)) {
      if (line > lastLine) break;
      for (const i of starts.get(line) ?? []) startMarks.set(i, tracker.mark());
      tracker.observe(parseJsonObject(text));
      for (const i of ends.get(line) ?? []) endMarks.set(i, tracker.mark());
    }
  } catch (error) {
    throw toTranscriptReadError(filePath, error);
  }
  return turns.map((turn, i) => {
    const start = startMarks.get(i);
    const usage = start === undefined ? UNKNOWN_USAGE : tracker.between(start, endMarks.get(i) ?? tracker.mark());
    return { turn_ref: turn.turn_ref, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, total_tokens: usage.totalTokens };
  });
}

function groupBy(turns: readonly IndexTurn[], key: (turn: IndexTurn) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  turns.forEach((turn, i) => groups.set(key(turn), [...(groups.get(key(turn)) ?? []), i]));
  return groups;
}
