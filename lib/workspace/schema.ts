/** Schemas of the workspace's index rows, refs and risk levels. */
import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import * as z from "zod";

import { indexTurnSchema, type IndexTurn, sessionStatusSchema } from "@/lib/sources/common/schema";
import { wholeNumber } from "@/lib/tools/input-fields";

/** A machine's name (issue 39 provenance): a letter or digit, then up to 63 letters, digits, `.`, `_` or `-` (a host name fits; so does a folder name). Here, without I/O, so pages read it too. */
export const MACHINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `value` is a {@link MACHINE_NAME} (a URL's `?machine=`, a tool's input). */
export function isMachineName(value: unknown): value is string {
  return typeof value === "string" && MACHINE_NAME.test(value);
}

/** A machine name in a tool's input (list_sessions' filter): {@link MACHINE_NAME}. */
export const machineNameSchema = z.string().trim().regex(MACHINE_NAME, "a machine name: letters, digits, '.', '_' or '-', at most 64");

/** Seed 003's risk scoring (lib/analysis computes it; list_sessions filters and sorts by it): low for 0–1 context resets, high for 2 or more. */
export const RISK_LEVELS = ["low", "high"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const projectKeySchema = z.string().min(1, "project_key must be a non-empty string");

/** One `sessions.index.jsonl` row as Casefile uses it (unknown legacy fields are ignored). */
export const indexRowSchema = z.object({
  session_ref: z.string(),
  source: z.string(),
  source_session_id: z.string(),
  session_path: z.string(),
  target_start_line: z.number().int(),
  target_end_line: z.number().int(),
  turns: z.array(indexTurnSchema),
});
export type IndexRow = z.infer<typeof indexRowSchema>;

/** Token usage of one turn (issue 5); counts are tokens, null = unknown. */
export const turnUsageSchema = z.object({
  turn_ref: z.string(),
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  total_tokens: z.number().nullable(),
});
export type TurnUsage = z.infer<typeof turnUsageSchema>;

/** An index row the loader left out, with its error (issue 12: the rest of the project still opens). */
export const brokenIndexRowSchema = z.object({
  line: z.number().int(),
  session_ref: z.string().nullable(),
  message: z.string(),
});

/**
 * A project as `list_projects` and the dashboard list it: counts, the working directory and git
 * branch recorded in its latest session (null when unknown), and any malformed index rows.
 */
export const projectSummarySchema = z.object({
  project_key: z.string(),
  project_label: z.string(),
  session_count: z.number().int(),
  turn_count: z.number().int(),
  cwd: z.string().nullable(),
  git_branch: z.string().nullable(),
  broken_rows: z.array(brokenIndexRowSchema),
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

/** A subagent transcript attached to a main session (seed 003). */
export const subagentSummarySchema = z.object({
  agent_id: z.string(),
  file_name: z.string(),
  size_bytes: z.number().int(),
});
export type SubagentSummary = z.infer<typeof subagentSummarySchema>;

/**
 * One row of `list_sessions` (seed 004's shape, adapted to transcripts): times are ISO
 * strings, `duration_seconds` whole seconds (the session's clock, lib/workspace/session-clock:
 * its earliest and latest record time), `first_user_message` the first real prompt
 * (lib/forensics/session-request), `size_bytes` the copied file size.
 */
export const sessionListItemSchema = z.object({
  session_ref: z.string(),
  source: z.string(),
  source_session_id: z.string(),
  started_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  duration_seconds: z.number().nullable(),
  turn_count: z.number().int(),
  first_user_message: z.string().nullable(),
  subagent_count: z.number().int(),
  size_bytes: z.number().int(),
  /** Output tokens of the session (main transcript and subagents; lib/usage, issue 28); null when no request was counted. */
  output_tokens: z.number().nullable(),
  /** All tokens of the session (input, output, cache creation, cache read); null as `output_tokens`. */
  total_tokens: z.number().nullable(),
  /** Cost in USD (lib/usage prices); null when no request was counted or no model could be priced. */
  cost_usd: z.number().nullable(),
  /** Seed 004 status adapted (issue 9): completed, active (changed < 10 min ago or no reply yet), errored; null when the file is missing. */
  status: sessionStatusSchema.nullable(),
  /** The last agent reply, one line, at most 300 characters. */
  last_response_preview: z.string().nullable(),
  /**
   * Seed 003 risk (low 0–1 context resets, high 2+); null when the file is missing, or while the
   * session is in the result's `risk_pending` (its analysis is still running).
   */
  risk_level: z.enum(RISK_LEVELS).nullable(),
  /** Context resets at the default 10,000-token threshold; null as `risk_level`. */
  reset_count: z.number().int().nullable(),
  /** The machine the session came from (issue 39 provenance: its source root's machine, lib/workspace/machines). */
  machine: z.string(),
});
export type SessionListItem = z.infer<typeof sessionListItemSchema>;

export const SESSION_SORT_KEYS = ["session_ref", "started_at", "duration_seconds", "turn_count", "subagent_count", "size_bytes", "output_tokens", "total_tokens", "cost_usd", "reset_count", "risk_level"] as const;
export type SessionSortKey = (typeof SESSION_SORT_KEYS)[number];

/** Input of the `list_sessions` tool: paginated with limit/offset, 20 rows by default (seed 004 §3 list_sessions). */
export const listSessionsInputSchema = z.object({
  project_key: projectKeySchema,
  limit: wholeNumber().min(1).max(500).default(20),
  offset: wholeNumber().min(0).default(0),
  sort: z.enum(SESSION_SORT_KEYS).default("started_at"),
  order: z.enum(["asc", "desc"]).default("desc"),
  q: z.string().trim().max(500).optional(),
  /** Only sessions of this seed 003 risk level. */
  risk: z.enum(RISK_LEVELS).optional(),
  /** Only sessions of this source (the agent that wrote them). */
  source: z.enum(TRANSCRIPT_SOURCES).optional(),
  /** Only sessions from this machine (issue 39: a row's `machine`). */
  machine: machineNameSchema.optional(),
});
export type ListSessionsInput = z.infer<typeof listSessionsInputSchema>;

export type ListSessionsResult = {
  status: "ok";
  project_key: string;
  count: number;
  total: number;
  offset: number;
  limit: number;
  sessions: SessionListItem[];
  /** The machines the project's sessions came from (issue 39; every session's, whatever the filters), sorted: the table shows its Machine column when there are two or more. */
  machines: string[];
  /**
   * Sessions of the project (refs, whatever the page and the filters) whose risk is being
   * computed: a large session never analysed is not waited for (its seed 003 analysis takes
   * seconds), so its rows show null risk and a risk filter leaves it out until a later call. A
   * large session that grew since its last analysis keeps that risk meanwhile (not listed here).
   * Always empty from a one-shot process (the CLI), which waits for the risk instead.
   */
  risk_pending: string[];
};

/** Everything the viewer needs before it asks for line windows. */
/** What the viewer's header says about a transcript (issue 12); each fact null when not recorded. */
export const sessionFactsSchema = z.object({
  model: z.string().nullable(),
  client_version: z.string().nullable(),
  cwd: z.string().nullable(),
  git_branch: z.string().nullable(),
  /** ISO time of the earliest record (lib/workspace/session-clock), null until known. */
  started_at: z.string().nullable(),
  /** Whole seconds from the earliest to the latest record (lib/workspace/session-clock), null until known. */
  duration_seconds: z.number().int().nullable(),
});
export type SessionFacts = z.infer<typeof sessionFactsSchema>;

export const sessionDetailSchema = z.object({
  project_key: z.string(),
  project_label: z.string(),
  session_ref: z.string(),
  source: z.string(),
  source_session_id: z.string(),
  /** The machine the session came from (issue 39 provenance, lib/workspace/machines). */
  machine: z.string(),
  session_path: z.string(),
  line_count: z.number().int(),
  size_bytes: z.number().int(),
  /** Indexed turns of the session; for a subagent transcript, its own turns (split like a session's). */
  turn_count: z.number().int(),
  /** The indexed turns (a subagent transcript's own); empty when the caller asked for none (the session page pages a session's). */
  turns: z.array(indexTurnSchema),
  /** Per-turn token usage, in `turns` order (empty whenever `turns` is). */
  turn_usage: z.array(turnUsageSchema),
  subagents: z.array(subagentSummarySchema),
  /** Set when the viewer shows one subagent transcript instead of the main session. */
  agent_id: z.string().nullable(),
  /** Model, client version, working directory, git branch, start and duration of the transcript shown. */
  facts: sessionFactsSchema,
  /** What the session's agent does not record at all (`subagents`, `cost`, …: lib/sources' `absent`), so pages say so instead of showing zeros (issue 38); [] for Claude Code and Codex. */
  not_recorded: z.array(z.string()),
  /** Set with `agent_id`: the subagent's task, tool calls, last reply and the main line that spawned it (issue 29). */
  subagent: z
    .object({ spawn_line: z.number().int().nullable(), prompt: z.string().nullable(), tool_calls: z.number().int(), last_reply: z.string().nullable() })
    .nullable(),
});
export type SessionDetail = z.infer<typeof sessionDetailSchema>;

/** Most turns one page may hold. */
export const MAX_TURNS_PAGE = 2000;

/**
 * Input of {@link listSessionTurns}: a page of a session's indexed turns, by ordinal
 * (`offset`, 0-based) or by line (`line`: the page starts at the turn containing that line, or
 * the first turn after it; wins over `offset`). `to_line` stops the page at the last turn that
 * starts on or before it. `usage` adds each turn's token counts (issue 5; the first call on a
 * session whose usage was not primed at prepare streams the transcript once).
 */
export const sessionTurnsInputSchema = z.object({
  project_key: z.string().min(1),
  session_ref: z.string().min(1),
  offset: wholeNumber().min(0).default(0),
  line: wholeNumber().min(1).optional(),
  to_line: wholeNumber().min(1).optional(),
  limit: wholeNumber().min(1).max(MAX_TURNS_PAGE).default(200),
  usage: z
    .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
    .transform((v) => v === true || v === "true" || v === "1")
    .default(false),
});
export type SessionTurnsInput = z.output<typeof sessionTurnsInputSchema>;

/** One turn of a page: its span, its 0-based ordinal among the session's turns, and (when asked) its usage in tokens. */
export type SessionTurn = IndexTurn & {
  ordinal: number;
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
};

/** A page of a session's turns (`list_session_turns`). */
export type SessionTurnsPage = {
  status: "ok";
  project_key: string;
  session_ref: string;
  /** Every indexed turn of the session. */
  total_turns: number;
  /** Ordinal of the first turn in `turns` (= total_turns when the page is empty past the end). */
  offset: number;
  turns: SessionTurn[];
};
