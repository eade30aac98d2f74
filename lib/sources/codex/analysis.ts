/** A Codex rollout's analysis built from its parts: triggers, turns, usage. */
import type { ReportWindow } from "@/lib/sources/common/window";
import type { CodexForkHistory } from "@/lib/sources/codex/fork";
import type { CodexFormat } from "@/lib/sources/codex/legacy";
import type { CodexSessionMeta, LegacySdkCandidate } from "@/lib/sources/codex/session-meta";
import type { CodexTokenUsage } from "@/lib/sources/codex/token-usage";
import type { IndexTurn } from "@/lib/sources/common/schema";
import type { TranscriptDiagnostics } from "@/lib/sources/common/diagnostics";

/** One timestamped human trigger after echo merging (a turn start, in or out of the window). */
export type CodexTrigger = {
  /** 1-based physical line of the trigger (contract §1.6). */
  line: number;
  /** Trigger timestamp, epoch ms. */
  timestampMs: number;
  /** Last line of the turn (contract §1.7: before the next trigger's scaffolding, or the last line). */
  endLine: number;
  /** Output tokens of the turn by contract §1.8 step 6 (raw: not yet nulled for malformed files), or null. */
  outputTokens: number | null;
  /** Display token usage of the turn (cumulative-counter differences), see `CodexUsageTracker`. */
  usage: CodexTokenUsage;
  /** Fork fingerprint (§1.8 step 5), or null when the file cannot be a proven fork. */
  fingerprint: string | null;
};

/** One in-window turn: its index fields plus token figures for display. */
export type CodexTurn = IndexTurn & {
  /**
   * Output tokens by contract §1.8 step 6, or null when unknown. Null for every turn when the
   * file has malformed lines or untimestamped triggers.
   */
  outputTokens: number | null;
  /** Display token usage (input/output/total, each null when unknown). */
  usage: CodexTokenUsage;
};

/** What one pass over a Codex rollout yields (mirrors `ClaudeAnalysis`). */
export type CodexAnalysis = {
  /** Line format, decided by the first JSON-object line (source-formats §1.2). */
  format: CodexFormat;
  /** Physical lines read (contract §1.6). Partial when reading stopped at an excluding `session_meta`. */
  lineCount: number;
  /** Every timestamped trigger after echo merging, in line order, with its turn extent. */
  triggers: CodexTrigger[];
  /** Human triggers without a valid timestamp: never turn starts, never bounds. */
  untimestampedTriggerCount: number;
  /** In-window turns numbered T0001… (`startMs ≤ trigger ts < endMs`; all when the window is null). */
  turns: CodexTurn[];
  /** Project root (contract §1.3), unmodified; null when none. */
  projectRoot: string | null;
  /** Last non-blank `session_meta.payload.id` (the legacy header `id` for legacy files), or null. */
  sessionMetaId: string | null;
  /** `source_session_id` (contract §1.4): {@link sessionMetaId}, else the filename stem. */
  sourceSessionId: string;
  /** Why the session is a child (subagent) session (§1.8 step 1), or null. */
  subagentReason: string | null;
  /** Why the session is a prompt-diary report session (§1.8 step 2), or null; the analyze wrapper adds the legacy SDK rule. */
  reportReason: string | null;
  /** `codex_python_sdk` session_metas awaiting the workspace-provenance check. */
  legacySdkCandidates: LegacySdkCandidate[];
  /**
   * Fork facts (§1.8 step 5). `qualifies`: the file can take part in fork inheritance (one
   * `session_meta` with an id, no malformed line, no untimestamped trigger, a well-typed parent,
   * envelope format). `history` is null unless it qualifies and fingerprints were computed.
   */
  fork: { forkedFromId: string | null; sessionMetaCount: number; ambiguousParent: boolean; qualifies: boolean; history: CodexForkHistory | null };
} & TranscriptDiagnostics;

/** Inputs of {@link buildCodexAnalysis}, gathered by `CodexAnalyzer`. */
export type CodexAnalysisParts = {
  format: CodexFormat;
  lineCount: number;
  triggers: CodexTrigger[];
  window: ReportWindow;
  meta: CodexSessionMeta;
  fileStem: string;
  counts: { malformed: number; untimestampedRecords: number; untimestampedTriggers: number; nonMonotonic: number };
  hashable: boolean;
  /** Whether fingerprints were computed (see `CodexAnalyzeOptions.fingerprints`). */
  fingerprinted: boolean;
  firstEventAt: string | null;
  lastEventAt: string | null;
  firstUserMessage: string | null;
  recordTypes: Record<string, number>;
};

/**
 * Assembles a {@link CodexAnalysis}: keeps in-window turns (renumbered T0001…), nulls every
 * turn's output tokens when the file has malformed lines or untimestamped triggers (§1.8 step
 * 6), and builds the fork history only when the file has exactly one `session_meta`, a session
 * id, no malformed line, no untimestamped trigger and a well-typed parent id (§1.8 step 5), and
 * fingerprints were computed.
 */
export function buildCodexAnalysis(parts: CodexAnalysisParts): CodexAnalysis {
  const { meta, counts, window } = parts;
  const ambiguousTokens = counts.malformed > 0 || counts.untimestampedTriggers > 0;
  const turns: CodexTurn[] = parts.triggers
    .filter((t) => window === null || (window.startMs <= t.timestampMs && t.timestampMs < window.endMs))
    .map((t, i) => ({
      turn_ref: `T${String(i + 1).padStart(4, "0")}`,
      turn_start_line: t.line,
      turn_end_line: t.endLine,
      outputTokens: ambiguousTokens ? null : t.outputTokens,
      usage: t.usage,
    }));
  // hashable() only ever turns false, so when it holds at the end every turn was fingerprinted.
  const qualifies = parts.hashable && meta.sessionMetaCount === 1 && meta.sessionMetaId !== null;
  const eligible = qualifies && parts.fingerprinted && parts.triggers.every((t) => t.fingerprint !== null);
  return {
    format: parts.format,
    lineCount: parts.lineCount,
    triggers: parts.triggers,
    untimestampedTriggerCount: counts.untimestampedTriggers,
    turns,
    projectRoot: meta.projectRoot(),
    sessionMetaId: meta.sessionMetaId,
    sourceSessionId: meta.sessionMetaId ?? parts.fileStem,
    subagentReason: meta.subagentReason,
    reportReason: meta.reportReason,
    legacySdkCandidates: meta.legacySdkCandidates,
    fork: {
      forkedFromId: meta.forkedFromId,
      sessionMetaCount: meta.sessionMetaCount,
      ambiguousParent: meta.ambiguousParent,
      qualifies,
      history: eligible ? { parentId: meta.forkedFromId, turns: parts.triggers.map((t) => ({ startLine: t.line, fingerprint: t.fingerprint! })) } : null,
    },
    malformedLineCount: counts.malformed,
    untimestampedRecordCount: counts.untimestampedRecords,
    nonMonotonicTimestampCount: counts.nonMonotonic,
    firstEventAt: parts.firstEventAt,
    lastEventAt: parts.lastEventAt,
    firstUserMessage: parts.firstUserMessage,
    recordTypes: parts.recordTypes,
  };
}
