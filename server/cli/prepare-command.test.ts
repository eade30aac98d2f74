import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { warmSessionPages } from "@/lib/catalog/warm";
import { createCoreContext } from "@/lib/context";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { scriptSession, writeControlPlaneRoot } from "@/lib/testing/control-plane-builder";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { readSources } from "@/lib/workspace/sources";
import { runPrepare } from "@/server/cli/prepare-command";

const ID = "9a7e0000-0000-4000-8000-000000000001";
let home = "";
let stdout: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  home = await makeTempDir("casefile-prepare-cp-");
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

const projectLabels = async (workspace: string) => (await fs.readdir(path.join(workspace, "projects"))).map((k) => k.replace(/-[0-9a-f]{12}$/, "")).sort();

describe("casefile prepare --control-plane ROOT (issue 11 beside issue 12's recorded sources)", () => {
  it("adds the Control Plane project to a workspace that syncs transcripts, keeping its sources and projects", async () => {
    const claude = path.join(home, "claude");
    await fs.mkdir(path.join(claude, "-home-me-app"), { recursive: true });
    await fs.writeFile(path.join(claude, "-home-me-app", `${ID}.jsonl`), claudeLines(ID, "/home/me/app", 2));
    const workspace = path.join(home, "workspace");
    expect(await runPrepare({ workspace, claude: [claude], force: false, json: true })).toBe(0);
    const before = await readSources(workspace);
    expect(before).toEqual({ claude: [claude], codex: [], demo: false });

    const root = path.join(home, "cp-root");
    await writeControlPlaneRoot(root, scriptSession({ sessionId: "SES-PREP0001", start: 0, turns: [{ user: "hello", response: "Hi!" }] }));
    expect(await runPrepare({ workspace, controlPlane: [root], force: false, json: true })).toBe(0);

    expect(await readSources(workspace)).toEqual(before);
    expect(await projectLabels(workspace)).toEqual(["app"]);
    const printed = JSON.parse(String(stdout.mock.calls.at(-1)![0])) as { data: { control_plane: { root: string }[]; sessions: number } };
    expect(printed.data.control_plane.map((p) => p.root)).toEqual([root]);
  });

  it("on a new workspace, prepares no transcripts and records an empty source list", async () => {
    const workspace = path.join(home, "workspace-cp-only");
    const root = path.join(home, "cp-only");
    await writeControlPlaneRoot(root, scriptSession({ sessionId: "SES-PREP0002", start: 0, turns: [{ user: "hello", response: "Hi!" }] }));
    expect(await runPrepare({ workspace, controlPlane: [root], force: false, json: true })).toBe(0);
    expect(await readSources(workspace)).toEqual({ claude: [], codex: [], demo: false });
  });

  it("a prepare that replaces the recorded sources says so on stderr and in --json, with the commands that restore them (issue 26)", async () => {
    const mk = async (name: string) => {
      const dir = path.join(home, name);
      await fs.mkdir(path.join(dir, "-home-me-app"), { recursive: true });
      await fs.writeFile(path.join(dir, "-home-me-app", `${ID}.jsonl`), claudeLines(ID, "/home/me/app", 2));
      return dir;
    };
    const [first, second] = [await mk("claude-a"), await mk("claude b")];
    const workspace = path.join(home, "workspace-change");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await runPrepare({ workspace, claude: [first], force: false, json: true })).toBe(0);
      expect(stderr.mock.calls.map((c) => String(c[0])).join("")).not.toContain("replaced the workspace's recorded sources");
      // The same sources again: nothing to say.
      expect(await runPrepare({ workspace, claude: [first], force: false, json: true })).toBe(0);
      expect(stderr.mock.calls.map((c) => String(c[0])).join("")).not.toContain("replaced");
      expect(await runPrepare({ workspace, claude: [second], force: false, json: true })).toBe(0);
      const said = stderr.mock.calls.map((c) => String(c[0])).join("");
      expect(said).toContain(`note: this prepare replaced the workspace's recorded sources\n  before: claude ${first}\n  now:    claude ${second}\n`);
      const undo = [`casefile sources remove '${second}' --workspace ${workspace}`, `casefile sources add --claude ${first} --workspace ${workspace}`];
      for (const command of undo) expect(said).toContain(`  ${command}\n`);
      const printed = JSON.parse(String(stdout.mock.calls.at(-1)![0])) as { data: { sources_changed: unknown } };
      expect(printed.data.sources_changed).toEqual({ before: { claude: [first], codex: [] }, after: { claude: [second], codex: [] }, undo });
      expect(await readSources(workspace)).toEqual({ claude: [second], codex: [], demo: false });
    } finally {
      stderr.mockRestore();
    }
  });
});

describe("casefile prepare stores what a first session page reads (issue 29)", () => {
  const listed = (workspace: string, area: "analysis" | "forensics") => fs.readdir(derivedPath(workspace, area)).catch(() => [] as string[]);

  it("stores the analysis, risk, chart and summary views and forensics scan of sessions at least minBytes long, and an unchanged session is not read again", async () => {
    const claude = path.join(home, "claude-warm");
    await fs.mkdir(path.join(claude, "-home-me-app"), { recursive: true });
    await fs.writeFile(path.join(claude, "-home-me-app", `${ID}.jsonl`), claudeLines(ID, "/home/me/app", 3));
    const workspace = path.join(home, "workspace-warm");
    // A small session is below the threshold prepare uses (64 MiB): its first reader computes it.
    expect(await runPrepare({ workspace, claude: [claude], force: false, json: true })).toBe(0);
    expect(await listed(workspace, "analysis")).toEqual([]);
    expect(await listed(workspace, "forensics")).toEqual([]);

    const ctx = createCoreContext(workspace);
    await warmSessionPages(ctx, 0);
    const analysis = (await listed(workspace, "analysis")).sort();
    // The analysis, its risk, and the Analysis tab's first views of it (chart, summary of 50 rows).
    expect(analysis).toHaveLength(4);
    expect(analysis[0]).toMatch(/^app-[0-9a-f]{12}--S0001--10000\.chart\.json$/);
    expect(analysis[1]).toMatch(/^app-[0-9a-f]{12}--S0001--10000\.json$/);
    expect(analysis[2]).toMatch(/--S0001--10000\.summary-50\.json$/);
    expect(analysis[3]).toMatch(/--S0001--risk\.json$/);
    expect((await listed(workspace, "forensics")).filter((n) => n.endsWith(".scan"))).toHaveLength(1);

    // Stored per file version: a second warm-up in a new process rewrites nothing.
    const stamps = async () => Promise.all(analysis.map(async (n) => (await fs.stat(derivedPath(workspace, "analysis", n))).mtimeMs));
    const before = await stamps();
    await warmSessionPages(createCoreContext(workspace), 0);
    expect(await stamps()).toEqual(before);
  });
});
