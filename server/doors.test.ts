import fs from "node:fs/promises";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { findTool } from "@/lib/tools/registry";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callToolHandler } from "@/server/http/tools";
import { cliDoor } from "@/server/__fixtures__/doors";
import { createMcpServer } from "@/server/mcp/server";


let root = "";
let mcp: Client;

beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(30), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 30 }] }]);
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "doors-test", version: "1" });
  await mcp.connect(clientSide);
});

function viaCli(tool: string, input: object): Promise<{ code: number; text: string }> {
  return cliDoor(root, tool, input);
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

/*
 * Every case spawns the CLI through tsx (seconds of start-up on a loaded runner, twice in the
 * write cases): the suites' time limits are generous bounds, never measures of speed.
 */
const SPAWNING = { timeout: 300_000 };

describe("CLI, HTTP and MCP return identical JSON", SPAWNING, () => {
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

  it("verify_ledgers on a project that is not a Control Plane one: the same invalid through every door (issue 26)", async () => {
    const input = { project_key: TEST_PROJECT_KEY };
    const [cli, http, fromMcp] = await Promise.all([viaCli("verify_ledgers", input), viaHttp("verify_ledgers", input), viaMcp("verify_ledgers", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([2, 400, true]);
    expect(JSON.parse(cli.text)).toMatchObject({ status: "invalid", errors: [{ field: "project_key", message: `'${TEST_PROJECT_KEY}' is not a control-plane project` }] });
  });

  it("list_sessions answers the same through every door", async () => {
    const input = { project_key: TEST_PROJECT_KEY, limit: 5 };
    const [cli, http, fromMcp] = await Promise.all([viaCli("list_sessions", input), viaHttp("list_sessions", input), viaMcp("list_sessions", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect(JSON.parse(cli.text)).toMatchObject({ status: "ok", count: 1, total: 1, sessions: [{ session_ref: "S0001", turn_count: 1, first_user_message: "message 1" }] });
  });

  it("search_sessions answers the same through every door (issue 25)", async () => {
    const input = { query: '"message 1"', project_key: TEST_PROJECT_KEY, limit: 5 };
    // The index filled first (as the dashboard's watcher does): a one-shot CLI call fills it itself, a long-running door answers from it.
    await refreshCatalog(createCoreContext(root));
    await fillFullText(createCoreContext(root));
    const [cli, http, fromMcp] = await Promise.all([viaCli("search_sessions", input), viaHttp("search_sessions", input), viaMcp("search_sessions", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    const result = JSON.parse(cli.text) as { status: string; total: number; hits: { session_ref: string; line_number: number; snippet: string }[] };
    expect(result.status).toBe("ok");
    expect(result.total).toBeGreaterThan(0);
    expect(result.hits.length).toBe(Math.min(5, result.total));
    for (const hit of result.hits) expect(hit).toMatchObject({ project_key: TEST_PROJECT_KEY, session_ref: "S0001" });
    for (const hit of result.hits) expect(hit.snippet.toLowerCase()).toContain("[[message 1]]");
  });

  it("workspace_status answers the same through every door, from the catalog where no pipeline runs (issue 36 item 2)", async () => {
    await refreshCatalog(createCoreContext(root));
    await fillFullText(createCoreContext(root));
    const [cli, http, fromMcp] = await Promise.all([viaCli("workspace_status", {}), viaHttp("workspace_status", {}), viaMcp("workspace_status", {})]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([0, 200, false]);
    expect(JSON.parse(cli.text)).toEqual({ status: "ok", phase: "ready", done: 1, total: 1, sessions_indexed: 1, sessions_total: 1, started_at: null, last_error: null });
  });

  it("advertises read_session_lines with the seed's input schema and the full-mode warning", async () => {
    const { tools } = await mcp.listTools();
    const tool = tools.find((t) => t.name === "read_session_lines")!;
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(["end_line", "mode", "project_key", "session_ref", "start_line"]);
    const mode = (tool.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>).mode!;
    expect(mode.enum).toEqual(["compact", "full"]);
    expect(mode.description).toMatch(/full returns raw lines and can be very large/);
  });

  it.each([
    ["read_session_lines: start_line a string", "read_session_lines", { ...base, start_line: "3", end_line: 7 }, "start_line"],
    ["read_session_lines: missing end_line", "read_session_lines", { ...base, start_line: 3 }, "end_line"],
    ["read_session_lines: mode not an enum value", "read_session_lines", { ...base, start_line: 1, end_line: 2, mode: "raw" }, "mode"],
    ["list_sessions: limit not a number", "list_sessions", { project_key: TEST_PROJECT_KEY, limit: "many" }, "limit"],
    ["list_sessions: project_key a number", "list_sessions", { project_key: 42 }, "project_key"],
    ["list_sessions: order not an enum value", "list_sessions", { project_key: TEST_PROJECT_KEY, order: "sideways" }, "order"],
    ["query_ledger_full: max_entries not a number", "query_ledger_full", { ledger: "audit", max_entries: "many" }, "max_entries"],
    ["query_ledger_full: result not an enum value", "query_ledger_full", { result: "maybe" }, "result"],
    ["inspect_ledger_task: task_id a number", "inspect_ledger_task", { task_id: 8 }, "task_id"],
  ])("a wrongly typed input gets the same invalid result through every door: %s", async (_label, tool, input, field) => {
    const [cli, http, fromMcp] = await Promise.all([viaCli(tool, input), viaHttp(tool, input), viaMcp(tool, input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([2, 400, true]);
    const result = JSON.parse(cli.text) as { status: string; errors: { field: string; message: string; hint: string }[] };
    expect(result.status).toBe("invalid");
    expect(result.errors.map((e) => e.field)).toContain(field);
    for (const error of result.errors) expect(Object.keys(error)).toEqual(["field", "message", "hint"]);
  });

  const WHOLE = (field: string, got: string) => `${field} must be a whole number (a JSON number), not ${got}`;
  const DATE = (field: string, got: string) => `${field} must be a date that exists (YYYY-MM-DD) or an ISO timestamp with its offset (2026-11-20T10:00:00Z), not the string ${JSON.stringify(got)}`;
  it.each([
    ["search_sessions: limit a string of digits", "search_sessions", { query: "message 1", limit: "10" }, "limit", WHOLE("limit", 'the string "10"')],
    ["search_sessions: limit a boolean", "search_sessions", { query: "message 1", limit: true }, "limit", WHOLE("limit", "true")],
    ["search_sessions: limit an array", "search_sessions", { query: "message 1", limit: [5] }, "limit", WHOLE("limit", "an array")],
    ["search_sessions: offset a padded string", "search_sessions", { query: "message 1", offset: " 7 " }, "offset", WHOLE("offset", 'the string " 7 "')],
    ["search_sessions: since a day that does not exist", "search_sessions", { query: "message 1", since: "2026-02-30" }, "since", DATE("since", "2026-02-30")],
    ["search_sessions: until not a date", "search_sessions", { query: "message 1", until: "0" }, "until", DATE("until", "0")],
    ["list_sessions: limit a string of digits", "list_sessions", { project_key: TEST_PROJECT_KEY, limit: "10" }, "limit", WHOLE("limit", 'the string "10"')],
    ["grep_jsonl: offset a string of digits", "grep_jsonl", { project_key: TEST_PROJECT_KEY, pattern: "message", offset: "1" }, "offset", WHOLE("offset", 'the string "1"')],
    ["get_usage: since a day that does not exist", "get_usage", { group_by: "day", since: "2026-02-30" }, "since", 'since must be a date that exists, YYYY-MM-DD, not the string "2026-02-30"'],
    ["query_ledger_full: max_entries a string of digits", "query_ledger_full", { ledger: "audit", max_entries: "10" }, "max_entries", WHOLE("max_entries", 'the string "10"')],
  ])("issue 35: the same field, message and hint through every door: %s", async (_label, tool, input, field, message) => {
    const [cli, http, fromMcp] = await Promise.all([viaCli(tool, input), viaHttp(tool, input), viaMcp(tool, input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([2, 400, true]);
    expect(JSON.parse(cli.text)).toEqual({ status: "invalid", errors: [{ field, message, hint: findTool(tool)!.inputHint }] });
  });

  it("lists agent tools on MCP and keeps the dashboard's own tools off it", async () => {
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read_session_lines", "list_sessions", "write_evidence", "write_work_item"]));
    for (const hidden of ["delete_evidence_chain", "replace_evidence_chain", "read_viewer_lines", "write_operator_item"]) expect(names).not.toContain(hidden);
    const http = await viaHttp("read_viewer_lines", { ...base, start_line: 1, end_line: 2 });
    expect(http.status).toBe(200);
    expect(JSON.parse(http.text)).toMatchObject({ status: "ok", line_count: 30, records: [{ line: 1 }, { line: 2 }] });
  });

  it("maps an unknown tool to a coded error on HTTP", async () => {
    const http = await viaHttp("no_such_tool", {});
    expect(http.status).toBe(404);
    expect(JSON.parse(http.text).error).toMatchObject({ code: "not_found", message: "unknown tool 'no_such_tool'" });
  });

  const chain = {
    turn_ref: "T0001",
    trigger: { type: "explicit_user_message", summary: "User asked for work.", quoted_messages: [{ text: "message 1", citations: [{ lines: "1-1" }] }], citations: [{ lines: "1-1" }] },
    agent_reactions: [{ summary: "Agent worked.", citations: [{ lines: "2-5" }] }],
    outcomes: [{ category: "code_outcome", summary: "Code changed.", citations: [{ lines: "5-5" }] }],
    observed_checks: [],
    terminal_state: { type: "material_result", summary: "Done.", citations: [{ lines: "6-6" }] },
    materiality: "material",
  };
  const cardPath = () => path.join(root, "projects", TEST_PROJECT_KEY, "evidence", "S0001.json");

  it.each([
    ["stage A errors", { ...base, evidence_chain: { ...chain, materiality: "high", outcomes: [] } }],
    ["unknown session", { ...base, session_ref: "S0404", evidence_chain: chain }],
    ["citation outside the turn", { ...base, evidence_chain: { ...chain, terminal_state: { ...chain.terminal_state, citations: [{ lines: "30-31" }] } } }],
    ["outcome citing only trigger lines", { ...base, evidence_chain: { ...chain, outcomes: [{ ...chain.outcomes[0], citations: [{ lines: "1-1" }] }] } }],
    ["malformed span", { ...base, evidence_chain: { ...chain, trigger: { ...chain.trigger, citations: [{ lines: 2 }] } } }],
    ["chain that is not an object", { ...base, evidence_chain: "T0001" }],
    ["project_key that is not a string", { ...base, project_key: 7, evidence_chain: chain }],
  ])("write_evidence invalid: %s", async (_label, input) => {
    const [cli, http, fromMcp] = await Promise.all([viaCli("write_evidence", input), viaHttp("write_evidence", input), viaMcp("write_evidence", input)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([2, 400, true]);
    const result = JSON.parse(cli.text) as { status: string; errors: Record<string, unknown>[] };
    expect(result.status).toBe("invalid");
    for (const error of result.errors) expect(Object.keys(error)).toEqual(["path", "message", "hint"]);
  });

  it("write_evidence appends through every door with the same JSON, then each refuses the duplicate alike", async () => {
    const input = { ...base, evidence_chain: chain };
    const texts: string[] = [];
    for (const door of [viaCli, viaHttp, viaMcp]) {
      await fs.rm(cardPath(), { force: true });
      const result = await door("write_evidence", input);
      texts.push(result.text);
      expect("code" in result ? result.code : "status" in result ? result.status : result.isError).toBe("code" in result ? 0 : "status" in result ? 200 : false);
      expect(JSON.parse(await fs.readFile(cardPath(), "utf8")).evidence_chains).toEqual([chain]);
    }
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!)).toEqual({ status: "appended", project_key: TEST_PROJECT_KEY, session_ref: "S0001", turn_ref: "T0001" });
    const [cli, http, fromMcp] = await Promise.all([viaCli("write_evidence", input), viaHttp("write_evidence", input), viaMcp("write_evidence", input)]);
    expect([http.text, fromMcp.text]).toEqual([cli.text, cli.text]);
    expect(JSON.parse(cli.text).errors[0].message).toBe("turn_ref 'T0001' already has a committed evidence chain (duplicate)");
  });

  it("advertises write_evidence with seed 000's input schema, as a write tool", async () => {
    const { tools } = await mcp.listTools();
    const tool = tools.find((t) => t.name === "write_evidence")!;
    expect(tool.annotations?.readOnlyHint).toBe(false);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["project_key", "session_ref", "evidence_chain"]);
    const chainSchema = (tool.inputSchema.properties as Record<string, { properties: Record<string, { properties?: Record<string, { enum?: string[] }> }> }>).evidence_chain!;
    expect(Object.keys(chainSchema.properties)).toEqual(["turn_ref", "trigger", "agent_reactions", "outcomes", "observed_checks", "terminal_state", "materiality"]);
    expect(chainSchema.properties.trigger!.properties!.type!.enum).toEqual(["explicit_user_message", "implicit_context", "user_correction", "user_approval", "resume_or_continue"]);
  });
});

describe("write_work_item through every door", SPAWNING, () => {
  const envelopePath = () => path.join(root, "projects", TEST_PROJECT_KEY, "project-synthesis.json");
  const item = {
    work_item_ref: "W0001",
    kind: "no_material_work_item",
    title: "Asked for work",
    covered_turns: [{ session_ref: "S0001", turn_ref: "T0001" }],
    outcomes: [],
    terminal_states: [],
    limits: [],
    confidence: "low",
  };
  const input = { project_key: TEST_PROJECT_KEY, work_item: item };

  beforeAll(async () => {
    // A committed chain for S0001/T0001 (synthesis reads cards without re-validating them).
    const card = path.join(root, "projects", TEST_PROJECT_KEY, "evidence", "S0001.json");
    await fs.mkdir(path.dirname(card), { recursive: true });
    await fs.writeFile(card, JSON.stringify({ schema_version: 1, project_key: TEST_PROJECT_KEY, session_ref: "S0001", evidence_chains: [{ turn_ref: "T0001", trigger: { quoted_messages: [{ text: "message 1" }] } }] }));
  });

  it.each([
    ["stage A errors", { ...input, work_item: { ...item, kind: "material_work_item", confidence: "sure" } }],
    ["a secret and an absolute path", { ...input, work_item: { ...item, title: "see /home/alice/x.ts", limits: [["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("")] } }],
    ["unknown project", { ...input, project_key: "Nope-000000000000" }],
    ["covered turn not indexed", { ...input, work_item: { ...item, covered_turns: [{ session_ref: "S0404", turn_ref: "T0001" }] } }],
    ["work item that is not an object", { ...input, work_item: ["W0001"] }],
  ])("invalid: %s", async (_label, body) => {
    const [cli, http, fromMcp] = await Promise.all([viaCli("write_work_item", body), viaHttp("write_work_item", body), viaMcp("write_work_item", body)]);
    expect(http.text).toBe(cli.text);
    expect(fromMcp.text).toBe(cli.text);
    expect([cli.code, http.status, fromMcp.isError]).toEqual([2, 400, true]);
    const result = JSON.parse(cli.text) as { status: string; errors: Record<string, unknown>[] };
    expect(result.status).toBe("invalid");
    for (const error of result.errors) expect(Object.keys(error)).toEqual(["path", "message", "hint"]);
  });

  it("appends with the same JSON through every door, then each refuses the repeat alike", async () => {
    const texts: string[] = [];
    for (const door of [viaCli, viaHttp, viaMcp]) {
      await fs.rm(envelopePath(), { force: true });
      const result = await door("write_work_item", input);
      texts.push(result.text);
      expect(JSON.parse(await fs.readFile(envelopePath(), "utf8"))).toMatchObject({ work_items: [item], source_user_messages: [{ session_ref: "S0001", turn_ref: "T0001", messages: ["message 1"] }] });
    }
    expect(new Set(texts).size).toBe(1);
    expect(JSON.parse(texts[0]!)).toEqual({ status: "appended", project_key: TEST_PROJECT_KEY, work_item_ref: "W0001", uncovered_turns: [] });
    const [cli, http, fromMcp] = await Promise.all([viaCli("write_work_item", input), viaHttp("write_work_item", input), viaMcp("write_work_item", input)]);
    expect([http.text, fromMcp.text]).toEqual([cli.text, cli.text]);
    expect(JSON.parse(cli.text)).toMatchObject({
      status: "invalid",
      errors: [{ message: "work_item_ref 'W0001' is already used in the envelope" }, { message: "turn S0001/T0001 is already covered by another work item" }],
      uncovered_turns: [],
    });
  });

  it("advertises write_work_item with seed 001's input schema, as a write tool", async () => {
    const { tools } = await mcp.listTools();
    const tool = tools.find((t) => t.name === "write_work_item")!;
    expect(tool.annotations?.readOnlyHint).toBe(false);
    expect(tool.description).toMatch(/Every result lists uncovered_turns/);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(["project_key", "work_item"]);
    const schema = (tool.inputSchema.properties as Record<string, { properties: Record<string, { enum?: string[] }> }>).work_item!;
    expect(Object.keys(schema.properties)).toEqual(["work_item_ref", "kind", "title", "covered_turns", "trigger", "agent_reaction", "outcomes", "terminal_states", "limits", "reason", "confidence"]);
    expect(schema.properties.kind!.enum).toEqual(["material_work_item", "no_material_work_item", "evidence_gap_item", "excluded_with_reason"]);
  });
});
