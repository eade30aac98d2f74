/** The tool registry, the only way into the core: every tool, validated, audited, called. */
import type * as z from "zod";

import { analysisTools } from "@/lib/analysis/tools";
import { catalogTools, getUsageTool, listProjectsTool, listSessionsTool } from "@/lib/catalog/tools";
import type { CallInfo, CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { evidenceTools } from "@/lib/evidence/tools";
import { jsonText } from "@/lib/json/shared-values";
import { traceToolCall } from "@/lib/ledger/record-call";
import { ledgerTools } from "@/lib/ledger/tools";
import { overviewTools } from "@/lib/overview/tools";
import { pipelineTools } from "@/lib/pipeline/tools";
import { controlPlaneTools } from "@/lib/sources/control-plane/tools";
import { sessionReaderTools } from "@/lib/session-reader/tools";
import { synthesisTools } from "@/lib/synthesis/tools";
import { forensicsTools } from "@/lib/tools/session-forensics";
import { type AnyToolDefinition, parseToolInput, type ToolDefinition, type ToolInputInvalid, type ToolResult } from "@/lib/tools/define-tool";
import { workspaceTools } from "@/lib/workspace/tools";

export type { ToolResult } from "@/lib/tools/define-tool";

/**
 * Every tool, one line per domain (each domain declares its tools in `lib/<domain>/tools.ts`;
 * session_overview and reconstruct_session in `lib/tools/session-forensics.ts`, above the ledger whose reader they are given).
 * CLI, HTTP, MCP, server actions and the dashboard's reads all dispatch through
 * {@link callTool} / {@link invokeTool}, so validation, errors and auditing happen in one place
 * and a result is byte-identical whichever door it came through (issue 8, "one way in").
 */
export const TOOLS: readonly AnyToolDefinition[] = [...sessionReaderTools, listSessionsTool, ...workspaceTools, ...evidenceTools, ...synthesisTools, ...ledgerTools, ...forensicsTools, ...analysisTools, ...controlPlaneTools, listProjectsTool, ...overviewTools, ...pipelineTools, getUsageTool, ...catalogTools];

/** The tools advertised to agents (MCP's list): `dashboard` tools are left out. */
export const AGENT_TOOLS: readonly AnyToolDefinition[] = TOOLS.filter((t) => t.audience === "agent");

/** Finds a tool by name. */
export function findTool(name: string): AnyToolDefinition | undefined {
  return TOOLS.find((t) => t.name === name);
}

/** What one call came to: the registry refused its input, or the tool ran and returned a result. */
type Outcome<R extends ToolResult> = { rejected: ToolInputInvalid } | { result: R };

/**
 * The one place a tool's `run` is called: parses the raw input with the tool's schema, then
 * runs it, on the record of the audit ledger (seed 002, lib/ledger/record-call): every call
 * through every door gets a started and a finished entry, the schema check among its decisions.
 */
async function execute<S extends z.ZodObject, R extends ToolResult>(ctx: CoreContext, tool: ToolDefinition<S, R>, input: unknown, call: CallInfo): Promise<Outcome<R>> {
  const meta = { toolName: tool.name, readOnly: tool.readOnly, input, call };
  return traceToolCall<Outcome<R>>(
    ctx,
    meta,
    async (traced) => {
      const parsed = parseToolInput(tool, input);
      traced.trace?.policy("input.schema", parsed.ok ? "allow" : "deny", parsed.ok ? undefined : parsed.result.errors.map((e) => e.field).join(", "));
      if (!parsed.ok) return { rejected: parsed.result };
      return { result: await tool.run(traced, parsed.value) };
    },
    (outcome) => ("rejected" in outcome ? outcome.rejected : outcome.result),
  );
}

/**
 * Runs one tool with raw input: the tool's result, or the registry's `invalid` result when the
 * input does not match the tool's schema (identical for every door). The typed entry for
 * adapters that know the tool they call.
 * @throws AppError whatever the tool throws (not_found, conflict, parse_error, io_error).
 */
export async function invokeTool<S extends z.ZodObject, R extends ToolResult>(
  ctx: CoreContext,
  tool: ToolDefinition<S, R>,
  input: unknown,
  call: CallInfo,
): Promise<R | ToolInputInvalid> {
  const outcome = await execute(ctx, tool, input, call);
  return "rejected" in outcome ? outcome.rejected : outcome.result;
}

/**
 * {@link invokeTool} for the dashboard's own calls (door `ui`), whose input the UI builds: an
 * input the tool's schema rejects is a programming or URL error there, thrown as AppError
 * invalid_input with the field errors, so the result keeps the tool's own type.
 * @throws AppError invalid_input, or whatever the tool throws.
 */
export async function invokeToolForUi<S extends z.ZodObject, R extends ToolResult>(ctx: CoreContext, tool: ToolDefinition<S, R>, input: unknown): Promise<R> {
  const outcome = await execute(ctx, tool, input, { door: "ui", client: "ui" });
  if ("result" in outcome) return outcome.result;
  const { errors } = outcome.rejected;
  throw new AppError("invalid_input", errors.map((e) => `${e.field}: ${e.message}`).join("; "), {
    fieldErrors: Object.fromEntries(errors.map((e) => [e.field, [e.message]])),
    hint: tool.inputHint,
  });
}

/**
 * Calls a tool by name with raw input. Every door that takes a tool name goes through here.
 * @throws AppError not_found for an unknown tool; whatever the tool throws otherwise.
 */
export async function callTool(ctx: CoreContext, name: string, input: unknown, call: CallInfo): Promise<ToolResult> {
  const tool = findTool(name);
  if (!tool) {
    throw new AppError("not_found", `unknown tool '${name}'`, { hint: `use one of: ${TOOLS.map((t) => t.name).join(", ")}` });
  }
  return invokeTool(ctx, tool, input, call);
}

/**
 * Puts on the record a call a door refused before it reached the tool (HTTP: a Host or Origin
 * rule denied it; seed 002 records a call "regardless of whether the tool succeeded, failed, or
 * was denied"): a started entry and a `denied` finished entry carrying the door's decisions, the
 * refusal as output. The tool does not run. An unknown tool name is not recorded. Like every
 * traced call, a ledger that cannot be written is logged, not thrown.
 */
export async function recordRefusedCall(ctx: CoreContext, name: string, input: unknown, call: CallInfo, reason: string): Promise<void> {
  const tool = findTool(name);
  if (!tool) return;
  const refusal = { status: "denied", error: { code: "forbidden", message: reason } };
  await traceToolCall(ctx, { toolName: tool.name, readOnly: tool.readOnly, input, call }, async () => refusal, (value) => value);
}

/** True when a tool result is a success (anything but the seeds' `invalid` status). */
export const isToolSuccess = (result: ToolResult): boolean => result.status !== "invalid";

/**
 * The canonical JSON text of a tool result, identical across doors: exactly `JSON.stringify`,
 * reusing the remembered text of shared values inside it (lib/json/shared-values: cached compact
 * records), so a warm window is not serialized again (issue 13).
 */
export const serializeToolResult = (result: ToolResult): string => jsonText(result) ?? "null";
