import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";

import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

/* Each case spawns the MCP server through tsx: generous bounds for a loaded runner, never measures of speed. */
/** The SDK's 60 s request limit, raised: a loaded runner starts tsx and moves 10 MiB slowly. */
const SLOW = { timeout: 240_000 };

describe("casefile mcp (stdio)", { timeout: 300_000 }, () => {
  it("serves read_session_lines over a real stdio transport, stdout carrying only the protocol", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(5) }]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "mcp", "--workspace", root],
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "1" });
    await client.connect(transport, SLOW);
    try {
      const { tools } = await client.listTools(undefined, SLOW);
      expect(tools.map((t) => t.name)).toContain("read_session_lines");
      const result = await client.callTool({ name: "read_session_lines", arguments: { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 5, end_line: 5 } }, undefined, SLOW);
      const body = JSON.parse((result.content as { text: string }[])[0]!.text);
      expect(body).toMatchObject({ status: "ok", line_range: { start: 5, end: 5 }, records: [{ line: 5, text_preview: "message 5" }] });
    } finally {
      await client.close();
    }
  });

  it("answers a message over 10 MiB with a JSON-RPC error naming the limit, and keeps serving", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(5) }]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "mcp", "--workspace", root],
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-big", version: "1" });
    await client.connect(transport, SLOW);
    try {
      const huge = "x".repeat(10 * 1024 * 1024 + 100_000);
      await expect(client.callTool({ name: "read_session_lines", arguments: { project_key: huge } }, undefined, SLOW)).rejects.toThrow(/exceeds the 10 MiB \(10485760 bytes\) limit/);
      const result = await client.callTool({ name: "read_session_lines", arguments: { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1, end_line: 1 } }, undefined, SLOW);
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toMatchObject({ status: "ok" });
    } finally {
      await client.close();
    }
  });
});
