import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { getLedger } from "@/lib/ledger/ledger-store";
import type { FinishedEntry, StartedEntry } from "@/lib/ledger/schema";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { proxy } from "@/proxy";
import { createEvidenceChainAction } from "@/server/actions/evidence";
import { callToolHandler } from "@/server/http/tools";
import { createMcpServer } from "@/server/mcp/server";

/*
 * What the audit ledger records of each call through each door (issue 8, seed 002), on a
 * workspace prepared from a real corpus folder: the door and client, task_id, every policy rule
 * evaluated (Host/Origin, path containment, read-only approval, each validation stage) and the
 * files written. Each test reads back the receipts its own calls added.
 */

type Session = Awaited<ReturnType<typeof corpusSessions>>["sessions"][number];
type Call = { started: StartedEntry; finished: FinishedEntry };

let root = "";
let projectKey = "";
let sessions: Session[] = [];
let mcp: Client;
let seen = 0;

beforeAll(async () => {
  if (!HAS_SHARED) return;
  root = await corpusWorkspace();
  ({ projectKey, sessions } = await corpusSessions(root));
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  mcp = new Client({ name: "audit-agent", version: "2.0" });
  await mcp.connect(clientSide);
}, 120_000);

/** The calls completed since the last look, in ledger order. */
async function newCalls(): Promise<Call[]> {
  const index = await getLedger(root).read();
  const fresh = index.entries.slice(seen);
  seen = index.entries.length;
  return fresh.flatMap(({ entry }) => {
    if (entry.kind !== "tool_call_started") return [];
    const r = index.receipts.get(entry.receipt_id)!;
    return r.finished ? [{ started: entry, finished: r.finished }] : [];
  });
}

/** A card's bytes, or null when it does not exist (a refused call must leave it as it was). */
const cardBytes = (ref: string): Promise<string | null> => fs.readFile(path.join(root, "projects", projectKey, "evidence", `${ref}.json`), "utf8").catch(() => null);

const rules = (c: Call): string[] => c.finished.policy_decisions.map((d) => `${d.policy_id}:${d.decision}`);

/** A session with a turn of at least three lines, and that turn. */
function writableTurn(skip = 0): { s: Session; turn: Session["turns"][number] } {
  const candidates = sessions.flatMap((s) => s.turns.filter((t) => t.turn_end_line - t.turn_start_line >= 2).map((turn) => ({ s, turn })));
  return candidates[skip]!;
}

async function viaMcp(name: string, input: object): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  const result = await mcp.callTool({ name, arguments: input as Record<string, unknown> });
  return { isError: Boolean(result.isError), body: JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown> };
}

