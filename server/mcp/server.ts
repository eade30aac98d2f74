import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import type { CoreContext, PolicyDecision } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { advertisedInputSchema } from "@/lib/tools/define-tool";
import { AGENT_TOOLS, callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { unwrapArguments } from "@/server/mcp/line-transport";

export const CASEFILE_VERSION = "0.1.0";

/**
 * Builds the MCP server: one `registerTool` per agent tool of the registry, each handler a single
 * `callTool` so MCP returns the same JSON text as the CLI and HTTP doors. The SDK is given an
 * advertise-only schema, so a wrongly typed input reaches the registry and comes back as the
 * same `invalid` result as through the other doors, not as a -32602 protocol error; arguments
 * that are not an object at all arrive wrapped by the transport and are unwrapped here. Seed-shaped
 * `invalid` results are returned as content with `isError: true`; AppErrors keep their code.
 * The call's client is the MCP client's name from its `initialize` request. `decisions`: the rules
 * the door evaluated before the call (MCP over HTTP: the Host and Origin checks), recorded with it.
 */
export function createMcpServer(ctx: CoreContext, door: { decisions?: PolicyDecision[] } = {}): McpServer {
  const server = new McpServer({ name: "casefile", version: CASEFILE_VERSION });
  for (const tool of AGENT_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: advertisedInputSchema(tool),
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (input: unknown) => {
        try {
          const client = server.server.getClientVersion()?.name;
          const result = await callTool(ctx, tool.name, unwrapArguments(input), { door: "mcp", client, ...(door.decisions ? { decisions: door.decisions } : {}) });
          return { content: [{ type: "text" as const, text: serializeToolResult(result) }], isError: !isToolSuccess(result) };
        } catch (error) {
          if (isAppError(error)) return { content: [{ type: "text" as const, text: `${error.code}: ${error.message}` }], isError: true };
          throw error;
        }
      },
    );
  }
  return server;
}
