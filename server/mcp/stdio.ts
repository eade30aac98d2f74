import { tuneServerProcess } from "@/server/process-tuning";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { getLedger } from "@/lib/ledger/ledger-store";
import { openLedger } from "@/lib/ledger/reconcile";
import { LineStdioTransport } from "@/server/mcp/line-transport";
import { createMcpServer } from "@/server/mcp/server";

/**
 * Runs the MCP server on stdio for one workspace. stdout is the protocol channel: all logs go
 * to stderr. The process is tuned like the dashboard's (`tuneServerProcess`: heap growth, scans in
 * workers) and orphaned audit entries are reconciled first. Resolves when the transport closes.
 */
export async function runStdioMcp(workspaceRoot: string): Promise<void> {
  tuneServerProcess();
  const ctx = createCoreContext(workspaceRoot, { log: stderrLogger });
  // Seed 002: a door's start-up closes the gaps a crashed process left in the audit ledger.
  await openLedger(getLedger(ctx.workspaceRoot)).catch((error: Error) => ctx.log.warn(`audit ledger: reconciliation failed: ${error.message}`));
  const server = createMcpServer(ctx);
  const transport = new LineStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  ctx.log.info(`casefile MCP server ready on stdio (workspace ${ctx.workspaceRoot})`);
  await closed;
}