describe.skipIf(!HAS_SHARED)(`the audit ledger through every door${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("MCP: a write carries door mcp and the client's name, task_id project/session, every rule evaluated and the card it wrote", async () => {
    await newCalls();
    const { s, turn } = writableTurn();
    const input = { project_key: projectKey, session_ref: s.ref, evidence_chain: chainForTurn(turn) };
    const { isError, body } = await viaMcp("write_evidence", input);
    expect([isError, body.status]).toEqual([false, "appended"]);
    const [call] = await newCalls();
    expect(call!.started).toMatchObject({ tool_name: "write_evidence", door: "mcp", client: "audit-agent", task_id: `${projectKey}/${s.ref}`, input_hash: sha256Text(canonicalJson(input)) });
    expect(call!.started.scope_enforced).toEqual([
      { type: "path", pattern: `projects/${projectKey}/**`, access: "read" },
      { type: "path", pattern: `projects/${projectKey}/{evidence/*.json,project-synthesis.json}`, access: "write" },
    ]);
    expect(call!.finished).toMatchObject({ result: "success", status: "appended", artifacts_written: [`projects/${projectKey}/evidence/${s.ref}.json`] });
    expect(rules(call!)).toEqual([
      "door.mcp:allow",
      "tool.read_only:allow",
      "input.schema:allow",
      "workspace.writable:allow",
      "validation.input:allow",
      "validation.stage_a:allow",
      "path.containment:allow",
      "validation.stage_b:allow",
      "validation.stage_c:allow",
      "tool.validation:allow",
    ]);
    expect(call!.finished.policy_decisions.find((d) => d.policy_id === "tool.read_only")!.reason).toMatch(/^write tool/);
    expect(call!.finished.policy_decisions.find((d) => d.policy_id === "door.mcp")!.reason).toContain("audit-agent");
  });

  it("each validation stage that refuses is on record, later stages not evaluated, result failure, nothing written", async () => {
    await newCalls();
    const { s, turn } = writableTurn(1);
    const chain = chainForTurn(turn);
    const base = { project_key: projectKey, session_ref: s.ref };
    const before = await cardBytes(s.ref);
    const cases: [string, object, string[]][] = [
      ["input", { ...base, evidence_chain: [chain] }, ["validation.input:deny"]],
      ["stage A", { ...base, evidence_chain: { ...chain, materiality: "huge" } }, ["validation.input:allow", "validation.stage_a:deny"]],
      ["stage B", { ...base, session_ref: "S9999", evidence_chain: chain }, ["validation.input:allow", "validation.stage_a:allow", "validation.stage_b:deny"]],
      [
        "stage C",
        { ...base, evidence_chain: { ...chain, terminal_state: { type: "material_result", summary: "Done.", citations: [{ lines: `${turn.turn_end_line + 1}-${turn.turn_end_line + 1}` }] } } },
        ["validation.input:allow", "validation.stage_a:allow", "path.containment:allow", "validation.stage_b:allow", "validation.stage_c:deny"],
      ],
    ];
    for (const [label, input, stages] of cases) {
      const { isError, body } = await viaMcp("write_evidence", input);
      expect([label, isError, body.status]).toEqual([label, true, "invalid"]);
      const [call] = await newCalls();
      expect(call!.finished).toMatchObject({ result: "failure", status: "invalid", artifacts_written: [] });
      expect([label, rules(call!).filter((r) => r.startsWith("validation.") || r.startsWith("path."))]).toEqual([label, stages]);
      expect(rules(call!)).toContain("tool.validation:deny");
    }
    expect(await cardBytes(s.ref)).toBe(before);
  });

  it("a wrongly typed input through MCP is the registry's invalid result on record, as through the other doors", async () => {
    await newCalls();
    const input = { project_key: projectKey, session_ref: sessions[0]!.ref, start_line: "1", end_line: 2 };
    const fromMcp = await viaMcp("read_session_lines", input);
    const direct = await callTool(createCoreContext(root), "read_session_lines", input, { door: "cli" });
    expect(fromMcp.body).toEqual(direct);
    expect(fromMcp.body).toMatchObject({ status: "invalid", errors: [expect.objectContaining({ field: "start_line" })] });
    const calls = await newCalls();
    expect(calls.map((c) => [c.started.door, c.finished.result, c.finished.status])).toEqual([
      ["mcp", "failure", "invalid"],
      ["cli", "failure", "invalid"],
    ]);
    // read_session_lines checks its fields itself (the seed's messages): the tool's stage refuses.
    for (const c of calls) expect(c.finished.policy_decisions).toContainEqual({ policy_id: "tool.validation", decision: "deny", reason: "invalid: start_line" });
    const schema = await viaMcp("list_sessions", { project_key: projectKey, limit: "many" });
    expect(schema.body).toMatchObject({ status: "invalid", errors: [expect.objectContaining({ field: "limit" })] });
    const [listed] = await newCalls();
    expect(listed!.finished).toMatchObject({ result: "failure", status: "invalid" });
    expect(listed!.finished.policy_decisions).toContainEqual({ policy_id: "input.schema", decision: "deny", reason: "limit" });
  });

  it("HTTP: the Host and Origin rules of an allowed call, and a refused Origin: null write on record as denied without running", async () => {
    await newCalls();
    const ref = sessions[0]!.ref;
    const read = { project_key: projectKey, session_ref: ref, start_line: 1, end_line: 2 };
    const ok = await callToolHandler(
      new Request("http://127.0.0.1:3000/api/tools/read_session_lines", { method: "POST", body: JSON.stringify(read), headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" } }),
      { params: Promise.resolve({ tool: "read_session_lines" }) },
    );
    expect(ok.status).toBe(200);
    const [allowed] = await newCalls();
    expect(allowed!.started).toMatchObject({ door: "http", task_id: `${projectKey}/${ref}`, tool_name: "read_session_lines" });
    expect(rules(allowed!)).toEqual(["door.host:allow", "door.origin:allow", "tool.read_only:allow", "input.schema:allow", "path.containment:allow"]);
    expect(allowed!.finished.policy_decisions.find((d) => d.policy_id === "tool.read_only")!.reason).toMatch(/^read-only tool/);

    const { s, turn } = writableTurn(2);
    const write = { project_key: projectKey, session_ref: s.ref, evidence_chain: chainForTurn(turn) };
    const before = await cardBytes(s.ref);
    const refused = await proxy(
      new NextRequest("http://127.0.0.1:3000/api/tools/write_evidence", { method: "POST", body: JSON.stringify(write), headers: { host: "127.0.0.1:3000", origin: "null", "content-type": "application/json" } }),
    );
    expect(refused.status).toBe(403);
    const [denied] = await newCalls();
    // The refused body is never read nor stored (issue 35, item 3): the input on record is the refusal, so the task is the workspace.
    const refusal = { refused_request: { method: "POST", path: "/api/tools/write_evidence", reason: "POST from an opaque origin ('null': a sandboxed frame or data: page) refused", content_length: null } };
    expect(denied!.started).toMatchObject({ door: "http", tool_name: "write_evidence", task_id: "workspace", input_hash: sha256Text(canonicalJson(refusal)) });
    expect(denied!.finished).toMatchObject({ result: "denied", status: "denied", artifacts_written: [] });
    expect(rules(denied!)).toEqual(["door.host:allow", "door.origin:deny"]);
    expect(await cardBytes(s.ref)).toBe(before);

    // A foreign Host is refused and recorded the same way; a refused non-tool request is not a call.
    const rebinding = await proxy(new NextRequest("http://evil.example/api/tools/list_projects", { method: "POST", body: "{}", headers: { host: "evil.example" } }));
    expect(rebinding.status).toBe(403);
    await proxy(new NextRequest("http://127.0.0.1:3000/api/events", { method: "POST", body: "{}", headers: { host: "127.0.0.1:3000", origin: "https://evil.example" } }));
    const after = await newCalls();
    expect(after.map((c) => [c.started.tool_name, c.started.task_id, c.finished.result, rules(c).join(" ")])).toEqual([["list_projects", "workspace", "denied", "door.host:deny door.origin:allow"]]);
  });

  it("the dashboard: a server action is door ui with client ui; a project-level write's task_id is the project", async () => {
    await newCalls();
    const { s, turn } = writableTurn(3);
    const created = await createEvidenceChainAction({ project_key: projectKey, session_ref: s.ref, evidence_chain: chainForTurn(turn) });
    expect(created).toMatchObject({ ok: true, data: { status: "appended" } });
    const [ui] = await newCalls();
    expect(ui!.started).toMatchObject({ door: "ui", client: "ui", tool_name: "create_evidence_chain", task_id: `${projectKey}/${s.ref}` });
    expect(ui!.finished).toMatchObject({ result: "success", artifacts_written: [`projects/${projectKey}/evidence/${s.ref}.json`] });
    expect(rules(ui!)[0]).toBe("door.ui:allow");

    const item = {
      work_item_ref: "W0001",
      kind: "material_work_item",
      title: "Work of one turn",
      covered_turns: [{ session_ref: s.ref, turn_ref: turn.turn_ref }],
      trigger: { summary: "Asked.", turns: [{ session_ref: s.ref, turn_ref: turn.turn_ref }] },
      agent_reaction: { summary: "Did it.", turns: [{ session_ref: s.ref, turn_ref: turn.turn_ref }] },
      outcomes: [],
      terminal_states: [],
      limits: [],
      confidence: "high",
    };
    const synthesis = await viaMcp("write_work_item", { project_key: projectKey, work_item: item });
    const [project] = await newCalls();
    expect(project!.started).toMatchObject({ tool_name: "write_work_item", task_id: projectKey, door: "mcp", client: "audit-agent" });
    expect(rules(project!).filter((r) => r.startsWith("validation."))[0]).toBe("validation.input:allow");
    if (synthesis.body.status === "appended") {
      expect(project!.finished.artifacts_written).toEqual([`projects/${projectKey}/project-synthesis.json`]);
      expect(rules(project!)).toEqual(expect.arrayContaining(["validation.stage_a:allow", "validation.content:allow", "path.containment:allow", "validation.stage_b:allow"]));
    } else {
      expect(project!.finished).toMatchObject({ result: "failure", artifacts_written: [] });
      expect(rules(project!).some((r) => r.endsWith(":deny") && r.startsWith("validation."))).toBe(true);
    }

    const listed = await viaMcp("list_projects", {});
    expect(listed.isError).toBe(false);
    const [workspace] = await newCalls();
    expect(workspace!.started).toMatchObject({ tool_name: "list_projects", task_id: "workspace", scope_enforced: [{ type: "path", pattern: "**", access: "read" }] });
  });

  it("corrections: a stale base is the base_version stage refusing (failure, nothing written); a delete passes stage B and names its file", async () => {
    await newCalls();
    const { s, turn } = writableTurn(4);
    const ids = { project_key: projectKey, session_ref: s.ref };
    const ui = { door: "ui" as const, client: "ui" };
    const created = await callTool(createCoreContext(root), "create_evidence_chain", { ...ids, evidence_chain: chainForTurn(turn) }, ui);
    expect(created.status).toBe("appended");
    const stale = await callTool(createCoreContext(root), "replace_evidence_chain", { ...ids, evidence_chain: chainForTurn(turn), base_version: "absent" }, ui);
    expect(stale.status).toBe("conflict");
    const deleted = await callTool(createCoreContext(root), "delete_evidence_chain", { ...ids, turn_ref: turn.turn_ref, base_version: created.version }, ui);
    expect(deleted.status).toBe("deleted");
    const [, replace, remove] = await newCalls();
    expect(replace!.finished).toMatchObject({ result: "failure", status: "conflict", artifacts_written: [] });
    expect(rules(replace!)).toContain("validation.base_version:deny");
    expect(rules(replace!).filter((r) => r.startsWith("validation.stage_b") || r.startsWith("validation.stage_c"))).toEqual([]);
    expect(remove!.finished).toMatchObject({ result: "success", status: "deleted", artifacts_written: [`projects/${projectKey}/evidence/${s.ref}.json`] });
    expect(rules(remove!)).toEqual(expect.arrayContaining(["validation.input:allow", "path.containment:allow", "validation.base_version:allow", "validation.stage_b:allow"]));
  });

  it("path containment: a session file that resolves outside its project is refused, on record as denied", async () => {
    await newCalls();
    const s = sessions[0]!;
    const row = (await fs.readFile(path.join(root, "projects", projectKey, "sessions.index.jsonl"), "utf8"))
      .split("\n")
      .map((l) => (l ? (JSON.parse(l) as { session_ref: string; session_path: string }) : null))
      .find((r) => r?.session_ref === s.ref)!;
    const file = path.join(root, "projects", projectKey, row.session_path);
    const outside = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "casefile-outside-")), "elsewhere.jsonl");
    await fs.rename(file, outside);
    await fs.symlink(outside, file);
    const result = await viaMcp("read_session_lines", { project_key: projectKey, session_ref: s.ref, start_line: 1, end_line: 1 });
    expect(result).toMatchObject({ isError: true, body: { status: "invalid" } });
    const [call] = await newCalls();
    expect(call!.finished.result).toBe("denied");
    expect(call!.finished.policy_decisions).toContainEqual(expect.objectContaining({ policy_id: "path.containment", decision: "deny", reason: expect.stringContaining("resolves outside") }));
    // Put back: later tests may read this session.
    await fs.rm(file);
    await fs.rename(outside, file);
  });
});
