import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

import type { CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { callTool, isToolSuccess, serializeToolResult, TOOLS } from "@/lib/tools/registry";

export const CASEFILE_VERSION = "0.1.0";

/**
 * Builds the MCP server: one `registerTool` per registry entry, each handler a single
 * `callTool` so MCP returns the same JSON text as the CLI and HTTP doors. Seed-shaped
 * `invalid` results are returned as content with `isError: true`; AppErrors keep their code.
 */
export function createMcpServer(ctx: CoreContext): McpServer {
  const server = new McpServer({ name: "casefile", version: CASEFILE_VERSION });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (input: unknown) => {
        try {
          const result = await callTool(ctx, tool.name, input);
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
