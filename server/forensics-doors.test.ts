import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callToolHandler } from "@/server/http/tools";
import { createMcpServer } from "@/server/mcp/server";

/** Seed 004's five tools, as an extraction agent sees them. */
const FIVE = ["list_sessions", "session_overview", "reconstruct_session", "query_ledger_full", "grep_jsonl"] as const;

let mcp: Client;

beforeAll(async () => {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(30), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 30 }] }]);
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "forensics-doors-test", version: "1" });
  await mcp.connect(clientSide);
});

async function viaMcp(tool: string, input: object): Promise<string> {
  const result = await mcp.callTool({ name: tool, arguments: input as Record<string, unknown> });
  return (result.content as { type: string; text: string }[])[0]!.text;
}

async function viaHttp(tool: string, input: object): Promise<string> {
  const request = new Request(`http://127.0.0.1/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) });
  return (await callToolHandler(request, { params: Promise.resolve({ tool }) })).text();
}

const base = { project_key: TEST_PROJECT_KEY, session_ref: "S0001" };

describe("seed 004's five tools through MCP and HTTP", () => {
  it("lists the five as read-only MCP tools with their paging parameters", async () => {
    const { tools } = await mcp.listTools();
    for (const name of FIVE) {
      const tool = tools.find((t) => t.name === name);
      expect(tool, name).toBeDefined();
      expect(tool!.annotations?.readOnlyHint, name).toBe(true);
    }
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    expect(props("list_sessions")).toEqual(expect.arrayContaining(["limit", "offset"]));
    expect(props("session_overview")).toEqual(expect.arrayContaining(["limit", "offset"]));
    expect(props("reconstruct_session")).toEqual(expect.arrayContaining(["limit", "offset", "max_bytes", "verbosity", "include_prompts", "include_tool_payloads"]));
    expect(props("query_ledger_full")).toEqual(expect.arrayContaining(["ledger", "max_entries", "offset", "max_bytes"]));
    expect(props("grep_jsonl")).toEqual(expect.arrayContaining(["pattern", "ledger", "limit", "offset", "max_bytes"]));
  });

  it.each([
    ["session_overview", { ...base, limit: 5 }],
    ["reconstruct_session", { ...base, limit: 7, offset: 3, verbosity: "full" }],
    ["grep_jsonl", { ...base, pattern: "message [12]\\d", limit: 4, offset: 2 }],
    ["query_ledger_full", { ...base, ledger: "main", max_entries: 3, offset: 1 }],
    ["list_sessions", { project_key: TEST_PROJECT_KEY, limit: 1 }],
  ] as const)("%s: MCP and HTTP return the same JSON", async (tool, input) => {
    const mcpText = await viaMcp(tool, input);
    expect(JSON.parse(mcpText).status).toBe("ok");
    expect(await viaHttp(tool, input)).toBe(mcpText);
  });
});
