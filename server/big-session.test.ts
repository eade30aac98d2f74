import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { makeTempDir } from "@/lib/testing/shared";
import { getSessionDetail } from "@/lib/workspace/projects";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { callToolHandler } from "@/server/http/tools";
import { sessionLinesHandler } from "@/server/http/sessions";
import { createMcpServer } from "@/server/mcp/server";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");
const TURNS = 10_500;
const SESSION_ID = "b16b16b1-0000-4000-8000-000000010500";

let root = "";
let projectKey = "";
let mcp: Client;

/** A Claude Code transcript of `turns` turns: one human prompt and one assistant reply each (lines 2i-1, 2i). */
function bigTranscript(turns: number, cwd: string): string {
  const lines: string[] = [];
  for (let i = 1; i <= turns; i += 1) {
    const ts = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
    const base = { parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId: SESSION_ID, version: "2.1.6", gitBranch: "main" };
    lines.push(JSON.stringify({ ...base, type: "user", uuid: `u${i}`, timestamp: ts, message: { role: "user", content: `prompt ${i}` } }));
    lines.push(JSON.stringify({ ...base, type: "assistant", uuid: `a${i}`, timestamp: ts, message: { id: `m${i}`, type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: `reply ${i}` }], usage: { input_tokens: 1, output_tokens: 2 } } }));
  }
  return `${lines.join("\n")}\n`;
}

beforeAll(async () => {
  const sources = await makeTempDir("casefile-big-src-");
  const projectDir = path.join(sources, "-home-big-project");
  await fs.mkdir(projectDir, { recursive: true });
  await fs.writeFile(path.join(projectDir, `${SESSION_ID}.jsonl`), bigTranscript(TURNS, "/home/big/project"));
  root = await makeTempDir("casefile-big-ws-");
  const summary = await prepareWorkspace(createCoreContext(root), { claudeRoots: [sources] });
  projectKey = summary.projects[0]!.project_key;
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "big-session-test", version: "1" });
  await mcp.connect(clientSide);
}, 300_000);

/** Cases that spawn the CLI through tsx: a generous bound for a loaded runner, never a measure of speed. */
const SPAWNING_MS = 300_000;

async function viaCli(tool: string, input: object): Promise<string> {
  const { stdout } = await run(process.execPath, [TSX, CLI, "tool", tool, JSON.stringify(input), "--workspace", root], { maxBuffer: 64 << 20 });
  return stdout.trimEnd();
}

async function viaHttp(tool: string, input: object): Promise<{ status: number; text: string }> {
  const response = await callToolHandler(new Request(`http://127.0.0.1/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) }), { params: Promise.resolve({ tool }) });
  return { status: response.status, text: await response.text() };
}

async function viaMcp(tool: string, input: object): Promise<string> {
  const result = await mcp.callTool({ name: tool, arguments: input as Record<string, unknown> });
  expect(result.isError).toBeFalsy();
  return (result.content as { text: string }[])[0]!.text;
}

describe(`a session of ${TURNS.toLocaleString("en")} turns (issue 12, item 7)`, () => {
  it("prepare keeps writing T%04d: T0001 … T9999, then T10000 … T10500", async () => {
    const index = await fs.readFile(path.join(root, "projects", projectKey, "sessions.index.jsonl"), "utf8");
    const row = JSON.parse(index) as { turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[] };
    expect(row.turns).toHaveLength(TURNS);
    expect(row.turns[0]).toEqual({ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 2 });
    expect(row.turns[9998]!.turn_ref).toBe("T9999");
    expect(row.turns[9999]).toEqual({ turn_ref: "T10000", turn_start_line: 19_999, turn_end_line: 20_000 });
    expect(row.turns.at(-1)).toEqual({ turn_ref: "T10500", turn_start_line: 20_999, turn_end_line: 21_000 });
  });

  it("reads the last turns identically through the CLI, HTTP and MCP", async () => {
    const input = { project_key: projectKey, session_ref: "S0001", start_line: 19_999, end_line: 21_000 };
    const [cli, http, fromMcp] = await Promise.all([viaCli("read_session_lines", input), viaHttp("read_session_lines", input), viaMcp("read_session_lines", input)]);
    expect(http.status).toBe(200);
    expect(http.text).toBe(cli);
    expect(fromMcp).toBe(cli);
    const result = JSON.parse(cli) as { status: string; records: { line: number }[] };
    expect(result.status).toBe("ok");
    expect(result.records).toHaveLength(1002);
    expect(result.records.at(-1)!.line).toBe(21_000);
  }, SPAWNING_MS);

  it("lists it with its turn count through every door", async () => {
    const input = { project_key: projectKey };
    const [cli, http, fromMcp] = await Promise.all([viaCli("list_sessions", input), viaHttp("list_sessions", input), viaMcp("list_sessions", input)]);
    expect([http.text, fromMcp]).toEqual([cli, cli]);
    expect(JSON.parse(cli)).toMatchObject({ status: "ok", total: 1, sessions: [{ session_ref: "S0001", turn_count: TURNS, first_user_message: "prompt 1" }] });
  }, SPAWNING_MS);

  it("list_projects names the project_key, working directory and branch through every door (item 3)", async () => {
    const [cli, http, fromMcp] = await Promise.all([viaCli("list_projects", {}), viaHttp("list_projects", {}), viaMcp("list_projects", {})]);
    expect([http.text, fromMcp]).toEqual([cli, cli]);
    expect(JSON.parse(cli)).toEqual({
      status: "ok",
      count: 1,
      projects: [{ project_key: projectKey, project_label: "project", session_count: 1, turn_count: TURNS, cwd: "/home/big/project", git_branch: "main", broken_rows: [], last_activity_at: new Date(Date.UTC(2026, 10, 1) + TURNS * 1000).toISOString(), total_tokens: 3 * TURNS }],
    });
    const tools = (await mcp.listTools()).tools.find((t) => t.name === "list_projects");
    expect(tools?.annotations?.readOnlyHint).toBe(true);
    const wrong = await viaHttp("list_projects", { project_key: 1 });
    expect(wrong.status).toBe(200);
  }, SPAWNING_MS);

  it("opens in the dashboard: session detail and a line window of T10500", async () => {
    const detail = await getSessionDetail(createCoreContext(root), projectKey, "S0001");
    expect(detail.line_count).toBe(2 * TURNS);
    expect(detail.turns.at(-1)!.turn_ref).toBe("T10500");
    const url = `http://127.0.0.1/api/projects/${projectKey}/sessions/S0001/lines?start=20999&end=21000&mode=compact`;
    const response = await sessionLinesHandler(new Request(url), { params: Promise.resolve({ projectKey, sessionRef: "S0001" }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; records: { line: number }[] };
    expect(body.status).toBe("ok");
    expect(body.records.map((r) => r.line)).toEqual([20_999, 21_000]);
  });
});
