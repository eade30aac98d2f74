import * as z from "zod";

import type { CoreContext } from "@/lib/context";
import { getLedger } from "@/lib/ledger/ledger-store";
import { type AuditPage, inspectAudit, queryAudit, type ReceiptInspection } from "@/lib/ledger/query";
import { callResultSchema, doorSchema, LEDGER_EVENT_TYPES } from "@/lib/ledger/schema";
import { defineTool, type ToolInputInvalid } from "@/lib/tools/define-tool";

const QUERY_HINT = "pass {ledger?: \"audit\", event_type?, task_id?, project_key?, session_ref?, tool_name?, door?, result?, max_entries?, offset?, order?}";

const queryInput = z.object({
  ledger: z.string().default("audit").describe("Which ledger to read: \"audit\" (every Casefile tool call)."),
  event_type: z.string().optional().describe("tool_call_started or tool_call_finished."),
  task_id: z.string().optional().describe("project_key/session_ref, or a project_key for project-level calls."),
  project_key: z.string().optional(),
  session_ref: z.string().optional(),
  tool_name: z.string().optional(),
  door: doorSchema.optional(),
  result: z.union([callResultSchema, z.literal("running")]).optional(),
  max_entries: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
  order: z.enum(["asc", "desc"]).default("asc").describe("asc: oldest first (ledger order); desc: newest first."),
});
type QueryInput = z.output<typeof queryInput>;

/** `query_ledger_full`'s success: one page of entries of the named ledger. */
export type LedgerQueryResult = { status: "ok"; ledger: string } & AuditPage;

/**
 * The ledgers `query_ledger_full` can read, one case each: other ledgers (a session's
 * transcripts, Control Plane ledgers) add a case here. Unknown → `invalid` naming `ledger`.
 */
async function queryLedger(ctx: CoreContext, input: QueryInput): Promise<LedgerQueryResult | ToolInputInvalid> {
  switch (input.ledger) {
    case "audit":
      return queryAuditLedger(ctx, input);
    default:
      return invalidField("ledger", `unknown ledger '${input.ledger}'`, "use \"audit\"");
  }
}

async function queryAuditLedger(ctx: CoreContext, input: QueryInput): Promise<LedgerQueryResult | ToolInputInvalid> {
  const eventType = input.event_type;
  if (eventType !== undefined && !LEDGER_EVENT_TYPES.some((t) => t === eventType)) {
    return invalidField("event_type", `unknown event_type '${eventType}' for the audit ledger`, `use one of: ${LEDGER_EVENT_TYPES.join(", ")}`);
  }
  const { ledger, max_entries, offset, order, event_type: _e, ...filter } = input;
  const page = await queryAudit(getLedger(ctx.workspaceRoot), { ...filter, event_type: LEDGER_EVENT_TYPES.find((t) => t === eventType) }, { max_entries, offset, order });
  return { status: "ok", ledger, ...page };
}

const invalidField = (field: string, message: string, hint: string): ToolInputInvalid => ({ status: "invalid", errors: [{ field, message, hint }] });

/** `query_ledger_full` (seed 002 "all traces", "traces of one task"): entries with full metadata, paginated. Read-only. */
export const queryLedgerFullTool = defineTool({
  name: "query_ledger_full",
  title: "Query ledger",
  description:
    "Read entries of a Casefile ledger with their full metadata, oldest first (order: \"desc\" for newest first), paginated by offset and max_entries (default 100, at most 1000). ledger \"audit\" (default) is the record of every Casefile tool call: tool_call_started entries (receipt_id, task_id = project_key/session_ref or project_key, tool_name, door, input_hash, input_ref, scope) each with its outcome, and tool_call_finished entries (result success|failure|denied|crashed, duration_ms, output_hash, policy_decisions, artifacts_written). Filter by event_type, task_id, project_key, session_ref, tool_name, door, result. Returns {status:\"ok\", total, offset, next_offset, entries}. Read-only.",
  readOnly: true,
  input: queryInput,
  inputHint: QUERY_HINT,
  run: (ctx, input) => queryLedger(ctx, input),
});

const inspectInput = z
  .object({ task_id: z.string().min(1).optional(), receipt_id: z.string().min(1).optional() })
  .refine((v) => v.task_id !== undefined || v.receipt_id !== undefined, { message: "give task_id or receipt_id", path: ["task_id"] });

/** `inspect_ledger_task`'s success: the receipts inspected. */
export type InspectLedgerResult = { status: "ok"; task_id: string | null; receipts: ReceiptInspection[] };

/** Seed 002's `inspectTask`: a task's receipts (or one receipt) with inputs, outputs and policy decisions. Read-only. */
export const inspectLedgerTaskTool = defineTool({
  name: "inspect_ledger_task",
  title: "Inspect audit task",
  description:
    "Inspect one task of the audit ledger (task_id = project_key/session_ref or project_key), or one call (receipt_id): every receipt with its started and finished entries, its exact input and output read from the content-addressed blobs with verified: true when the SHA-256 recomputes, its policy decisions and the files it wrote. Read-only.",
  readOnly: true,
  input: inspectInput,
  inputHint: "pass {task_id} or {receipt_id}",
  run: async (ctx, input): Promise<InspectLedgerResult> => ({
    status: "ok",
    task_id: input.task_id ?? null,
    receipts: await inspectAudit(getLedger(ctx.workspaceRoot), input),
  }),
});

export const ledgerTools = [queryLedgerFullTool, inspectLedgerTaskTool];
