/** Tests of provenance (issue 39): each session's machine recorded by prepare and sync. */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { sessionMachinesPath } from "@/lib/fs/workspace-layout";
import { defaultAgentRoots } from "@/lib/sources/agents";
import type { AgentSourceName } from "@/lib/sources/common/agent-source";
import { AGENTS_HOME } from "@/lib/testing/agents-workspace";
import { HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { localMachine, readSessionMachines, sessionMachine } from "@/lib/workspace/machines";
import { editSources, readSources, type AgentRoots } from "@/lib/workspace/sources";
import { syncWorkspace } from "@/lib/workspace/sync";

const ID = (n: number) => `3ac41000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** Two machines' Claude Code roots (`alpha`, `beta`) with sessions of one project path; `shared` is on both, with different content. */
async function twoMachines() {
  const base = await makeTempDir("casefile-machines-src-");
  const rootOf = (machine: string) => path.join(base, machine, "projects");
  const write = async (machine: string, n: number, prompts: number) => {
    const dir = path.join(rootOf(machine), "-home-team-app");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${ID(n)}.jsonl`), claudeLines(ID(n), "/home/team/app", prompts));
  };
  await write("alpha", 1, 1);
  await write("alpha", 2, 2);
  await write("beta", 3, 1);
  // One session id on both machines (a copied home folder, then each went on): both are kept.
  await write("alpha", 9, 1);
  await write("beta", 9, 3);
  const workspace = await makeTempDir("casefile-machines-ws-");
  return { rootOf, workspace, ctx: createCoreContext(workspace) };
}

