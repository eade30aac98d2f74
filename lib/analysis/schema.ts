/** Types and input schemas of `analyze_session` and `read_chat_export` (seed 003). */
import * as z from "zod";

import { PHANTOM_MARKERS, type PhantomMarker } from "@/lib/analysis/markers";
import { wholeNumber } from "@/lib/tools/input-fields";
import type { RiskLevel } from "@/lib/workspace/schema";

/** Seed 003's reset threshold: a drop of more than 10,000 cached tokens. */
export const DEFAULT_RESET_THRESHOLD = 10_000;

export { PHANTOM_MARKERS, type PhantomMarker };

/** A figure a source does not record: `null` plus why, never a made-up 0. */
export type Unavailable = { value: null; reason: string };

/**
 * One context reset (seed 003 "Context Reset Correlation"): the record where the cached prompt
 * (`cache_read_input_tokens`, Codex `cached_input_tokens`) dropped by more than the threshold
 * from the previous non-zero value. Tokens are counts; `position_percent` is the reset's line
 * over the session's line count × 100 (one decimal).
 */
export type ContextReset = {
  session_line: number;
  from_tokens: number;
  to_tokens: number;
  position_percent: number;
  /** Cache creation tokens at the reset record; null where the source has none (Codex). */
  cache_creation_tokens: number | null;
  /** Total input at the reset: uncached input + cache creation + cache read. */
  total_input_tokens: number;
};

/** One point of the token progression: one per assistant record (Claude) or `token_count` event (Codex). */
export type TokenPoint = {
  line: number;
  cache_read: number;
  /** null where the source records no cache creation (Codex). */
  cache_creation: number | null;
  /** Uncached input tokens. */
  input: number;
  output: number;
};

/** One `Read` tool_use (seed 003 Q4 mapping table), in file order. */
export type FileRead = {
  sequence: number;
  line: number;
  tool_use_id: string;
  file_path: string | null;
  /** Reads issued in one assistant message (same `message.id`) share a batch number (1-based). */
  batch: number;
  /** Line of the matching tool_result; null when none was recorded. */
  result_line: number | null;
  /** true/false from the tool_result's `is_error`; null when no result was recorded. */
  success: boolean | null;
  /** true when `tool-results/<tool_use_id>.*` exists (era 2 persistence); false otherwise. */
  persisted: boolean;
  /** First assistant record after the result (the model's first look at it). */
  first_use_line: number | null;
  /** Last assistant record after the read that names the file (text or tool input); null if none. */
  last_use_line: number | null;
  /** First context reset after the result and at or before the last use (or first use); null if none. */
  reset_before_use_line: number | null;
};

/** A phantom-read marker found at the start of a tool_result's content (never in conversation text). */
export type MarkerHit = { line: number; tool_use_id: string; marker: PhantomMarker };

/** A persisted tool output whose tool_use was not a `Read`. */
export type PersistedNonRead = { tool_use_id: string; tool_name: string | null; file_name: string };

/** The chat export paired by Workscope ID (seed 003 Q2), as stored in the workspace. */
export type PairedExport = { file_name: string; size_bytes: number };

/** Everything `analyze_session` returns for one session (seed 003, issue 10). */
export type SessionAnalysis = {
  source: string;
  line_count: number;
  threshold: number;
  risk_level: RiskLevel;
  reset_count: number;
  resets: ContextReset[];
  token_points: TokenPoint[];
  /** Set when the token figures are partial for this source (e.g. Codex has no cache creation). */
  token_notes: string[];
  reads: FileRead[] | Unavailable;
  read_batches: number;
  persistence:
    | { persisted_reads: string[]; inline_reads: string[]; persisted_non_reads: PersistedNonRead[] }
    | Unavailable;
  markers: MarkerHit[];
  /** Lines where a marker string appears outside tool_result content (discussion, not a phantom read). */
  marker_mentions_in_conversation: number;
  has_subagents: boolean;
  has_tool_results: boolean;
  workscope_id: string | null;
  /** `pattern`: `Workscope ID: …` text; `date_output`: a tool result that is only the `date` output. */
  workscope_id_source: "pattern" | "date_output" | null;
  export: PairedExport | null;
  unparsable_lines: number;
};

/** `analyze_session`'s success result. */
export type AnalyzeSessionResult = { status: "ok"; project_key: string; session_ref: string } & SessionAnalysis;

/**
 * The token chart of one session as the Analysis tab draws it (issue 29): the thinned series
 * (lib/analysis/analysis-view `chartPoints`) as columns, one array per figure (the JSON of 2,000 point objects was
 * ~2.5× larger), and the marked resets (`chartResets`).
 */
export type TokenChartData = {
  line_count: number;
  /** Points in the whole series (the columns hold at most 2,000). */
  point_total: number;
  points: { line: number[]; cache_read: number[]; input: number[]; /** null where the source records no cache creation (Codex). */ cache_creation: number[] | null };
  /** Resets in the analysis (the markers are at most 400 of them). */
  reset_total: number;
  markers: Pick<ContextReset, "session_line" | "from_tokens" | "to_tokens">[];
};

/** What the Analysis tab's token chart is given: its series, or why they could not be read (shown in its place). */
export type TokenChartLoad = { ok: true; chart: TokenChartData } | { ok: false; message: string };

/**
 * An analysis as the Analysis tab's facts and tables show it (issue 29: the page carried a
 * gigabyte session's whole analysis, ~15 MB, through the server): every figure, each long list
 * cut to its first `rows` entries (all when `rows` is null) with its length beside it, and no
 * token points (the chart reads {@link TokenChartData}).
 */
export type AnalysisSummary = Omit<SessionAnalysis, "token_points" | "resets" | "reads" | "persistence" | "markers"> & {
  /** The first resets; `reset_count` is how many there are. */
  resets: ContextReset[];
  reads: { rows: FileRead[]; total: number; /** Reads with a reset before their use. */ reset_before_use: number } | Unavailable;
  persistence: { persisted_reads: number; inline_reads: number; persisted_non_reads: PersistedNonRead[]; persisted_non_reads_total: number } | Unavailable;
  marker_count: number;
};

/** An export line that shows a tool call, linked to the transcript line of that tool_use. */
export type ExportLink = { export_line: number; session_line: number; tool: string };

/** The chat export as the dashboard shows it beside the transcript. */
export type ChatExport = { file_name: string; lines: string[]; truncated: boolean; links: ExportLink[] };

/** `read_chat_export`'s success result (`export` null when no export is paired). */
export type ReadChatExportResult = { status: "ok"; project_key: string; session_ref: string; export: ChatExport | null };

/** Input of `analyze_session`. */
export const analyzeSessionInputSchema = z.object({
  project_key: z.string().min(1, "project_key must be a non-empty string"),
  session_ref: z.string().min(1, "session_ref must be a non-empty string"),
  threshold: wholeNumber().min(1).max(10_000_000).default(DEFAULT_RESET_THRESHOLD),
});
export type AnalyzeSessionInput = z.infer<typeof analyzeSessionInputSchema>;

/** Risk badge for a reset count (seed 003: low 0–1, high 2+). */
export function riskLevel(resetCount: number): RiskLevel {
  return resetCount >= 2 ? "high" : "low";
}
