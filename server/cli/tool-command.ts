import { createCoreContext, stderrLogger } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";

/**
 * `casefile tool <name> '<json>'`: prints the tool's result JSON (the same text MCP and HTTP
 * return) and exits 0 for a success status, 2 for `invalid`.
 * @throws AppError invalid_input for missing arguments or input that is not JSON.
 */
export async function runTool(workspace: string, name: string | undefined, rawInput: string | undefined): Promise<number> {
  if (!name) throw new AppError("invalid_input", "missing tool name", { hint: "casefile tool read_session_lines '{\"project_key\":...}'" });
  let input: unknown;
  try {
    input = JSON.parse(rawInput ?? "{}");
  } catch (error) {
    throw new AppError("invalid_input", `tool input is not valid JSON: ${(error as Error).message}`, { hint: "quote the JSON input in single quotes" });
  }
  // One call, then the process ends: nothing is left running for a later call (see CoreContext.oneShot).
  const ctx = createCoreContext(workspace, { log: stderrLogger, oneShot: true });
  const result = await callTool(ctx, name, input, { door: "cli" });
  process.stdout.write(`${serializeToolResult(result)}\n`);
  return isToolSuccess(result) ? 0 : 2;
}
