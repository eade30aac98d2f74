/** The forensics domain's registered tools (`grep_jsonl`, `list_sessions`, …). */
import { grepJsonl } from "@/lib/forensics/grep";
import { grepJsonlInputSchema } from "@/lib/forensics/schema";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool } from "@/lib/tools/define-tool";

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

