import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool } from "@/lib/tools/define-tool";
import { listSessions } from "@/lib/workspace/list-sessions";
import { listSessionsInputSchema } from "@/lib/workspace/schema";

/** `list_sessions` (seed 004's paginated shape over a project's indexed sessions). */
export const listSessionsTool = defineTool({
  name: "list_sessions",
  title: "List sessions",
  description:
    "List a project's indexed sessions with started_at, ended_at, duration_seconds, turn_count, first_user_message, subagent_count, size_bytes, status (completed, active, errored) and last_response_preview; paginated with limit/offset, sortable, filterable by text. Read-only.",
  readOnly: true,
  input: listSessionsInputSchema,
  inputHint: "limit is 1-500, offset ≥ 0, sort one of the listed keys, order asc or desc",
  // A control-plane project's sessions come from its ho2m ledger (seed 004, issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "list_sessions", input)) ?? listSessions(ctx, input),
});

export const workspaceTools = [listSessionsTool];
