/** What a tool is: name, input schema, audience, handler and result types. */
import * as z from "zod";

import type { CoreContext } from "@/lib/context";

/** Every tool result carries a `status`; `invalid` is the seeds' structured rejection. */
export type ToolResult = { status: string } & Record<string, unknown>;

/** One structured input error, as every door returns it (seed 000 error model). */
export type ToolInputError = { field: string; message: string; hint: string };

/** The registry's rejection of input that does not match a tool's schema. */
export type ToolInputInvalid = { status: "invalid"; errors: ToolInputError[] };

/**
 * Who may see a tool. `agent` tools are listed everywhere (MCP, CLI, HTTP); `dashboard` tools
 * (reviewer corrections, viewer windows) are callable through the CLI, HTTP and the dashboard
 * but not advertised to MCP clients, which should not delete a reviewer's work.
 */
export type ToolAudience = "agent" | "dashboard";

/**
 * A registered tool. `input` is the one rule for input validation: the registry parses the raw
 * input with it before `run` sees it, identically for every door. Tools whose contract defines
 * its own messages for badly typed fields (seed 000's `read_session_lines`, `write_evidence`)
 * declare those fields as `z.unknown()` and check them in `run`.
 */
export type ToolDefinition<S extends z.ZodObject = z.ZodObject, R extends ToolResult = ToolResult> = {
  name: string;
  title: string;
  description: string;
  /** True for tools that never write (MCP `readOnlyHint`). */
  readOnly: boolean;
  audience: ToolAudience;
  input: S;
  /** The hint attached to every input-schema error. */
  inputHint: string;
  /** Method syntax on purpose: a list of tools (`AnyToolDefinition[]`) holds tools of every input type. */
  run(ctx: CoreContext, input: z.output<S>): Promise<R>;
};

/** Any registered tool, whatever its schema and result (for lists such as the registry's). */
export type AnyToolDefinition = ToolDefinition<z.ZodObject, ToolResult>;

/**
 * Declares a tool (issue 8, "one way into the core"). `audience` defaults to `agent`.
 * The definition is inert: only the registry's `callTool`/`invokeTool` runs it.
 */
export function defineTool<S extends z.ZodObject, R extends ToolResult>(
  def: Omit<ToolDefinition<S, R>, "audience"> & { audience?: ToolAudience },
): ToolDefinition<S, R> {
  return { ...def, audience: def.audience ?? "agent" };
}

/** {@link defineTool} for a tool that never writes (`readOnly: true`, MCP `readOnlyHint`). */
export function defineReadTool<S extends z.ZodObject, R extends ToolResult>(
  def: Omit<ToolDefinition<S, R>, "audience" | "readOnly"> & { audience?: ToolAudience },
): ToolDefinition<S, R> {
  return defineTool({ ...def, readOnly: true });
}

/**
 * Parses raw input with the tool's schema. Returns the parsed value, or the `invalid` result
 * every door returns: one `{field, message, hint}` per zod issue, `field` the dotted path
 * (`input` for the whole value).
 */
export function parseToolInput<S extends z.ZodObject>(tool: ToolDefinition<S, ToolResult>, raw: unknown): { ok: true; value: z.output<S> } | { ok: false; result: ToolInputInvalid } {
  const parsed = tool.input.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join(".") || "input", message: issue.message, hint: issueHint(issue) ?? tool.inputHint }));
  return { ok: false, result: { status: "invalid", errors } };
}

/**
 * The schema MCP is given for a tool: it advertises the tool's JSON Schema (types, enums,
 * defaults, required fields) but accepts any object, so the MCP SDK never rejects a call
 * with a protocol error (-32602) before the registry can return the same `invalid` result
 * as the CLI and HTTP doors.
 */
export function advertisedInputSchema(tool: AnyToolDefinition): z.ZodObject {
  const { $schema: _drop, ...jsonSchema } = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return z.looseObject({}).meta(jsonSchema);
}

/** The hint a refinement gave its issue (`params.hint`, e.g. a query's parse error), if any. */
function issueHint(issue: z.core.$ZodIssue): string | undefined {
  const params = (issue as { params?: { hint?: unknown } }).params;
  return typeof params?.hint === "string" ? params.hint : undefined;
}
