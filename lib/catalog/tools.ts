// The tools that read the catalog: list_projects, list_sessions and search_sessions.

import * as z from "zod";

import { withCatalog } from "@/lib/catalog/catalog";
import { catalogListSessions, catalogProjects, type ProjectListItem } from "@/lib/catalog/queries";
import { searchSessionsInputSchema, type SearchSessionsResult } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { catalogUsage } from "@/lib/catalog/usage";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool } from "@/lib/tools/define-tool";
import { getUsageInputSchema } from "@/lib/usage/schema";
import { listSessionsInputSchema } from "@/lib/workspace/schema";

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
 * `search_sessions` (issue 25, Build 3): ranked full-text search across every session of every
 * project — `{status:"ok", total, offset, limit, hits:[{project_key, session_ref, session_id,
 * line_number, turn_ref, snippet, score}]}`, filterable by project, source, time, file, tool and
 * tool errors. Literal and case-insensitive; `grep_jsonl` stays for regular expressions. Read-only.
 */
export const searchSessionsTool = defineTool({
  name: "search_sessions",
  title: "Search sessions",
  description:
    "Full-text search across all sessions of all projects: user and agent text, tool names, tool inputs (paths, commands, patterns) and tool results (bounded). The query (3+ characters) is matched literally and case-insensitively; hits are ranked (BM25, higher score is better) with a snippet marking matches in [[ ]], the line_number to open and its turn_ref. Filters: project_key, source (claude-code|codex), since/until (ISO), file (a path the session's tools named contains it), tool (a tool the session used), has_error (the session had a tool error). Paginated with limit (1-200, default 20) and offset. status is \"indexing\" while new sessions are still being indexed in the background: the hits then cover coverage.sessions_indexed of coverage.sessions_total sessions. Use grep_jsonl for a regex inside one session. Read-only.",
  readOnly: true,
  input: searchSessionsInputSchema,
  inputHint: "pass {query} (3+ characters) and optionally project_key, source, since, until, file, tool, has_error, limit 1-200, offset ≥ 0",
  // A catalog met broken while searching is set aside and the search runs again on a new one (issue 35).
  run: (ctx, input): Promise<SearchSessionsResult> => withCatalog(ctx, () => searchSessions(ctx, input)),
});

/**
 * `get_usage` (issue 28): read-only, through every door; read from the catalog's per-session
 * usage buckets (issue 25: the home page's 30-day summary must not read every transcript).
 */
export const getUsageTool = defineTool({
  name: "get_usage",
  title: "Get usage",
  description:
    "Tokens and cost in USD of the workspace's Claude Code and Codex sessions, grouped by day, week (Monday start), month, model, project or session (ccusage-like reports). Each row: key, input_tokens (not read from cache), output_tokens, cache_creation_tokens, cache_read_tokens, total_tokens, cost_usd (null when no model could be priced; unpriced_models are left out of it), models; session rows carry session_id (the source's id), project_key and session_ref. Filters: since/until (YYYY-MM-DD, inclusive, in timezone, default UTC), project_key, source. Claude messages are counted once by message id + request id with their final usage, subagents included; prices are the LiteLLM snapshot ccusage bundles, plus the workspace's .casefile-config/pricing.json. Read-only.",
  readOnly: true,
  input: getUsageInputSchema,
  inputHint: "group_by is day, week, month, model, project or session; dates are YYYY-MM-DD",
  run: (ctx, input) => catalogUsage(ctx, input),
});

export const catalogTools = [searchSessionsTool];
