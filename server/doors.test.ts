import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callToolHandler } from "@/server/http/tools";
import { createMcpServer } from "@/server/mcp/server";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

let root = "";
let mcp: Client;

beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(30) }]);
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "doors-test", version: "1" });
  await mcp.connect(clientSide);
});

async function viaCli(tool: string, input: object): Promise<{ code: number; text: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSX, CLI, "tool", tool, JSON.stringify(input), "--workspace", root]);
    return { code: 0, text: stdout.trimEnd() };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, text: e.stdout.trimEnd() };
  }
}

async function viaHttp(tool: string, input: object): Promise<{ status: number; text: string }> {
  const request = new Request(`http://127.0.0.1/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) });
  const response = await callToolHandler(request, { params: Promise.resolve({ tool }) });
  return { status: response.status, text: await response.text() };
}

async function viaMcp(tool: string, input: object): Promise<{ isError: boolean; text: string }> {
  const result = await mcp.callTool({ name: tool, arguments: input as Record<string, unknown> });
  const content = result.content as { type: string; text: string }[];
  return { isError: Boolean(result.isError), text: content[0]!.text };
}

const base = { project_key: TEST_PROJECT_KEY, session_ref: "S0001" };

describe("CLI, HTTP and MCP return identical JSON", () => {
  it.each([
    ["compact window", { ...base, start_line: 3, end_line: 7 }, true],
    ["full window", { ...base, start_line: 1, end_line: 2, mode: "full" }, true],
    ["unknown session", { ...base, session_ref: "S0404", start_line: 1, end_line: 1 }, false],
    ["range past the end", { ...base, start_line: 29, end_line: 31 }, false],
    ["full range too broad", { ...base, start_line: 1, end_line: 101, mode: "full" }, false],
  ])("read_session_lines: %s", async (_label, input, success) => {
    const [cli, http, fromMcp] = await Promise.all([viaCli("read_session_lines", input), viaHttp("read_session_lines", input), viaMcp("read_session_lines", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect(cli.code).toBe(success ? 0 : 2);
    expect(http.status).toBe(success ? 200 : 400);
    expect(fromMcp.isError).toBe(!success);
    expect(JSON.parse(cli.text).status).toBe(success ? "ok" : "invalid");
  });

  it("list_sessions answers the same through every door", async () => {
    const input = { project_key: TEST_PROJECT_KEY, limit: 5 };
    const [cli, http, fromMcp] = await Promise.all([viaCli("list_sessions", input), viaHttp("list_sessions", input), viaMcp("list_sessions", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect(JSON.parse(cli.text)).toMatchObject({ status: "ok", count: 1, total: 1, sessions: [{ session_ref: "S0001", turn_count: 1, first_user_message: "message 1" }] });
  });

  it("advertises read_session_lines with the seed's input schema and the full-mode warning", async () => {
    const { tools } = await mcp.listTools();
    const tool = tools.find((t) => t.name === "read_session_lines")!;
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(["end_line", "mode", "project_key", "session_ref", "start_line"]);
    const mode = (tool.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>).mode!;
    expect(mode.enum).toEqual(["compact", "full"]);
    expect(mode.description).toMatch(/full returns raw lines and can be very large/);
  });

  it("maps an unknown tool to a coded error on HTTP", async () => {
    const http = await viaHttp("no_such_tool", {});
    expect(http.status).toBe(404);
    expect(JSON.parse(http.text).error).toMatchObject({ code: "not_found", message: "unknown tool 'no_such_tool'" });
  });
});
