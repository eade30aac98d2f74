import { grepJsonl } from "@/lib/forensics/grep";
import { sessionOverview } from "@/lib/forensics/overview";
import { reconstructSession } from "@/lib/forensics/reconstruct";
import { grepJsonlInputSchema, reconstructSessionInputSchema, sessionOverviewInputSchema } from "@/lib/forensics/schema";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool } from "@/lib/tools/define-tool";

/** `session_overview` (seed 004): the human summary with its `about` paragraph first, then diagnostics. */
export const sessionOverviewTool = defineTool({
  name: "session_overview",
  title: "Session overview",
  description:
    "What one session was about, first: a deterministic plain-language `about` paragraph, start/end, duration, turn count, status, first user messages, errors and warnings with their file:line; then diagnostics (tokens, tool calls by tool and family, subagents, events per source, and the Casefile calls the audit ledger recorded on the session — forensics reads and the dashboard's own reads left out). Covers the main transcript, subagent transcripts, persisted tool results and the audit ledger. Read-only.",
  readOnly: true,
  input: sessionOverviewInputSchema,
  inputHint: "pass {project_key, session_ref}",
  // A control-plane project reads its ledgers instead (issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "session_overview", input)) ?? sessionOverview(ctx, input),
});

/** `reconstruct_session` (seed 004): one page of the merged, ordered timeline. */
export const reconstructSessionTool = defineTool({
  name: "reconstruct_session",
  title: "Reconstruct session",
  description:
    "The session as one merged timeline of its main transcript, subagent transcripts, persisted tool results and audit ledger entries (Casefile calls on the session), ordered by timestamp, then source (main > subagent > tool_result > audit), then file and line. Each row: timestamp, source, file, line, event_type, actor, turn_ref, agent_id, payload. compact (default) gives kinds, tool names and sizes; full adds bounded text (prompts only with include_prompts) and tool payloads (include_tool_payloads). Paginated with limit/offset; max_bytes caps the response (truncated, next_offset). Read-only.",
  readOnly: true,
  input: reconstructSessionInputSchema,
  inputHint: "limit 1-5000, offset ≥ 0, max_bytes 1-10000000, verbosity compact or full",
  // A control-plane project reads its ledgers instead (issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "reconstruct_session", input)) ?? reconstructSession(ctx, input),
});

/** `grep_jsonl` (seed 004): server-side RE2 regex over raw session lines. */
export const grepJsonlTool = defineTool({
  name: "grep_jsonl",
  title: "Grep session lines",
  description:
    "Server-side regular expression (RE2 syntax, linear time) over the raw lines of one session's files (main, subagents, tool results; ledger narrows to main, subagent:<agent_id> or tool_results), or of every session of the project when session_ref is absent. Returns {session_ref, file, line_number, raw} per matching physical line (the viewer's line numbers), count of all matches, paginated with limit/offset and capped by max_bytes. Read-only.",
  readOnly: true,
  input: grepJsonlInputSchema,
  inputHint: "pattern is an RE2 regex; limit 1-1000, offset ≥ 0",
  // A control-plane project reads its ledgers instead (issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "grep_jsonl", input)) ?? grepJsonl(ctx, input),
});

export const forensicsTools = [sessionOverviewTool, reconstructSessionTool, grepJsonlTool];
