import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { catalogDb, closeCatalog } from "@/lib/catalog/catalog";
import { createCoreContext } from "@/lib/context";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { editSources, readSources } from "@/lib/workspace/sources";
import { syncOnStart } from "@/server/cli/start-command";

const saved = { HOME: process.env.HOME, CODEX_HOME: process.env.CODEX_HOME };
let home = "";
let workspace = "";

beforeAll(async () => {
  home = await makeTempDir("casefile-start-home-");
  workspace = path.join(home, ".casefile", "workspace");
  process.env.HOME = home;
  process.env.CODEX_HOME = path.join(home, ".codex");
});
afterAll(() => {
  process.env.HOME = saved.HOME;
  if (saved.CODEX_HOME === undefined) delete process.env.CODEX_HOME;
  else process.env.CODEX_HOME = saved.CODEX_HOME;
});

const labels = async () => (await fs.readdir(path.join(workspace, "projects"))).map((k) => k.replace(/-[0-9a-f]{12}$/, "")).sort();
const ID = (n: number) => `57a27000-0000-4000-8000-${String(n).padStart(12, "0")}`;

// syncOnStart runs in npm start's start-up process, which exits before the server starts
// (server/cli/start-process.test.ts checks what stays running).
describe("npm start syncs on every start (issue 12, items 1 and 2)", () => {
  it("starts on the demo when the machine has no sessions, says so, and records it as demo", async () => {
    const report = await syncOnStart(workspace);
    expect(report).toMatch(/demo transcripts/);
    expect(await readSources(workspace)).toMatchObject({ demo: true });
    expect(await labels()).toEqual(["acme-api", "billing-cli", "docs-site"]);
    const acme = (await fs.readdir(path.join(workspace, "projects"))).find((k) => k.startsWith("acme-api-"))!;
    expect(await fs.readdir(path.join(workspace, "projects", acme, "evidence"))).toEqual(["S0001.json"]);
  });

  it("replaces the demo, never mixes it, once ~/.claude/projects exists", async () => {
    const dir = path.join(home, ".claude", "projects", "-home-me-real-app");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${ID(1)}.jsonl`), claudeLines(ID(1), "/home/me/real-app", 2));
    const report = await syncOnStart(workspace);
    expect(report).toMatch(/replacing the demo workspace/);
    expect(await labels()).toEqual(["real-app"]);
    expect(await readSources(workspace)).toEqual({ claude: [path.join(home, ".claude", "projects")], codex: [], demo: false });
  });

  it("a restart picks up a session written since, keeping the refs, and reads only that file", async () => {
    const dir = path.join(home, ".claude", "projects", "-home-me-real-app");
    await fs.writeFile(path.join(dir, `${ID(2)}.jsonl`), claudeLines(ID(2), "/home/me/real-app", 1));
    const report = await syncOnStart(workspace);
    expect(report).toMatch(/^1 source file\(s\) read/m);
    const key = (await fs.readdir(path.join(workspace, "projects")))[0]!;
    const rows = (await fs.readFile(path.join(workspace, "projects", key, "sessions.index.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { session_ref: string; source_session_id: string });
    expect(rows.map((r) => [r.session_ref, r.source_session_id])).toEqual([["S0001", ID(1)], ["S0002", ID(2)]]);
    // The catalog's rows are written before the server starts: its first pages know both sessions.
    const ctx = createCoreContext(workspace);
    expect((catalogDb(ctx).prepare("SELECT session_ref, turn_count FROM sessions ORDER BY session_ref").all() as { session_ref: string }[]).map((r) => r.session_ref)).toEqual(["S0001", "S0002"]);
    closeCatalog(ctx);
    expect(await syncOnStart(workspace)).toMatch(/^0 source file\(s\) read/m);
  });

  it("a restart with a source added by casefile sources picks it up", async () => {
    const extra = await makeTempDir("casefile-start-extra-");
    await fs.mkdir(path.join(extra, "-home-me-other"), { recursive: true });
    await fs.writeFile(path.join(extra, "-home-me-other", `${ID(3)}.jsonl`), claudeLines(ID(3), "/home/me/other", 1));
    await editSources(workspace, { add: { kind: "claude", path: extra } });
    await syncOnStart(workspace);
    expect(await labels()).toEqual(["other", "real-app"]);
  });
});
