/** Input schemas and result types of the forensics tools (seed 004). */
import * as z from "zod";

import type { SessionStatus } from "@/lib/sources/common/schema";
import { wholeNumber } from "@/lib/tools/input-fields";
import type { UsageTotals } from "@/lib/usage/schema";

/** Timeline sources, in tie-break priority order (issue 9: main > subagent > tool_result > audit). */
export const TIMELINE_SOURCES = ["main", "subagent", "tool_result", "audit"] as const;
export type TimelineSource = (typeof TIMELINE_SOURCES)[number];

const projectKey = z.string().min(1, "project_key must be a non-empty string").describe("Project directory name under projects/ in the prepared workspace.");
const sessionRef = z.string().min(1, "session_ref must be a non-empty string").describe("Session handle from sessions.index.jsonl, e.g. S0001.");

/**
 * A boolean flag: JSON `true`/`false`, or the strings a query string or CLI carries ("true",
 * "false", "1", "0", "yes", "no"). Not `z.coerce.boolean()`, which reads "false" as true.
 */
const flag = z.union([z.boolean(), z.stringbool()]);

/** Findings of each list (errors, warnings) a session scan keeps for `session_overview`'s pages. */
export const MAX_KEPT_FINDINGS = 5000;

/** Largest `max_bytes` any forensics tool accepts (bytes of serialized JSON). */
export const MAX_RESPONSE_BYTES = 10_000_000;

/** Input of `session_overview` (seed 004, adapted: a session is `(project_key, session_ref)`). */
export const sessionOverviewInputSchema = z.object({
  project_key: projectKey,
  session_ref: sessionRef,
  limit: wholeNumber().min(1).max(1000).default(50).describe("Errors and warnings listed per page, each list (1-1000); their counts are always exact."),
  offset: wholeNumber().min(0).default(0).describe("Errors and warnings to skip, each list, in file then line order."),
});
/** The parsed input; `limit`/`offset` may be left out by direct callers (defaults 50 and 0). */
export type SessionOverviewInput = Omit<z.infer<typeof sessionOverviewInputSchema>, "limit" | "offset"> & { limit?: number; offset?: number };

/** Input of `reconstruct_session` (seed 004 defaults: limit 100, offset 0, max_bytes 50000, compact). */
export const reconstructSessionInputSchema = z.object({
  project_key: projectKey,
  session_ref: sessionRef,
  limit: wholeNumber().min(1).max(5000).default(100).describe("Events per page (1-5000)."),
  offset: wholeNumber().min(0).default(0).describe("Events to skip in timeline order."),
  // min 1: seed 004's test_reconstruct_max_bytes_cap asks for max_bytes=100 → truncated.
  max_bytes: wholeNumber().min(1).max(MAX_RESPONSE_BYTES).default(50_000).describe("Cap on the serialized response; rows past it are cut and truncated is true."),
  verbosity: z.enum(["compact", "full"]).default("compact").describe("compact: kinds, names and sizes only; full: bounded text and tool payloads."),
  include_prompts: flag.default(false).describe("Include human and injected prompt text: as `text` (full) and as the prompt row's `headline` (include_headlines)."),
  include_tool_payloads: flag.default(true).describe("full only: include tool inputs and result previews."),
  include_headlines: flag
    .default(false)
    .describe("Add each transcript row's one-line `headline` (what it did: `Read(src/a.ts)`, `Bash(npm test) → exit 1`, an API error; an agent's text; a prompt only with include_prompts)."),
  source: z.enum(TIMELINE_SOURCES).optional().describe("Only events of this source (dashboard filter)."),
  event_type: z.string().min(1).optional().describe("Only events of this event_type (dashboard filter)."),
});
export type ReconstructSessionInput = z.infer<typeof reconstructSessionInputSchema>;

