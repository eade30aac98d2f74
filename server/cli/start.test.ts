import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { catalogDb, closeCatalog } from "@/lib/catalog/catalog";
import { createCoreContext } from "@/lib/context";
import { metadataPath } from "@/lib/fs/workspace-layout";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import type { SyncSummary } from "@/lib/workspace/sync";
import { editSources, readSources } from "@/lib/workspace/sources";
import { startSources } from "@/server/cli/start-command";
import { serverPipelineOptions } from "@/server/watch/source-watcher";

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

const labels = async (ws = workspace) => (await fs.readdir(path.join(ws, "projects"))).map((k) => k.replace(/-[0-9a-f]{12}$/, "")).sort();
const ID = (n: number) => `57a27000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/**
 * The dashboard server's first pipeline run on `ws` (server/watch/source-watcher's, which
 * `npm start`'s server runs as it starts): its sync and the catalog's rows; the background
 * stages after them (full-text index, risk, warm-up) are left out here.
 */
async function serverSync(ws = workspace): Promise<SyncSummary> {
  const ctx = createCoreContext(ws);
  const pipeline = new WorkspacePipeline(ctx, serverPipelineOptions({ fullText: "skip", risk: "skip", warm: "skip", announce: false, logSyncs: false }));
  try {
    return (await pipeline.request()).sync!;
  } finally {
    await pipeline.close();
    closeCatalog(ctx);
  }
}

describe("npm start syncs on every start (issue 12, items 1 and 2; issue 36 item 2: full syncs before the server, incremental ones in it)", () => {
  it("starts on the demo when the machine has no sessions, says so, and records it as demo: synced before the server starts", async () => {
    const report = await startSources(workspace);
    expect(report).toMatch(/demo transcripts/);
    expect(await readSources(workspace)).toMatchObject({ demo: true });
    expect(await labels()).toEqual(["acme-api", "billing-cli", "docs-site"]);
    const acme = (await fs.readdir(path.join(workspace, "projects"))).find((k) => k.startsWith("acme-api-"))!;
    expect(await fs.readdir(path.join(workspace, "projects", acme, "evidence"))).toEqual(["S0001.json"]);
  });

  it("replaces the demo, never mixes it, once ~/.claude/projects exists: a rebuild, done before the server starts", async () => {
    const dir = path.join(home, ".claude", "projects", "-home-me-real-app");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${ID(1)}.jsonl`), claudeLines(ID(1), "/home/me/real-app", 2));
    const report = await startSources(workspace);
    expect(report).toMatch(/replacing the demo workspace/);
    expect(report).toMatch(/^1 source file\(s\) read/m);
    expect(await labels()).toEqual(["real-app"]);
    expect(await readSources(workspace)).toEqual({ claude: [path.join(home, ".claude", "projects")], codex: [], demo: false });
  });

  it("a restart leaves an incremental sync to the server, which picks up a session written since, keeping the refs, and reads only that file", async () => {
    const dir = path.join(home, ".claude", "projects", "-home-me-real-app");
    await fs.writeFile(path.join(dir, `${ID(2)}.jsonl`), claudeLines(ID(2), "/home/me/real-app", 1));
    const key = (await fs.readdir(path.join(workspace, "projects")))[0]!;
    const index = path.join(workspace, "projects", key, "sessions.index.jsonl");
    const before = await fs.readFile(index, "utf8");
    expect(await startSources(workspace)).toMatch(/the dashboard syncs .* as it starts/);
    expect(await fs.readFile(index, "utf8")).toBe(before);
    expect((await serverSync()).files_read).toBe(1);
    const rows = (await fs.readFile(index, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { session_ref: string; source_session_id: string });
    expect(rows.map((r) => [r.session_ref, r.source_session_id])).toEqual([["S0001", ID(1)], ["S0002", ID(2)]]);
    // The server's run writes the catalog's rows too: its pages know both sessions.
    const ctx = createCoreContext(workspace);
    expect((catalogDb(ctx).prepare("SELECT session_ref, turn_count FROM sessions ORDER BY session_ref").all() as { session_ref: string }[]).map((r) => r.session_ref)).toEqual(["S0001", "S0002"]);
    closeCatalog(ctx);
    expect((await serverSync()).files_read).toBe(0);
  });

  it("a restart with a source added by casefile sources picks it up", async () => {
    const extra = await makeTempDir("casefile-start-extra-");
    await fs.mkdir(path.join(extra, "-home-me-other"), { recursive: true });
    await fs.writeFile(path.join(extra, "-home-me-other", `${ID(3)}.jsonl`), claudeLines(ID(3), "/home/me/other", 1));
    await editSources(workspace, { add: { kind: "claude", path: extra } });
    await startSources(workspace);
    await serverSync();
    expect(await labels()).toEqual(["other", "real-app"]);
  });

  it("syncs before the server when the server will not (CASEFILE_WATCH=0)", async () => {
    const dir = path.join(home, ".claude", "projects", "-home-me-real-app");
    await fs.writeFile(path.join(dir, `${ID(4)}.jsonl`), claudeLines(ID(4), "/home/me/real-app", 1));
    expect(await startSources(workspace, false)).toMatch(/^1 source file\(s\) read/m);
  });

  it("a new workspace's first sync, a full one, runs before the server: its first page finds a workspace", async () => {
    const fresh = path.join(home, "fresh-workspace");
    const report = await startSources(fresh);
    expect(report).toMatch(/^3 source file\(s\) read/m);
    await fs.access(metadataPath(fresh));
    expect(await labels(fresh)).toEqual(["real-app"]);
    expect(await readSources(fresh)).toEqual({ claude: [path.join(home, ".claude", "projects")], codex: [], demo: false });
  });
});
