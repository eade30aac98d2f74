/** The ledger domain's registered tools: query, inspect and chain authors. */
import * as z from "zod";

import type { CoreContext } from "@/lib/context";
import { isSessionLedgerName, querySessionLedger, type SessionLedgerPage } from "@/lib/forensics/session-ledgers";
import { chainAuthors } from "@/lib/ledger/chain-authors";
import { getLedger } from "@/lib/ledger/ledger-store";
import { inspectAudit, queryAudit } from "@/lib/ledger/query";
import { type AuditPage, callResultSchema, type ChainAuthor, doorSchema, LEDGER_EVENT_TYPES, type ReceiptInspection } from "@/lib/ledger/schema";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { defineTool, type ToolInputInvalid } from "@/lib/tools/define-tool";
import { wholeNumber } from "@/lib/tools/input-fields";

const QUERY_HINT = "pass {ledger?: \"audit\", event_type?, task_id?, project_key?, session_ref?, tool_name?, door?, result?, max_entries?, offset?, order?}";

const queryInput = z.object({
  ledger: z
    .string()
    .optional()
    .describe('Which ledger to read: "audit" (every Casefile tool call; the default), or one source of a session (with project_key and session_ref): "main" (its transcript) or "subagent:<agent_id>". For a Control Plane project: governance (its default), ho2m, ho1m, or a per-session SES-…/exec ledger.'),
  event_type: z.string().optional().describe("tool_call_started or tool_call_finished."),
  task_id: z.string().optional().describe("project_key/session_ref, or a project_key for project-level calls."),
  project_key: z.string().optional(),
  session_ref: z.string().optional(),
  tool_name: z.string().optional(),
  door: doorSchema.optional(),
  result: z.union([callResultSchema, z.literal("running")]).optional(),
  max_entries: wholeNumber().min(1).max(1000).default(100),
  offset: wholeNumber().min(0).default(0),
  order: z.enum(["asc", "desc"]).default("asc").describe("asc: oldest first (ledger order); desc: newest first."),
  max_bytes: wholeNumber().min(200).max(10_000_000).optional().describe("Session ledgers (main, subagent:<id>): cap on the serialized response, default 200000; entries past it are cut and truncated is true."),
});
type QueryInput = z.output<typeof queryInput>;

/** `query_ledger_full`'s default response cap on a session ledger (bytes of serialized JSON). */
const SESSION_LEDGER_MAX_BYTES = 200_000;

/** `query_ledger_full`'s success: one page of entries of the named ledger. */
export type LedgerQueryResult = { status: "ok"; ledger: string } & AuditPage;

/**
 * The ledgers `query_ledger_full` can read, one case each: other ledgers (a session's
 * transcripts, Control Plane ledgers) add a case here. Unknown → `invalid` naming `ledger`.
 */
async function queryLedger(ctx: CoreContext, given: QueryInput): Promise<LedgerQueryResult | SessionLedgerPage | ToolInputInvalid> {
  // No ledger → audit; left unset in the schema so a Control Plane project can default to governance (seed 004).
  const input = { ...given, ledger: given.ledger ?? "audit" };
  if (input.ledger === "audit") return queryAuditLedger(ctx, input);
  // A session's transcripts as ledgers (issue 9): lib/forensics reads them.
  if (isSessionLedgerName(input.ledger)) {
    if (input.project_key === undefined) return invalidField("project_key", `ledger '${input.ledger}' is a session ledger: project_key is required`, QUERY_HINT);
    if (input.session_ref === undefined) return invalidField("session_ref", `ledger '${input.ledger}' is a session ledger: session_ref is required`, QUERY_HINT);
    const { ledger, project_key, session_ref, event_type, max_entries, offset, order, max_bytes } = input;
    return querySessionLedger(ctx, { ledger, project_key, session_ref, event_type, max_entries, offset, order, max_bytes: max_bytes ?? SESSION_LEDGER_MAX_BYTES });
  }
  return invalidField("ledger", `unknown ledger '${input.ledger}'`, 'use "audit", "main" or "subagent:<agent_id>" (the last two with project_key and session_ref)');
}

async function queryAuditLedger(ctx: CoreContext, input: QueryInput & { ledger: string }): Promise<LedgerQueryResult | ToolInputInvalid> {
  const eventType = input.event_type;
  if (eventType !== undefined && !LEDGER_EVENT_TYPES.some((t) => t === eventType)) {
    return invalidField("event_type", `unknown event_type '${eventType}' for the audit ledger`, `use one of: ${LEDGER_EVENT_TYPES.join(", ")}`);
  }
  const { ledger, max_entries, offset, order, event_type: _e, max_bytes: _m, ...filter } = input;
  const page = await queryAudit(getLedger(ctx.workspaceRoot), { ...filter, event_type: LEDGER_EVENT_TYPES.find((t) => t === eventType) }, { max_entries, offset, order });
  return { status: "ok", ledger, ...page };
}

const invalidField = (field: string, message: string, hint: string): ToolInputInvalid => ({ status: "invalid", errors: [{ field, message, hint }] });

/** `query_ledger_full` (seed 002 "all traces", "traces of one task"): entries with full metadata, paginated. Read-only. */
export const queryLedgerFullTool = defineTool({
  name: "query_ledger_full",
  title: "Query ledger",
  description:
    "Read entries of a Casefile ledger with their full metadata, oldest first (order: \"desc\" for newest first), paginated by offset and max_entries (default 100, at most 1000). ledger \"audit\" (default) is the record of every Casefile tool call: tool_call_started entries (receipt_id, task_id = project_key/session_ref or project_key, tool_name, door, input_hash, input_ref, scope) each with its outcome, and tool_call_finished entries (result success|failure|denied|crashed, duration_ms, output_hash, policy_decisions, artifacts_written). Filter by event_type, task_id, project_key, session_ref, tool_name, door, result. Returns {status:\"ok\", total, offset, next_offset, entries}. For a Control Plane project (project_key of casefile prepare --control-plane), ledger is governance (default), ho2m, ho1m or a per-session SES-…/exec|evidence|chat ledger, filtered by event_type (seed 004). Read-only.",
  readOnly: true,
  input: queryInput,
  inputHint: QUERY_HINT,
  // A Control Plane project's ledgers (governance, ho2m, ho1m, …) dispatch to its source; "audit" stays here (issue 11).
  run: async (ctx, input) => (await dispatchControlPlaneTool(ctx, "query_ledger_full", input)) ?? queryLedger(ctx, input),
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

/** The dashboard's "written by" on evidence chains: each chain's last writer, from the ledger. Read-only. */
export const getChainAuthorsTool = defineTool({
  name: "get_chain_authors",
  title: "Get chain authors",
  description: "Who last wrote or corrected each evidence chain of a session (door, client, tool, time, receipt), from the audit ledger. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1), session_ref: z.string().min(1) }),
  inputHint: "pass {project_key, session_ref}",
  run: async (ctx, input): Promise<{ status: "ok"; authors: Record<string, ChainAuthor> }> => ({
    status: "ok",
    authors: await chainAuthors(getLedger(ctx.workspaceRoot), input.project_key, input.session_ref),
  }),
});

export const ledgerTools = [queryLedgerFullTool, inspectLedgerTaskTool, getChainAuthorsTool];
