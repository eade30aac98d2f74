/** Tests of syncWorkspace. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { editSources, readSources } from "@/lib/workspace/sources";
import { ensurePreparedWorkspace, syncWorkspace } from "@/lib/workspace/sync";
import { listProjects } from "@/lib/workspace/projects";

const ID = (n: number) => `5e55a000-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function setup() {
  const sources = await makeTempDir("casefile-sync-src-");
  const projectDir = path.join(sources, "-home-sync-app");
  await fs.mkdir(projectDir, { recursive: true });
  const file = (n: number) => path.join(projectDir, `${ID(n)}.jsonl`);
  for (const n of [1, 2, 3]) await fs.writeFile(file(n), claudeLines(ID(n), "/home/sync/app", 2));
  const root = await makeTempDir("casefile-sync-ws-");
  return { sources, file, root, ctx: createCoreContext(root) };
}

async function indexRows(root: string) {
  const projects = await fs.readdir(path.join(root, "projects"));
  const text = await fs.readFile(path.join(root, "projects", projects[0]!, "sessions.index.jsonl"), "utf8");
  return text.trim().split("\n").map((l) => JSON.parse(l) as { session_ref: string; source_session_id: string; turns: unknown[] });
}

describe("syncWorkspace (issue 12, item 1)", () => {
  it("records its sources, then reads only what changed: nothing, a new file, a grown file, a rewritten file", async () => {
    const { sources, file, root, ctx } = await setup();
    const first = await syncWorkspace(ctx, { sources: { claude: [sources], codex: [], demo: false } });
    expect(first.files_read).toBe(3);
    expect(await readSources(root)).toEqual({ claude: [sources], codex: [], demo: false });
    const refs = (await indexRows(root)).map((r) => [r.session_ref, r.source_session_id]);
    expect(refs).toEqual([["S0001", ID(1)], ["S0002", ID(2)], ["S0003", ID(3)]]);

    const unchanged = await syncWorkspace(ctx);
    expect(unchanged).toMatchObject({ files_read: 0, unchanged: true, sessions: 3 });

    await fs.writeFile(file(4), claudeLines(ID(4), "/home/sync/app", 1));
    const added = await syncWorkspace(ctx);
    expect([...(await indexRows(root)).map((r) => r.session_ref)]).toEqual(["S0001", "S0002", "S0003", "S0004"]);
    expect(added.files_read).toBe(1);

    await fs.appendFile(file(2), claudeLines(ID(2), "/home/sync/app", 3, 3));
    const grown = await syncWorkspace(ctx);
    expect(grown.files_read).toBe(1);
    const rows = await indexRows(root);
    expect(rows.map((r) => [r.session_ref, r.turns.length])).toEqual([["S0001", 2], ["S0002", 5], ["S0003", 2], ["S0004", 1]]);
    const copy = path.join(root, "projects", (await fs.readdir(path.join(root, "projects")))[0]!, "sessions", "claude-code", `${ID(2)}.jsonl`);
    expect(await fs.readFile(copy, "utf8")).toBe(await fs.readFile(file(2), "utf8"));

    await fs.writeFile(file(1), claudeLines(ID(1), "/home/sync/app", 1));
    const rewritten = await syncWorkspace(ctx);
    expect(rewritten.files_read).toBe(1);
    expect((await indexRows(root)).map((r) => [r.session_ref, r.turns.length])).toEqual([["S0001", 1], ["S0002", 5], ["S0003", 2], ["S0004", 1]]);
  });

  it("keeps prepare's duplicate rule: an identical copy elsewhere is skipped, and hashed only once", async () => {
    const { sources, file, ctx } = await setup();
    const other = await makeTempDir("casefile-sync-dup-");
    await fs.mkdir(path.join(other, "-home-sync-app"), { recursive: true });
    await fs.copyFile(file(1), path.join(other, "-home-sync-app", `${ID(1)}.jsonl`));
    const first = await syncWorkspace(ctx, { sources: { claude: [sources, other], codex: [], demo: false } });
    expect(first.sessions).toBe(3);
    expect(first.skipped.map((s) => s.reason)).toContainEqual(expect.stringMatching(/^identical duplicate of /));
    const again = await syncWorkspace(ctx);
    expect(again).toMatchObject({ files_read: 0, sessions: 3, unchanged: true });
  });

  it("replaces a demo workspace, never mixes it, when a real source is added (casefile sources add)", async () => {
    const { sources, root, ctx } = await setup();
    const demo = await makeTempDir("casefile-sync-demo-");
    await generateDemoSources(demo);
    await syncWorkspace(ctx, { sources: { claude: [demo], codex: [], demo: true } });
    const labels = async () => (await fs.readdir(path.join(root, "projects"))).map((k) => k.replace(/-[0-9a-f]{12}$/, "")).sort();
    expect(await labels()).toEqual(["acme-api", "docs-site"]);
    await editSources(root, { add: { kind: "claude", path: sources } });
    expect(await readSources(root)).toEqual({ claude: [sources], codex: [], demo: false });
    await syncWorkspace(ctx);
    expect(await labels()).toEqual(["app"]);
    expect(await readSources(root)).toEqual({ claude: [sources], codex: [], demo: false });
    expect((await syncWorkspace(ctx)).files_read).toBe(0);
  });

  it("refuses a workspace that records no sources", async () => {
    const root = await makeTempDir("casefile-sync-none-");
    await expect(syncWorkspace(createCoreContext(root))).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("ensurePreparedWorkspace (a team server before its first push, issue 39)", () => {
  it("makes a missing workspace an empty prepared one with no sources, which a sync then fills; a prepared one is left alone", async () => {
    const { sources, root } = await setup();
    const fresh = path.join(root, "team-ws");
    const ctx = createCoreContext(fresh);
    expect(await ensurePreparedWorkspace(ctx)).toBe(true);
    expect(await listProjects(ctx)).toEqual([]);
    expect(await readSources(fresh)).toEqual({ claude: [], codex: [], demo: false });
    // The server's sync of no sources changes nothing and fails nothing; a source added later (a push) is prepared.
    expect((await syncWorkspace(ctx)).sessions).toBe(0);
    await editSources(fresh, { add: { kind: "claude", path: sources } });
    expect((await syncWorkspace(ctx)).sessions).toBe(3);
    expect(await ensurePreparedWorkspace(ctx)).toBe(false);
    expect((await listProjects(ctx)).map((p) => p.session_count)).toEqual([3]);
  });
});
