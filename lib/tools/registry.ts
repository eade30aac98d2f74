import type * as z from "zod";

import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { writeEvidenceInputSchema } from "@/lib/evidence/tool-input";
import { writeEvidence } from "@/lib/evidence/write-evidence";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { readSessionLinesInputSchema } from "@/lib/session-reader/schema";
import { writeWorkItemInputSchema } from "@/lib/synthesis/tool-input";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";
import { listSessions } from "@/lib/workspace/list-sessions";
import { listSessionsInputSchema } from "@/lib/workspace/schema";

/** Every tool result carries a `status`; `invalid` is the seeds' structured rejection. */
export type ToolResult = { status: string } & Record<string, unknown>;

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  /** The zod object MCP advertises; the handler still validates `unknown` input itself. */
  inputSchema: z.ZodObject;
  /** True for tools that never write (MCP `readOnlyHint`). */
  readOnly: boolean;
  handler: (ctx: CoreContext, input: unknown) => Promise<ToolResult>;
};

/**
 * The one place that names each tool, its input schema and its handler. CLI, HTTP and MCP
 * all dispatch through {@link callTool}, so a result is byte-identical whichever door it came
 * through (issue 2, "Doors").
 */
export const TOOLS: readonly ToolDefinition[] = [
  {
    name: "read_session_lines",
    title: "Read session lines",
    description:
      "Read a physical line range (1-based, inclusive) of one indexed session, resolved by (project_key, session_ref). Compact mode (default) returns one bounded structured record per line, at most 2000 lines; full mode returns the raw JSONL lines, at most 100. Read-only.",
    inputSchema: readSessionLinesInputSchema,
    readOnly: true,
    handler: (ctx, input) => readSessionLines(ctx, input) as Promise<ToolResult>,
  },
  {
    name: "list_sessions",
    title: "List sessions",
    description:
      "List a project's indexed sessions with started_at, ended_at, duration_seconds, turn_count, first_user_message, subagent_count and size_bytes; paginated with limit/offset, sortable, filterable by text. Read-only.",
    inputSchema: listSessionsInputSchema,
    readOnly: true,
    handler: (ctx, input) => listSessions(ctx, input) as Promise<ToolResult>,
  },
  {
    name: "write_evidence",
    title: "Write evidence",
    description:
      "Check one draft evidence chain and write it to the canonical session evidence card projects/<project_key>/evidence/<session_ref>.json (seed 000). Input is one chain for the assigned turn_ref, not a full card; the card is created from project.json and the session index row when missing, otherwise validated and appended to. A card holds at most one chain per turn_ref. Citations are {\"lines\": \"<start>-<end>\"} spans inside the indexed turn; material outcomes must cite agent reaction evidence, not only trigger evidence; terminal_state is required, and material_result needs at least one outcome. Returns {status:\"appended\", project_key, session_ref, turn_ref}, or {status:\"invalid\", errors:[{path, message, hint}]} with nothing written: correct the draft from the errors and retry. Append-only.",
    inputSchema: writeEvidenceInputSchema,
    readOnly: false,
    handler: (ctx, input) => writeEvidence(ctx, input) as Promise<ToolResult>,
  },
  {
    name: "write_work_item",
    title: "Write work item",
    description:
      "Check one project-level work item and append it to the canonical project synthesis envelope projects/<project_key>/project-synthesis.json (seed 001). Input is {project_key, work_item}: one item with a unique W%04d work_item_ref, a kind (material_work_item | no_material_work_item | evidence_gap_item | excluded_with_reason), a title, covered_turns [{session_ref, turn_ref}] naming indexed turns that no committed item covers yet, and a confidence. An evidence_gap_item covers only turns with no committed evidence chain, every other kind only turns with one; material_work_item needs trigger, agent_reaction and at least one outcome or terminal_state; evidence_gap_item and excluded_with_reason carry no narrative; excluded_with_reason needs a reason; evidence_refs cite only this item's covered turns that have a chain; no secrets, credentials or absolute paths in any text. The first write creates the envelope and copies the evidence cards' quoted user messages into source_user_messages. Every result lists uncovered_turns, the indexed turns no committed item covers yet: {status:\"appended\", project_key, work_item_ref, uncovered_turns}, or {status:\"invalid\", errors:[{path, message, hint}], uncovered_turns} with nothing written: correct the item from the errors and retry. Submit items until uncovered_turns is empty. Append-only.",
    inputSchema: writeWorkItemInputSchema,
    readOnly: false,
    handler: (ctx, input) => writeWorkItem(ctx, input) as Promise<ToolResult>,
  },
];

/** Finds a tool by name. */
export function findTool(name: string): ToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

/**
 * Calls a tool by name with raw input. Every door goes through here.
 * @throws AppError not_found for an unknown tool; whatever the handler throws otherwise.
 */
export async function callTool(ctx: CoreContext, name: string, input: unknown): Promise<ToolResult> {
  const tool = findTool(name);
  if (!tool) {
    throw new AppError("not_found", `unknown tool '${name}'`, { hint: `use one of: ${TOOLS.map((t) => t.name).join(", ")}` });
  }
  return tool.handler(ctx, input);
}

/** True when a tool result is a success (anything but the seeds' `invalid` status). */
export const isToolSuccess = (result: ToolResult): boolean => result.status !== "invalid";

/** The canonical JSON text of a tool result, identical across doors. */
export const serializeToolResult = (result: ToolResult): string => JSON.stringify(result);
