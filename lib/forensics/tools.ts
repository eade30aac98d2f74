import { grepJsonl } from "@/lib/forensics/grep";
import { listSessions } from "@/lib/forensics/list-sessions";
import { grepJsonlInputSchema } from "@/lib/forensics/schema";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool } from "@/lib/tools/define-tool";
import { listSessionsInputSchema } from "@/lib/workspace/schema";

/** `grep_jsonl` (seed 004): server-side RE2 regex over raw session lines. */
export const grepJsonlTool = defineTool({
  name: "grep_jsonl",
  title: "Grep session lines",
  description:
    "Server-side regular expression (RE2 syntax, linear time) over the raw lines of one session's files (main, subagents, tool results; ledger narrows to main, subagent:<agent_id> or tool_results), or of every session of the project when session_ref is absent. Returns {session_ref, file, line_number, raw} per matching physical line (the viewer's line numbers), paginated with limit/offset and capped by max_bytes. The scan stops at the first match past the page: count is then a lower bound (count_exact: false; more matches follow); count_exact: true when the scan reached the end. A scan over its 10 s time budget answers invalid naming pattern. Read-only.",
  readOnly: true,
  input: grepJsonlInputSchema,
  inputHint: "pattern is an RE2 regex; limit 1-1000, offset ≥ 0",
  // A control-plane project reads its ledgers instead (issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "grep_jsonl", input)) ?? grepJsonl(ctx, input),
});

/**
 * `list_sessions` (seed 004's paginated shape over a project's indexed sessions). Declared here,
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
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "list_sessions", input)) ?? listSessions(ctx, input),
});

/** `get_usage` (issue 28), declared in lib/forensics/usage-tool. */
export { getUsageTool } from "@/lib/forensics/usage-tool";
