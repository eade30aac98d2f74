/** Control Plane projects dispatched through the registry. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import { CONTROL_PLANE_FILE, listControlPlaneProjects, registerControlPlaneRoots } from "@/lib/sources/control-plane/projects";
import { callTool } from "@/lib/tools/registry";
import { scriptSession, writeControlPlaneRoot } from "@/lib/testing/control-plane-builder";
import { makeTempDir } from "@/lib/testing/shared";
import { prepareWorkspace } from "@/lib/workspace/prepare";

async function setup() {
  const cpRoot = await makeTempDir("casefile-cp-root-");
  await writeControlPlaneRoot(cpRoot, scriptSession({ sessionId: "SES-CAFE0001", start: 0, turns: [{ user: "hello", response: "Hi!" }] }));
  const ctx = createCoreContext(await makeTempDir("casefile-cp-ws-"));
  await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [] });
  const { projects } = await registerControlPlaneRoots(ctx, [cpRoot]);
  return { ctx, cpRoot, key: projects[0]!.project_key };
}

async function snapshot(dir: string): Promise<string> {
  const out: string[] = [];
  for (const f of (await fs.readdir(dir, { recursive: true })).sort()) {
    const p = path.join(dir, f);
    if ((await fs.stat(p)).isFile()) out.push(`${f}:${(await fs.readFile(p)).toString("base64")}`);
  }
  return out.join("\n");
}

describe("control-plane projects", () => {
  it("registering is idempotent and recorded in .casefile-config/control-plane.json; the ledgers are never modified", async () => {
    const { ctx, cpRoot, key } = await setup();
    const before = await snapshot(cpRoot);
    expect((await registerControlPlaneRoots(ctx, [cpRoot])).written).toBe(false);
    expect((await listControlPlaneProjects(ctx)).map((p) => p.project_key)).toEqual([key]);
    expect(key).toMatch(/^cp-.+-[0-9a-f]{12}$/);
    await fs.access(path.join(ctx.workspaceRoot, CONTROL_PLANE_FILE));
    await callTool(ctx, "list_sessions", { project_key: key }, { door: "cli" });
    expect(await snapshot(cpRoot)).toBe(before);
  });

  it("a root without ledgers is refused", async () => {
    const ctx = createCoreContext(await makeTempDir("casefile-cp-ws-"));
    await expect(registerControlPlaneRoots(ctx, [await makeTempDir("casefile-empty-")])).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("the registered list_sessions tool dispatches on the project's source", async () => {
    const { ctx, key } = await setup();
    const result = await callTool(ctx, "list_sessions", { project_key: key, limit: 5 }, { door: "cli" });
    expect(result).toMatchObject({ status: "ok", source_kind: "control-plane", count: 1, sessions: [{ session_id: "SES-CAFE0001", status: "completed", turn_count: 1 }] });
  });

  it("list_sessions pages 20 rows by default (seed 004 §3), for a control-plane project as for a transcript one", async () => {
    const { ctx, key } = await setup();
    expect(await callTool(ctx, "list_sessions", { project_key: key }, { door: "cli" })).toMatchObject({ status: "ok", limit: 20, offset: 0 });
    expect(await callTool(ctx, "list_sessions", { project_key: key, limit: 7 }, { door: "cli" })).toMatchObject({ status: "ok", limit: 7 });
  });

  it("the registered session_overview, reconstruct_session, query_ledger_full and grep_jsonl dispatch too", async () => {
    const { ctx, key } = await setup();
    const call = (name: string, input: object) => callTool(ctx, name, { project_key: key, ...input }, { door: "cli" });
    expect(await call("session_overview", { session_ref: "SES-CAFE0001" })).toMatchObject({ status: "ok", source_kind: "control-plane", summary: { session_id: "SES-CAFE0001" } });
    expect(await call("reconstruct_session", { session_ref: "SES-CAFE0001", limit: 3 })).toMatchObject({ status: "ok", returned: 3, timeline: [{ event_type: "SESSION_START" }, {}, {}] });
    expect(await call("query_ledger_full", { ledger: "ho2m", event_type: "TURN_RECORDED" })).toMatchObject({ status: "ok", source: "ho2m", count: 1 });
    expect(await call("grep_jsonl", { ledger: "ho1m", pattern: "LLM_CALL" })).toMatchObject({ status: "ok", source: "ho1m", count: 1 });
    expect(await call("grep_jsonl", { ledger: "nope", pattern: "x" })).toMatchObject({ status: "error" });
    // The audit ledger stays Casefile's own call record, filtered by project_key.
    expect(await call("query_ledger_full", { ledger: "audit" })).not.toHaveProperty("source_kind");
  });

  it("every forensic tool name dispatches for a control-plane project, and not for another", async () => {
    const { ctx, key } = await setup();
    expect(await dispatchControlPlaneTool(ctx, "session_overview", { project_key: key, session_ref: "SES-CAFE0001" })).toMatchObject({ status: "ok", summary: { turn_count: 1 } });
    expect(await dispatchControlPlaneTool(ctx, "reconstruct_session", { project_key: key, session_ref: "SES-CAFE0001", limit: 2 })).toMatchObject({ status: "ok", returned: 2 });
    expect(await dispatchControlPlaneTool(ctx, "query_ledger_full", { project_key: key, ledger: "ho2m", max_entries: 1 })).toMatchObject({ status: "ok", count: 1 });
    expect(await dispatchControlPlaneTool(ctx, "query_ledger_full", { project_key: key, ledger: "audit" })).toBeNull();
    expect(await dispatchControlPlaneTool(ctx, "grep_jsonl", { project_key: key, ledger: "nope", pattern: "x" })).toMatchObject({ status: "error" });
    expect(await dispatchControlPlaneTool(ctx, "grep_jsonl", { project_key: key, pattern: "x" })).toMatchObject({ status: "invalid" });
    expect(await dispatchControlPlaneTool(ctx, "list_sessions", { project_key: "some-transcript-project" })).toBeNull();
  });
});
