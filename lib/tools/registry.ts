import type * as z from "zod";

import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { readSessionLinesInputSchema } from "@/lib/session-reader/schema";
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
