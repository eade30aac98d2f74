import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

import { createCoreContext, stderrLogger } from "@/lib/context";
import { createMcpServer } from "@/server/mcp/server";

/**
 * Runs the MCP server on stdio for one workspace. stdout is the protocol channel: all logs go
 * to stderr. Resolves when the transport closes.
 */
export async function runStdioMcp(workspaceRoot: string): Promise<void> {
  const ctx = createCoreContext(workspaceRoot, { log: stderrLogger });
  const server = createMcpServer(ctx);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.log.info(`casefile MCP server ready on stdio (workspace ${ctx.workspaceRoot})`);
  await closed;
}