/** Input of `grep_jsonl`: one session (or every session of the project when `session_ref` is absent). */
export const grepJsonlInputSchema = z.object({
  project_key: projectKey,
  session_ref: sessionRef.optional(),
  ledger: z.string().min(1).optional().describe('"main", "subagent:<agent_id>", "tool_results", or absent for every file of the session.'),
  pattern: z.string().min(1, "pattern must be a non-empty string").max(1000).describe("RE2 regular expression (linear time; no backreferences or lookaround)."),
  limit: wholeNumber().min(1).max(1000).default(20),
  offset: wholeNumber().min(0).default(0),
  max_bytes: wholeNumber().min(200).max(MAX_RESPONSE_BYTES).default(50_000).describe("Cap on the serialized response; matches past it are cut and truncated is true."),
});
export type GrepJsonlInput = z.infer<typeof grepJsonlInputSchema>;

/** Input of the session-ledger part of `query_ledger_full`: one source file of a session as a ledger. */
export const sessionLedgerInputSchema = z.object({
  project_key: projectKey,
  session_ref: sessionRef,
  ledger: z.string().min(1).describe('"main" or "subagent:<agent_id>".'),
  event_type: z.string().min(1).optional(),
  max_entries: wholeNumber().min(1).max(1000).default(10),
  offset: wholeNumber().min(0).default(0),
  order: z.enum(["asc", "desc"]).default("asc"),
  max_bytes: wholeNumber().min(200).max(MAX_RESPONSE_BYTES).default(200_000),
});
export type SessionLedgerInput = z.infer<typeof sessionLedgerInputSchema>;

/** One row of the merged timeline (`reconstruct_session`). `line` is the physical line in `file`. */
export type TimelineRow = {
  index: number;
  timestamp: string | null;
  source: TimelineSource;
  file: string;
  line: number;
  event_type: string;
  actor: string;
  turn_ref: string | null;
  agent_id: string | null;
  payload: Record<string, unknown>;
};

export type ReconstructSessionResult = {
  status: "ok";
  project_key: string;
  session_ref: string;
  event_count: number;
  offset: number;
  returned: number;
  truncated: boolean;
  next_offset: number | null;
  /**
   * A session of an agent read through the source contract only (issue 38): what that agent does
   * not record (`cost`, `subagents`, `per-line times` …), so its absence reads as such, never as 0.
   */
  not_recorded?: string[];
  /** Agents only: said when the rows' times are not their records' own (all of a run's rows carry its start); else null. */
  time_note?: string | null;
  timeline: TimelineRow[];
};

/** What a search hit shows beside its line (issue 29): its session's title (first user message) and the turns around the hits. */
export type SearchHitContext = { titles: Record<string, string | null>; turns: Record<string, { turn_ref: string; start: number; end: number }[]> };

/** One grep hit: `line_number` is the physical line (the viewer's `#L<n>`, `grep -n`'s number on JSONL). */
export type GrepMatch = { session_ref: string; file: string; line_number: number; raw: string; raw_clipped: boolean };

export type GrepJsonlResult = {
  status: "ok";
  project_key: string;
  session_ref: string | null;
  pattern: string;
  /** Matching lines seen; a lower bound when `count_exact` is false (the scan stopped once it had `offset + limit`). */
  count: number;
  count_exact: boolean;
  offset: number;
  returned: number;
  truncated: boolean;
  files_searched: number;
  entries: GrepMatch[];
};

/** The `{field, message, hint}` rejection every forensics tool returns (seed 000 error model). */
export type ForensicsInvalid = { status: "invalid"; errors: { field: string; message: string; hint: string }[] };

/** One problem found in a session, pointing at its physical line. */
export type Finding = { type: string; message: string; source: TimelineSource; file: string; line: number; timestamp: string | null };

/** Per-tool call counts (seed 004 `by_tool`). */
export type ToolCounts = { called: number; succeeded: number; failed: number };

