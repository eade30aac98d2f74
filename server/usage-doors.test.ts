import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { findTool } from "@/lib/tools/registry";
import { callToolHandler } from "@/server/http/tools";
import { createMcpServer } from "@/server/mcp/server";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

const user = (ts: string, text: string) => JSON.stringify({ type: "user", timestamp: ts, message: { role: "user", content: text } });
const reply = (ts: string, id: string, output: number) =>
  JSON.stringify({ type: "assistant", timestamp: ts, requestId: `req-${id}`, message: { id, model: "claude-sonnet-4-5-20250929", role: "assistant", content: [{ type: "text", text: "ok" }], usage: { input_tokens: 100, output_tokens: output, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 } } });

let root = "";
let mcp: Client;

beforeAll(async () => {
  root = await buildTestWorkspace([
    { ref: "S0001", content: [user("2026-03-01T10:00:00Z", "hi"), reply("2026-03-01T10:00:05Z", "m1", 1), reply("2026-03-01T10:00:06Z", "m1", 40)].join("\n") + "\n" },
    { ref: "S0002", content: [user("2026-03-09T10:00:00Z", "again"), reply("2026-03-09T10:00:05Z", "m2", 60)].join("\n") + "\n" },
  ]);
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "usage-doors-test", version: "1" });
  await mcp.connect(clientSide);
});

async function viaCli(args: string[]): Promise<{ code: number; text: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSX, CLI, ...args, "--workspace", root]);
    return { code: 0, text: stdout.trimEnd() };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, text: e.stdout.trimEnd() };
  }
}

async function viaHttp(input: object): Promise<{ status: number; text: string }> {
  const request = new Request("http://127.0.0.1/api/tools/get_usage", { method: "POST", body: JSON.stringify(input) });
  const response = await callToolHandler(request, { params: Promise.resolve({ tool: "get_usage" }) });
  return { status: response.status, text: await response.text() };
}

async function viaMcp(input: object): Promise<{ isError: boolean; text: string }> {
  const result = await mcp.callTool({ name: "get_usage", arguments: input as Record<string, unknown> });
  return { isError: Boolean(result.isError), text: (result.content as { text: string }[])[0]!.text };
}

describe("get_usage through every door", { timeout: 300_000 }, () => {
  it("is registered read-only and listed to agents", () => {
    expect(findTool("get_usage")).toMatchObject({ readOnly: true, audience: "agent" });
  });

  it("answers the same through the CLI (tool and usage --json), HTTP and MCP", async () => {
    const input = { group_by: "session" };
    const [cli, usageCli, http, fromMcp] = await Promise.all([viaCli(["tool", "get_usage", JSON.stringify(input)]), viaCli(["usage", "session", "--json"]), viaHttp(input), viaMcp(input)]);
    expect(cli.code).toBe(0);
    expect(http.status).toBe(200);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect(usageCli.text).toBe(cli.text);
    const result = JSON.parse(cli.text) as { rows: { key: string; session_id: string; output_tokens: number; total_tokens: number; cost_usd: number }[]; totals: { output_tokens: number } };
    // The streamed message m1 counts once, with its last line's 40 output tokens.
    expect(result.rows.map((r) => [r.key, r.session_id, r.output_tokens, r.total_tokens])).toEqual([
      [`${TEST_PROJECT_KEY}/S0001`, "S0001-id", 40, 1140],
      [`${TEST_PROJECT_KEY}/S0002`, "S0002-id", 60, 1160],
    ]);
    expect(result.rows[0]!.cost_usd).toBeCloseTo(100 * 3e-6 + 40 * 15e-6 + 1000 * 3e-7, 12);
    expect(result.totals.output_tokens).toBe(100);
  });

  it("groups by week and filters by day the same way everywhere", async () => {
    const input = { group_by: "week", since: "2026-03-02" };
    const [http, fromMcp] = await Promise.all([viaHttp(input), viaMcp(input)]);
    expect(fromMcp.text).toBe(http.text);
    expect((JSON.parse(http.text) as { rows: { key: string; output_tokens: number }[] }).rows.map((r) => [r.key, r.output_tokens])).toEqual([["2026-03-09", 60]]);
  });

  it("rejects bad input with a structured error through every door", async () => {
    const input = { group_by: "year", timezone: "Mars/Base" };
    const [cli, http, fromMcp] = await Promise.all([viaCli(["tool", "get_usage", JSON.stringify(input)]), viaHttp(input), viaMcp(input)]);
    expect(cli.code).toBe(2);
    expect(http.status).toBe(400);
    expect(fromMcp.isError).toBe(true);
    expect(http.text).toBe(cli.text);
    const fields = (JSON.parse(cli.text) as { errors: { field: string }[] }).errors.map((e) => e.field).sort();
    expect(fields).toEqual(["group_by", "timezone"]);
  });
});
