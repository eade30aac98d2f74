/** Codex rollouts selected (contract §1.8) and fork history inherited. */
import type { ReportWindow } from "@/lib/sources/common/window";
import { analyzeCodexTranscript, type CodexReadOptions } from "@/lib/sources/codex/analyze";
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
  /**
   * Set when the file qualifies for fork inheritance (§1.8 step 5), with its parent id. Without
   * fingerprints (`selectCodexSession(…, { fingerprints: false })`) `fork` is null and this says
   * whether {@link codexForkHistory} must be asked for it.
   */
  forkCandidate: { parentId: string | null } | null;
  /** Display usage of each turn, by start line, from the same pass (issue 13: primes the session list and viewer). */
  turnUsage: CodexSpanUsage[];
};

/**
 * Applies the per-file Codex selection rules of contract §1.8 to one rollout: child (subagent)
 * sessions and report-generation sessions are excluded with their reason, a file without an
 * in-window trigger is skipped, anything else is selected with its turns and fork history.
 * @param options `fingerprints: false` leaves `fork` null (see {@link CodexSelected.forkCandidate});
 *   `onIndex` receives the line index built in the same pass, `onRecord` the lines (see `analyzeCodexTranscript`).
 * @returns `{ selected }` or `{ skip: reason }`.
 * @throws AppError not_found / io_error when the file cannot be read.
 */
export async function selectCodexSession(filePath: string, window: ReportWindow, options: Pick<CodexReadOptions, "fingerprints" | "onIndex" | "onRecord"> = {}): Promise<{ selected: CodexSelected } | { skip: string }> {
  const usageLog = new CodexUsageLog();
  const analysis = await analyzeCodexTranscript(filePath, window, usageLog, options);
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
      forkCandidate: analysis.fork.qualifies ? { parentId: analysis.fork.forkedFromId } : null,
      turnUsage: usageLog.usageOf(turns),
    },
  };
}

/**
 * The fork history (§1.8 step 5) of a Codex rollout: a second pass with fingerprints, for the
 * files {@link sessionsNeedingForkHistory} names. Null when the file does not qualify (e.g. it
 * changed since the first pass).
 * @throws AppError not_found / io_error when the file cannot be read.
 */
export async function codexForkHistory(filePath: string): Promise<CodexForkHistory | null> {
  return (await analyzeCodexTranscript(filePath, null)).fork.history;
}

/**
 * Which Codex sessions' fork histories {@link applyForkInheritance} reads (issue 13: fingerprints
 * are computed only for them): every qualifying fork (a parent id) and each selected ancestor
 * its `forked_from_id` chain reaches, walking as `inheritedTurnStarts` does (a missing,
 * non-qualifying or already visited ancestor ends the walk). Every other session's history is
 * never consulted, so leaving it null changes no result.
 * @param sessions the deduplicated selection (any source; only Codex counts).
 * @returns the `source_session_id`s to fingerprint.
 */
export function sessionsNeedingForkHistory(sessions: readonly { source: string; sourceSessionId: string; forkCandidate?: { parentId: string | null } | null }[]): Set<string> {
  const candidates = new Map<string, { parentId: string | null } | null>();
  for (const s of sessions) if (s.source === "codex") candidates.set(s.sourceSessionId, s.forkCandidate ?? null);
  const needed = new Set<string>();
  for (const [id, candidate] of candidates) {
    if (candidate === null || candidate.parentId === null) continue;
    needed.add(id);
    const visited = new Set([id]);
    for (let parentId: string | null = candidate.parentId; parentId !== null && !visited.has(parentId); ) {
      const parent = candidates.get(parentId);
      if (parent === undefined || parent === null) break;
      visited.add(parentId);
      needed.add(parentId);
      parentId = parent.parentId;
    }
  }
  return needed;
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
