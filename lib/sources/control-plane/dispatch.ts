/** Seed 004's forensic tools dispatched to Control Plane projects. */
import * as z from "zod";

import type { CoreContext } from "@/lib/context";
import { cpGrepJsonl, cpListSessions, cpQueryLedgerFull, cpReconstructSession, cpSessionOverview } from "@/lib/sources/control-plane/forensics";
import { controlPlaneLayoutFor } from "@/lib/sources/control-plane/projects";

/** Seed 004's five tools: the registered tools of these names dispatch here for control-plane projects. */
export const CP_FORENSIC_TOOL_NAMES = ["list_sessions", "session_overview", "reconstruct_session", "query_ledger_full", "grep_jsonl"] as const;
export type CpForensicToolName = (typeof CP_FORENSIC_TOOL_NAMES)[number];

const page = (limit: number) => ({ limit: z.number().int().min(1).max(5000).default(limit), offset: z.number().int().min(0).default(0) });
/** The session: `session_ref` (the transcript tools' name) or seed 004's `session_id`; a Control Plane session's ref is its `SES-…` id. */
const session = { session_ref: z.string().min(1).optional(), session_id: z.string().min(1).optional() };

/**
 * Seed 004's inputs for the five tools (§3 tool contracts, defaults included), read from the
 * registered tool's already-validated input: unknown fields (sort, order, q, …) are ignored.
 */
const INPUTS = {
  list_sessions: z.looseObject({ ...page(20) }),
  session_overview: z.looseObject({ ...session }),
  reconstruct_session: z.looseObject({
    ...session,
    ...page(100),
    max_bytes: z.number().int().min(1).default(50_000),
    verbosity: z.enum(["compact", "full"]).default("compact"),
    include_prompts: z.boolean().default(false),
    include_tool_payloads: z.boolean().default(true),
  }),
  query_ledger_full: z.looseObject({ ledger: z.string().min(1).default("governance"), event_type: z.string().min(1).optional(), max_entries: z.number().int().min(1).max(5000).default(10), offset: z.number().int().min(0).default(0) }),
  grep_jsonl: z.looseObject({ ledger: z.string().min(1), pattern: z.string().min(1), ...page(20) }),
} satisfies Record<CpForensicToolName, z.ZodObject>;

const HINT = "seed 004 inputs: limit/offset (≥ 0), session_ref or session_id SES-…, ledger governance|ho2m|ho1m|…, verbosity compact|full";

/**
 * The dispatch branch of seed 004's tools: when `input.project_key` names a registered
 * control-plane project, runs the Control Plane version of tool `name` and returns its result;
 * returns null for any other project, so the tool goes on with its transcript behaviour. Each
 * registered tool calls this as the first line of its `run` (one tool name per concept).
 * Bad input → `{status:"invalid", errors}`; unknown session or ledger → seed 004's `{status:"error"}`.
 * @throws AppError invalid_input when the registered root has gone.
 */
export async function dispatchControlPlaneTool(ctx: CoreContext, name: CpForensicToolName, input: unknown): Promise<{ status: string; [key: string]: unknown } | null> {
  const projectKey = (input as { project_key?: unknown } | null)?.project_key;
  if (typeof projectKey !== "string") return null;
  // `query_ledger_full`'s "audit" ledger is Casefile's own call record (project_key is a filter there).
  if (name === "query_ledger_full" && (input as { ledger?: unknown }).ledger === "audit") return null;
  const layout = await controlPlaneLayoutFor(ctx, projectKey);
  if (!layout) return null;
  const parsed = INPUTS[name].safeParse(input);
  if (!parsed.success) {
    return { status: "invalid", errors: parsed.error.issues.map((i) => ({ field: i.path.map(String).join(".") || "input", message: i.message, hint: HINT })) };
  }
  // Each case reads the fields of its own schema above (INPUTS[name] parsed them with defaults).
  const v = parsed.data as Record<string, unknown> & { limit: number; offset: number; ledger: string; max_entries: number; event_type?: string; pattern: string };
  const sessionId = (v.session_ref ?? v.session_id) as string | undefined;
  const needSession = () => ({ status: "invalid", errors: [{ field: "session_ref", message: "a session is required", hint: HINT }] });
  const result = await (async () => {
    switch (name) {
      case "list_sessions":
        return cpListSessions(layout, v);
      case "session_overview":
        return sessionId ? cpSessionOverview(layout, sessionId) : needSession();
      case "reconstruct_session":
        return sessionId ? cpReconstructSession(layout, { ...(v as object as Parameters<typeof cpReconstructSession>[1]), session_id: sessionId }) : needSession();
      case "query_ledger_full":
        return cpQueryLedgerFull(layout, v);
      case "grep_jsonl":
        return cpGrepJsonl(layout, v);
    }
  })();
  return { project_key: projectKey, source_kind: "control-plane", ...result };
}
