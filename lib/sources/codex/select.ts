import type { ReportWindow } from "@/lib/sources/common/window";
import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import type { CodexForkHistory } from "@/lib/sources/codex/fork";
import { inheritedTurnStarts } from "@/lib/sources/codex/fork";
import { type CodexSpanUsage, CodexUsageLog } from "@/lib/sources/codex/token-usage";

/** A Codex rollout that passed the per-file selection rules, before project identity. */
export type CodexSelected = {
  sourceSessionId: string;
  projectRoot: string | null;
  lineCount: number;
  turns: { turn_start_line: number; turn_end_line: number }[];
  fork: CodexForkHistory | null;
  /** Display usage of each turn, by start line, from the same pass (issue 13: primes the session list and viewer). */
  turnUsage: CodexSpanUsage[];
};

/**
 * Applies the per-file Codex selection rules of contract §1.8 to one rollout: child (subagent)
 * sessions and report-generation sessions are excluded with their reason, a file without an
 * in-window trigger is skipped, anything else is selected with its turns and fork history.
 * @returns `{ selected }` or `{ skip: reason }`.
 * @throws AppError not_found / io_error when the file cannot be read.
 */
export async function selectCodexSession(filePath: string, window: ReportWindow): Promise<{ selected: CodexSelected } | { skip: string }> {
  const usageLog = new CodexUsageLog();
  const analysis = await analyzeCodexTranscript(filePath, window, usageLog);
  const excluded = analysis.subagentReason ?? analysis.reportReason;
  if (excluded !== null) return { skip: excluded };
  if (analysis.turns.length === 0) {
    return { skip: window ? "no human trigger inside the report window" : "no human trigger (no user turn to index)" };
  }
  const turns = analysis.turns.map((t) => ({ turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line }));
  return {
    selected: {
      sourceSessionId: analysis.sourceSessionId,
      projectRoot: analysis.projectRoot,
      lineCount: analysis.lineCount,
      turns,
      fork: analysis.fork.history,
      turnUsage: usageLog.usageOf(turns),
    },
  };
}

/** The shape {@link applyForkInheritance} needs from a selected session. */
export type ForkableSession = {
  source: string;
  sourceSessionId: string;
  sourcePath: string;
  turns: { turn_start_line: number; turn_end_line: number }[];
  fork?: CodexForkHistory | null;
};

/**
 * Codex fork inheritance over the deduplicated selection (contract §1.8 step 5): for each
 * Codex session, the leading turns proven inherited from its selected ancestors are dropped
 * (refs are renumbered later from T0001); a session left with no turn is removed and reported
 * in `skipped`. Other sources pass through unchanged. Returns the kept sessions in input order.
 */
export function applyForkInheritance<T extends ForkableSession>(sessions: readonly T[], skipped: { path: string; reason: string }[]): T[] {
  const histories = new Map<string, CodexForkHistory | null>();
  for (const s of sessions) if (s.source === "codex") histories.set(s.sourceSessionId, s.fork ?? null);
  const kept: T[] = [];
  for (const s of sessions) {
    if (s.source !== "codex") {
      kept.push(s);
      continue;
    }
    const inherited = inheritedTurnStarts(s.sourceSessionId, s.fork ?? null, histories);
    const turns = s.turns.filter((t) => !inherited.has(t.turn_start_line));
    if (turns.length > 0) kept.push(turns.length === s.turns.length ? s : { ...s, turns });
    else skipped.push({ path: s.sourcePath, reason: `Codex fork of ${s.fork?.parentId ?? "?"}: every turn is inherited from its selected ancestors` });
  }
  return kept;
}
