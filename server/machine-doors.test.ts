/** Issue 39 provenance through the doors: a workspace prepared from two machines' roots (halves of ../shared/corpus) shows each session's machine and filters and groups by it. */
import { readdirSync } from "node:fs";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import type { GetUsageResult } from "@/lib/usage/schema";
import type { ListSessionsResult } from "@/lib/workspace/schema";
import { syncWorkspace } from "@/lib/workspace/sync";
import { type DoorAnswers, openDoors } from "@/server/__fixtures__/doors";

if (!HAS_SHARED) console.warn(`[machine-doors] ${SKIP_SHARED_MESSAGE}`);

const EXAMPLES = path.join(SHARED_DIR, "corpus", "claude-code", "phantom-reads", "session-examples");
/** One project path (/Users/gray/Projects/claude-bug) split over two machines; `alpha` also has the misc sessions. */
const ALPHA = ["2.0.58-good", "2.0.58-bad", "2.0.59-bad", "2.0.60-good"].map((d) => path.join(EXAMPLES, d));
const BETA = ["2.0.60-bad", "2.1.3-bad", "2.1.6-bad", "2.1.6-good"].map((d) => path.join(EXAMPLES, d));
const MISC = path.join(SHARED_DIR, "corpus", "claude-code", "misc");

/** The session ids of a root's main transcripts (`<uuid>.jsonl`; `agent-*` are subagents). */
const sessionIds = (dirs: string[]) => new Set(dirs.flatMap((d) => readdirSync(d).filter((n) => /^[0-9a-f-]{36}\.jsonl$/.test(n)).map((n) => n.slice(0, -6))));

let one: Awaited<ReturnType<typeof openDoors>>["one"];
let call: (tool: string, input: object) => Promise<DoorAnswers>;

beforeAll(async () => {
  if (!HAS_SHARED) return;
  const root = await makeTempDir("casefile-machine-doors-");
  const machines = Object.fromEntries([...[...ALPHA, MISC].map((r) => [r, "alpha"]), ...BETA.map((r) => [r, "beta"])]);
  await syncWorkspace(createCoreContext(root), { sources: { claude: [MISC, ...ALPHA, ...BETA], codex: [], machines, demo: false } });
  // The index filled first, as the dashboard's watcher does: every door then answers from it.
  await refreshCatalog(createCoreContext(root));
  await fillFullText(createCoreContext(root));
  ({ one, call } = await openDoors(root));
}, 300_000);

const json = <T>(text: string) => JSON.parse(text) as T;
async function http<T>(tool: string, input: object): Promise<T> {
  const answer = await one("http", tool, input);
  expect(answer.status, answer.text).toBe(200);
  return json<T>(answer.text);
}

describe.skipIf(!HAS_SHARED)("a session's machine through the doors (issue 39 provenance)", { timeout: 300_000 }, () => {
  it("one project path stays one project holding both machines' sessions; every row carries its root's machine; the machine filter narrows", async () => {
    const projects = await http<{ projects: { project_key: string; cwd: string | null; session_count: number }[] }>("list_projects", {});
    const bug = projects.projects.filter((p) => p.cwd === "/Users/gray/Projects/claude-bug");
    expect(bug).toHaveLength(1);
    const key = bug[0]!.project_key;
    const all = await http<ListSessionsResult>("list_sessions", { project_key: key, limit: 500 });
    const alphaIds = sessionIds(ALPHA);
    const betaIds = sessionIds(BETA);
    expect(all.sessions.length).toBe(alphaIds.size + betaIds.size);
    for (const s of all.sessions) expect([s.source_session_id, s.machine]).toEqual([s.source_session_id, alphaIds.has(s.source_session_id) ? "alpha" : "beta"]);
    expect(all.machines).toEqual(["alpha", "beta"]);
    // The session's details and overview say where it came from.
    const betaRow = all.sessions.find((s) => s.machine === "beta")!;
    const detail = await http<{ detail: { machine: string } }>("get_session_detail", { project_key: key, session_ref: betaRow.session_ref });
    expect(detail.detail.machine).toBe("beta");
    const overview = await http<{ summary: { machine: string } }>("session_overview", { project_key: key, session_ref: betaRow.session_ref });
    expect(overview.summary.machine).toBe("beta");
    // The same answer through the CLI, HTTP and MCP.
    const filtered = await call("list_sessions", { project_key: key, machine: "beta", limit: 500 });
    expect(filtered.http.text).toBe(filtered.cli.text);
    expect(filtered.mcp.text).toBe(filtered.cli.text);
    const beta = json<ListSessionsResult>(filtered.cli.text);
    expect(new Set(beta.sessions.map((s) => s.source_session_id))).toEqual(betaIds);
    expect(beta.total).toBe(betaIds.size);
    const nobody = await http<ListSessionsResult>("list_sessions", { project_key: key, machine: "gamma" });
    expect(nobody.total).toBe(0);
    const bad = await one("http", "list_sessions", { project_key: key, machine: "../etc" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/machine/);
  });

  it("search's machine: filter keeps only that machine's sessions; the halves add up to the whole", async () => {
    type Result = { total: number; sessions: number; hits: { machine: string; session_id: string }[] };
    const everywhere = await http<Result>("search_sessions", { query: "file", limit: 200 });
    const alpha = await http<Result>("search_sessions", { query: "file machine:alpha", limit: 200 });
    const beta = await http<Result>("search_sessions", { query: "file machine:beta", limit: 200 });
    expect(everywhere.total).toBeGreaterThan(0);
    expect(alpha.total).toBeGreaterThan(0);
    expect(beta.total).toBeGreaterThan(0);
    expect(alpha.total + beta.total).toBe(everywhere.total);
    expect(new Set(alpha.hits.map((h) => h.machine))).toEqual(new Set(["alpha"]));
    expect(new Set(beta.hits.map((h) => h.machine))).toEqual(new Set(["beta"]));
    const betaIds = sessionIds(BETA);
    for (const h of beta.hits) expect(betaIds.has(h.session_id)).toBe(true);
    const both = await http<Result>("search_sessions", { query: "file machine:alpha machine:beta", limit: 200 });
    expect(both.total).toBe(everywhere.total);
  });

  it("get_usage by machine: one row per machine, summing to the total; the machine filter equals its row", async () => {
    const total = await http<GetUsageResult>("get_usage", { group_by: "project" });
    const byMachine = await call("get_usage", { group_by: "machine" });
    expect(byMachine.http.text).toBe(byMachine.cli.text);
    expect(byMachine.mcp.text).toBe(byMachine.cli.text);
    const report = json<GetUsageResult>(byMachine.cli.text);
    expect(report.rows.map((r) => r.key)).toEqual(["alpha", "beta"]);
    expect(report.rows.reduce((n, r) => n + r.total_tokens, 0)).toBe(total.totals.total_tokens);
    expect(report.totals).toEqual(total.totals);
    const beta = await http<GetUsageResult>("get_usage", { group_by: "day", machine: "beta" });
    expect(beta.totals.total_tokens).toBe(report.rows[1]!.total_tokens);
    expect(beta.totals.total_tokens).toBeGreaterThan(0);
  });
});
