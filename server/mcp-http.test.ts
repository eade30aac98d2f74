import fs from "node:fs/promises";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";

import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { mcpHandler, mcpNotAllowed } from "@/server/http/mcp";
import { callToolHandler } from "@/server/http/tools";

let root = "";
let mcp: Client;

beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(12), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 12 }] }]);
  process.env.CASEFILE_WORKSPACE = root;
  // The SDK's own HTTP client, its requests handed to the route's handler as a server would.
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/api/mcp"), { fetch: (url, init) => mcpHandler(new Request(url, init)) });
  mcp = new Client({ name: "mcp-http-test", version: "1" });
  await mcp.connect(transport);
});

async function viaHttp(tool: string, input: object): Promise<string> {
  const response = await callToolHandler(new Request(`http://127.0.0.1:3000/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) }), { params: Promise.resolve({ tool }) });
  return response.text();
}

async function viaMcpHttp(tool: string, input: object): Promise<{ isError: boolean; text: string }> {
  const result = await mcp.callTool({ name: tool, arguments: input as Record<string, unknown> });
  return { isError: Boolean(result.isError), text: (result.content as { text: string }[])[0]!.text };
}

describe("MCP over Streamable HTTP (POST /api/mcp, issue 39)", () => {
  it("lists the agent tools and answers a call with the same JSON as the HTTP tool door", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read_session_lines", "list_sessions", "write_evidence", "search_sessions"]));
    const input = { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 2, end_line: 5 };
    const [http, fromMcp] = await Promise.all([viaHttp("read_session_lines", input), viaMcpHttp("read_session_lines", input)]);
    expect(fromMcp).toEqual({ isError: false, text: http });
    expect(JSON.parse(http)).toMatchObject({ status: "ok" });
  });

  it("a bad input comes back as the registry's invalid result, with isError", async () => {
    const input = { project_key: TEST_PROJECT_KEY, session_ref: "S0404", start_line: 1, end_line: 1 };
    const [http, fromMcp] = await Promise.all([viaHttp("read_session_lines", input), viaMcpHttp("read_session_lines", input)]);
    expect(fromMcp).toEqual({ isError: true, text: http });
  });

  it("records each call in the audit ledger as the mcp door with the HTTP door's decisions", async () => {
    await viaMcpHttp("list_sessions", { project_key: TEST_PROJECT_KEY });
    const traces = await fs.readFile(path.join(root, "audit", "traces", "tool-traces.jsonl"), "utf8");
    const entries = traces.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    const started = entries.filter((e) => e.kind === "tool_call_started" && e.tool_name === "list_sessions" && e.door === "mcp");
    // Stateless: each request meets a new server, which never saw the client's initialize, so no client name.
    expect(started.length).toBeGreaterThan(0);
    const finished = entries.find((e) => e.kind === "tool_call_finished" && e.receipt_id === started.at(-1)!.receipt_id) as { policy_decisions: { policy_id: string; decision: string }[] };
    expect(finished.policy_decisions.map((d) => d.policy_id)).toEqual(expect.arrayContaining(["door.host", "door.mcp"]));
  });

  it("GET and DELETE are 405 (a stateless server: no SSE stream, no sessions)", async () => {
    const response = mcpNotAllowed();
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("a body over the limit is refused with 413 before it is parsed", async () => {
    const big = "x".repeat(10 * 1024 * 1024 + 10);
    const response = await mcpHandler(new Request("http://127.0.0.1:3000/api/mcp", { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: big }));
    expect(response.status).toBe(413);
  });
});