async function project(workspace: string) {
  const [key] = await fs.readdir(path.join(workspace, "projects"));
  const dir = path.join(workspace, "projects", key!);
  const rows = (await fs.readFile(path.join(dir, "sessions.index.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { session_ref: string; source_session_id: string; session_path: string; turns: unknown[] });
  return { key: key!, dir, rows };
}

const saved = process.env.CASEFILE_MACHINE;
afterEach(() => {
  if (saved === undefined) delete process.env.CASEFILE_MACHINE;
  else process.env.CASEFILE_MACHINE = saved;
});

describe("session machines (issue 39 provenance)", () => {
  it("the local machine is CASEFILE_MACHINE, else the host name; a bad name is refused", () => {
    expect(localMachine({ CASEFILE_MACHINE: "build-box.1" })).toBe("build-box.1");
    expect(localMachine({})).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(() => localMachine({ CASEFILE_MACHINE: "a/b" })).toThrow(/not a machine name/);
  });

  it("sources.json: a root's machine is recorded with it, old files stay valid, a removed root drops its machine", async () => {
    const { rootOf, workspace } = await twoMachines();
    await editSources(workspace, { add: { kind: "claude", path: rootOf("alpha") } });
    expect(await readSources(workspace)).toEqual({ claude: [rootOf("alpha")], codex: [], demo: false });
    const both = await editSources(workspace, { add: { kind: "claude", path: rootOf("beta"), machine: "beta" } });
    expect(both.machines).toEqual({ [rootOf("beta")]: "beta" });
    await expect(editSources(workspace, { add: { kind: "claude", path: rootOf("beta"), machine: "../x" } })).rejects.toThrow(/not a machine name/);
    expect(await editSources(workspace, { remove: rootOf("beta") })).toEqual({ claude: [rootOf("alpha")], codex: [], demo: false });
  });

  it("prepare records each session's root machine: one project for one path, two machines' copies of a session both kept, refs stable across syncs", async () => {
    process.env.CASEFILE_MACHINE = "alpha";
    const { rootOf, workspace, ctx } = await twoMachines();
    const first = await syncWorkspace(ctx, { sources: { claude: [rootOf("alpha"), rootOf("beta")], codex: [], machines: { [rootOf("beta")]: "beta" }, demo: false } });
    expect(first.skipped).toEqual([]);
    expect(first.projects).toHaveLength(1);
    const { dir, rows } = await project(workspace);
    const byRef = new Map(rows.map((r) => [r.session_ref, r]));
    const machines = readSessionMachines(dir);
    const seen = rows.map((r) => [r.source_session_id, machines.get(r.session_ref), path.basename(r.session_path)]).sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    expect(seen).toEqual([
      [ID(1), "alpha", `${ID(1)}.jsonl`],
      [ID(2), "alpha", `${ID(2)}.jsonl`],
      [ID(3), "beta", `${ID(3)}.jsonl`],
      // The local machine keeps the session's own file name; the other machine's copy is named with its machine.
      [ID(9), "alpha", `${ID(9)}.jsonl`],
      [ID(9), "beta", `${ID(9)}@beta.jsonl`],
    ]);
    const betaNine = rows.find((r) => r.source_session_id === ID(9) && machines.get(r.session_ref) === "beta")!;
    expect(betaNine.turns).toHaveLength(3);
    expect(await fs.readFile(path.join(dir, betaNine.session_path), "utf8")).toBe(await fs.readFile(path.join(rootOf("beta"), "-home-team-app", `${ID(9)}.jsonl`), "utf8"));

    // A second sync writes nothing and keeps every ref and machine.
    const again = await syncWorkspace(ctx, { force: false });
    expect(again.files_written).toBe(0);
    const after = await project(workspace);
    expect(after.rows.map((r) => [r.session_ref, r.session_path])).toEqual(rows.map((r) => [r.session_ref, r.session_path]));
    expect([...readSessionMachines(after.dir)]).toEqual([...machines]);
    expect(byRef.size).toBe(5);
  });

  it("a root retagged with a machine keeps its refs and records the new machine; a workspace prepared before reads as the local machine", async () => {
    process.env.CASEFILE_MACHINE = "alpha";
    const { rootOf, workspace, ctx } = await twoMachines();
    await syncWorkspace(ctx, { sources: { claude: [rootOf("beta")], codex: [], demo: false } });
    const before = await project(workspace);
    expect(new Set(readSessionMachines(before.dir).values())).toEqual(new Set(["alpha"]));
    await syncWorkspace(ctx, { sources: { claude: [rootOf("beta")], codex: [], machines: { [rootOf("beta")]: "beta" }, demo: false } });
    const after = await project(workspace);
    expect(after.rows.map((r) => r.session_ref)).toEqual(before.rows.map((r) => r.session_ref));
    expect(new Set(readSessionMachines(after.dir).values())).toEqual(new Set(["beta"]));

    await fs.rm(sessionMachinesPath(after.dir));
    expect(readSessionMachines(after.dir).size).toBe(0);
    expect(sessionMachine(after.dir, after.rows[0]!.session_ref)).toBe("alpha");
  });
});

if (!HAS_SHARED) console.warn(`[machines] ${SKIP_SHARED_MESSAGE}`);

describe.skipIf(!HAS_SHARED)("two machines' copies of the agents' sessions (issue 39)", { timeout: 300_000 }, () => {
  /** Every workspace session as `source id machine file size project`, sorted. */
  async function sessions(workspace: string): Promise<string[]> {
    const out: string[] = [];
    for (const key of await fs.readdir(path.join(workspace, "projects"))) {
      const dir = path.join(workspace, "projects", key);
      const machines = readSessionMachines(dir);
      const rows = (await fs.readFile(path.join(dir, "sessions.index.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { session_ref: string; source: string; source_session_id: string; session_path: string });
      for (const r of rows) {
        const stat = await fs.stat(path.join(dir, r.session_path));
        out.push(`${r.source} ${r.source_session_id} ${machines.get(r.session_ref)} ${path.basename(r.session_path)} ${stat.size} ${key}`);
      }
    }
    return out.sort();
  }

  it("both survive: the local machine's under their own names, the other's named with its machine, also when the other machine's were synced first", async () => {
    process.env.CASEFILE_MACHINE = "alpha";
    const betaHome = await makeTempDir("casefile-machines-beta-home-");
    await fs.cp(AGENTS_HOME, betaHome, { recursive: true });
    const alphaRoots = defaultAgentRoots(AGENTS_HOME, { NODE_ENV: "test" });
    const betaRoots = defaultAgentRoots(betaHome, { NODE_ENV: "test" });
    const merged: AgentRoots = {};
    for (const [name, roots] of Object.entries({ ...alphaRoots }) as [AgentSourceName, string[]][]) merged[name] = [...roots, ...(betaRoots[name] ?? [])];
    for (const [name, roots] of Object.entries(betaRoots) as [AgentSourceName, string[]][]) merged[name] ??= roots;
    const betaMachines = Object.fromEntries(Object.values(betaRoots).flat().map((r) => [r, "beta"]));
    const workspace = await makeTempDir("casefile-machines-agents-ws-");
    const ctx = createCoreContext(workspace);
    // The other machine's sessions first: they take the sessions' own file names.
    await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: betaRoots, machines: betaMachines, demo: false } });
    const alone = await sessions(workspace);
    expect(alone.length).toBeGreaterThan(0);
    const both = await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: merged, machines: betaMachines, demo: false } });
    expect(both.skipped.filter((s) => /collision|Conflicting/.test(s.reason))).toEqual([]);
    const after = await sessions(workspace);
    const ids = (machine: string) => after.filter((l) => l.split(" ")[2] === machine).map((l) => l.split(" ").slice(0, 2).join(" "));
    expect(ids("beta")).toEqual(alone.map((l) => l.split(" ").slice(0, 2).join(" ")));
    // A session of one project on both machines (its project path not under the copied home) is there twice, one file each.
    const of = (machine: string) => after.filter((l) => l.split(" ")[2] === machine);
    const sameProject = (a: string, b: string) => a.split(" ")[5] === b.split(" ")[5] && a.split(" ").slice(0, 2).join(" ") === b.split(" ").slice(0, 2).join(" ");
    const twice = of("alpha").flatMap((alpha) => of("beta").filter((beta) => sameProject(alpha, beta)).map((beta) => [alpha, beta] as const));
    expect(twice.length).toBeGreaterThan(0);
    for (const [alpha, beta] of twice) {
      expect(beta.split(" ")[3]).toMatch(/@beta\./);
      expect(alpha.split(" ")[3]).not.toMatch(/@/);
      // The same bytes on both machines: the same size in both files.
      expect(beta.split(" ")[4]).toBe(alpha.split(" ")[4]);
    }
    const again = await syncWorkspace(ctx);
    expect(again.files_written).toBe(0);
    expect(await sessions(workspace)).toEqual(after);
  });
});
