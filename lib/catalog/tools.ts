// The tools that read the catalog: list_projects, list_sessions and search_sessions.

import * as z from "zod";

import { withCatalog } from "@/lib/catalog/catalog";
import { catalogListSessions, catalogProjects, type ProjectListItem } from "@/lib/catalog/queries";
import { searchSessionsInputSchema, type SearchSessionsResult } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { catalogUsage } from "@/lib/catalog/usage";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool, type ToolInputInvalid } from "@/lib/tools/define-tool";
import { getUsageInputSchema } from "@/lib/usage/schema";
import { listSessionsInputSchema } from "@/lib/workspace/schema";
import { resolveSession } from "@/lib/workspace/sessions";

/**
 * `list_projects` (issue 12, item 3): every project of the workspace with its project_key, so an
 * agent can discover the keys the other tools take; most recently active first (issue 25). Read-only; takes no input.
 */
export const listProjectsTool = defineTool({
  name: "list_projects",
  title: "List projects",
  description:
    "List the workspace's projects, most recently active first: project_key (the key every other tool takes), project_label, session_count, turn_count, the working directory (cwd) and git_branch recorded in the latest session, broken_rows (malformed index rows, with their errors), last_activity_at (ISO time of the latest session record), total_tokens (null when unknown) and, only when something is wrong with the project's folder (such as an evidence folder linked outside the project, which is then not read), problem saying what; registered Control Plane roots last. Read-only.",
  readOnly: true,
  input: z.object({}),
  inputHint: "list_projects takes no input: pass {}",
  run: async (ctx): Promise<{ status: "ok"; count: number; projects: ProjectListItem[] }> => {
    const projects = await catalogProjects(ctx);
    return { status: "ok", count: projects.length, projects };
  },
});

/**
 * `list_sessions` (seed 004's paginated shape over a project's indexed sessions), read from the catalog. Declared
 * not in lib/workspace, because its rows compose forensics status and analysis risk; the
 * registry lists it where the workspace tools start, so the tool order is unchanged.
 */
export const listSessionsTool = defineTool({
  name: "list_sessions",
  title: "List sessions",
  description:
    "List a project's indexed sessions with started_at, ended_at, duration_seconds, turn_count, first_user_message, subagent_count, size_bytes, status (completed, active, errored), last_response_preview and seed 003 risk_level/reset_count; paginated with limit/offset, sortable, filterable by text and risk. A large session never analysed is listed at once with null risk and named in risk_pending while its analysis runs: call again for its risk (the CLI waits for it instead; one that grew since its last analysis keeps that risk meanwhile, refreshed at most every 30 s). Read-only.",
  readOnly: true,
  input: listSessionsInputSchema,
  inputHint: "limit is 1-500, offset ≥ 0, sort one of the listed keys, order asc or desc",
  // A control-plane project's sessions come from its ho2m ledger (seed 004, issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "list_sessions", input)) ?? catalogListSessions(ctx, input),
});

/**
 * `search_sessions` (issue 25, Build 3; issue 37): every word a reader can see in every session
 * (transcripts, subagent transcripts, persisted tool results), found as a case-insensitive grep of
 * each line's visible text with the query language of lib/catalog/search-query; grouped by session,
 * ranked, paginated. `session_ref` (with `project_key`) is find-in-session: an unknown one is the
 * seed's structured `invalid`, as on every tool that takes a session. Read-only.
 */
export const searchSessionsTool = defineTool({
  name: "search_sessions",
  title: "Search sessions",
  description:
    'Search every line of every session of every project: user and agent text, thinking, tool names, inputs and results (whole), subagent transcripts and persisted tool results, system records, Codex events. A line matches like a case-insensitive grep of its visible text. Query language: words (all on the line, each anywhere, substrings too), "exact phrase", a OR b, -word (not on the line), word* (at a word start), filters project:KEY session:REF agent:claude-code|codex|gemini-cli|copilot-cli|opencode|aider role:user|assistant|tool tool:NAME (lines that call or answer it) file:PATH-PART (lines whose tool call names it) is:error (failed tool results, API errors, failed commands) after:YYYY-MM-DD (inclusive) before:YYYY-MM-DD (exclusive). The structured fields project_key, session_ref (find in one session, with project_key), source, file, tool, has_error narrow the same way; since/until narrow by session activity. Hits are grouped by session (best session first, most recent among equals; best lines first within one): project_key, session_ref, session_title, session_hits, file {kind main|subagent|tool_result, id, call_line}, line_number (in that file), turn_ref, role, time, snippet (the line\'s own text, matches in [[ ]]), score. total counts lines, sessions the sessions with a hit. coverage: sessions_indexed of sessions_total (status "indexing" while the background fill runs) and lines_unchecked (candidate lines left unchecked when a query matches a very large part of the workspace). A malformed query is refused with the character position and the problem. Paginated with limit (1-200, default 20) and offset; order "line" (find in session, with transcript "main" or a subagent\'s agent id) gives the hits in file and line order and stops checking once the page is full (coverage.lines_unchecked then counts the rest). Read-only.',
  readOnly: true,
  input: searchSessionsInputSchema,
  inputHint: 'pass {query} (e.g. deprecated tool:Bash, "exact phrase", a OR b, -word, word*, is:error, after:2026-01-31) and optionally project_key (+ session_ref), source, since, until, file, tool, has_error, limit 1-200, offset ≥ 0',
  // A catalog met broken while searching is set aside and the search runs again on a new one (issue 35).
  run: async (ctx, input): Promise<SearchSessionsResult | ToolInputInvalid> => {
    if (input.transcript !== undefined && input.session_ref === undefined) return { status: "invalid", errors: [{ field: "transcript", message: "transcript needs session_ref (and project_key)", hint: 'pass the session\'s project_key and session_ref with transcript "main" or a subagent\'s agent id' }] };
    if (input.session_ref !== undefined) {
      if (input.project_key === undefined) return { status: "invalid", errors: [{ field: "project_key", message: "session_ref needs its project_key", hint: "pass the session's project_key with its session_ref" }] };
      const found = await resolveSession(ctx, input.project_key, input.session_ref);
      if (!found.ok) return { status: "invalid", errors: [found.failure] };
    }
    return withCatalog(ctx, () => searchSessions(ctx, input));
  },
});

/**
 * `get_usage` (issue 28): read-only, through every door; read from the catalog's per-session
 * usage buckets (issue 25: the home page's 30-day summary must not read every transcript).
 */
export const getUsageTool = defineTool({
  name: "get_usage",
  title: "Get usage",
  description:
    "Tokens and cost in USD of every session of the workspace, whichever agent wrote it, grouped by day, week (Monday start), month, model, project, source (the agent: key is its name) or session (ccusage-like reports). Each row: key, input_tokens (not read from cache), output_tokens, cache_creation_tokens, cache_read_tokens, total_tokens, cost_usd (null when no model could be priced; unpriced_models are left out of it), models; session rows carry session_id (the source's id), project_key and session_ref. Filters: since/until (YYYY-MM-DD, inclusive, in timezone, default UTC), project_key, source. Claude messages are counted once by message id + request id with their final usage, subagents included; other agents' lines as each agent records usage (reasoning as output, a recorded cost kept); prices are the LiteLLM snapshot ccusage bundles, plus the workspace's .casefile-config/pricing.json. Read-only.",
  readOnly: true,
  input: getUsageInputSchema,
  inputHint: "group_by is day, week, month, model, project, source or session; dates are YYYY-MM-DD",
  run: (ctx, input) => catalogUsage(ctx, input),
});

export const catalogTools = [searchSessionsTool];