export type SessionOverviewSummary = {
  /** One count per concept (issue 28), the numbers the `about` names. */
  counts: SessionCounts;
  project_key: string;
  session_ref: string;
  source: string;
  started_at: string | null;
  ended_at: string | null;
  /** Human duration ("12 minutes"), null when the session has no timestamps. */
  duration: string | null;
  duration_seconds: number | null;
  turn_count: number;
  status: SessionStatus;
  /** One deterministic plain-language paragraph: what the session was about (seed 004 §`about`). */
  about: string;
  /** The machine the session came from (issue 39 provenance). */
  machine: string;
  top_user_messages: { text: string; file: string; line: number }[];
  errors: Finding[];
  warnings: Finding[];
  error_counts: Record<string, number>;
  warning_counts: Record<string, number>;
  /**
   * The page of `errors` and `warnings` (input `limit`/`offset`, applied to each list):
   * `next_offset` is null when neither list has more kept findings (the first
   * {@link MAX_KEPT_FINDINGS} of each list are kept; the counts go on past them).
   */
  findings_page: { offset: number; limit: number; next_offset: number | null };
  last_response_preview: string | null;
  /**
   * A session of an agent read through the source contract only (issue 38): the concepts that
   * agent does not record (`subagents`, `cost`, `per-line times` …): their zeros and nulls here mean "not recorded".
   */
  not_recorded?: string[];
};

/** `session_overview`'s `diagnostics.audit`: the Casefile calls recorded on the session. */
export type AuditDiagnostics = {
  /** Receipts (calls) listed, started or finished. */
  calls: number;
  /** Audit ledger entries listed (a finished call has two). */
  entries: number;
  /** Per tool: called, succeeded (result success), failed (failure, denied or crashed); keys sorted. */
  by_tool: Record<string, ToolCounts>;
  /** Calls per door (mcp, http, cli, ui); keys sorted. */
  by_door: Record<string, number>;
  first_at: string | null;
  last_at: string | null;
};

/** One count per concept (lib/forensics/counts, issue 28): the `about`, Details, Analysis and lists show these numbers. */
export type SessionCounts = {
  turns: number;
  /** File-reading tool calls (`Read`, or a shell `cat`/`sed`/`head`…), in the main transcript and subagents. */
  files_read: { total: number; main: number; subagents: number };
  reads_failed: number;
  /** Shell commands run (other than reads and searches). */
  commands_run: { total: number; main: number; subagents: number };
  commands_failed: number;
  tool_calls: number;
  /** Error findings: failed tool calls, API errors, interrupted turns. */
  errors: number;
  by_family: Record<string, { called: number; failed: number; subagent_called: number }>;
};

export type SessionOverviewDiagnostics = {
  /**
   * Tokens and cost from lib/usage (issue 28: each Claude message once with its final usage,
   * subagents counted in and shown apart; Codex input without its cached part). `cost_usd` null:
   * no model could be priced; `unpriced_models` are left out of it.
   */
  tokens: {
    input_total: number;
    output_total: number;
    cache_read_total: number;
    cache_creation_total: number;
    grand_total: number;
    cost_usd: number | null;
    unpriced_models: string[];
    models: string[];
    main: UsageTotals;
    subagents: UsageTotals;
  };
  tools: { total_calls: number; failed_calls: number; by_tool: Record<string, ToolCounts>; by_family: Record<string, { called: number; failed: number }> };
  subagents: { count: number; by_type: Record<string, number> };
  events: Record<TimelineSource, number> & { total: number };
  /** Timeline events per `event_type`, keys sorted. */
  event_types: Record<string, number>;
  files: { source: TimelineSource; file: string; size_bytes: number }[];
  /** The Casefile tool calls recorded on this session in the audit ledger (issue 9). */
  audit: AuditDiagnostics;
  /** Agent sessions only (issue 38): the paths the session's tool calls name, sorted, the first 200 (`total`: all). */
  files_touched?: { files: string[]; total: number };
};

export type SessionOverviewResult = { status: "ok"; summary: SessionOverviewSummary; diagnostics: SessionOverviewDiagnostics };
