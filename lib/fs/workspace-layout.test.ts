/** Tests of the workspace layout's paths and migration. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { CASEFILE_DIR, CONFIG_DIR, configPath, evidenceCardPath, projectDir, workspaceStamp } from "@/lib/fs/workspace-layout";
import { listControlPlaneProjects, registerControlPlaneRoots } from "@/lib/sources/control-plane/projects";
import { scriptSession, writeControlPlaneRoot } from "@/lib/testing/control-plane-builder";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { readSources, writeSources } from "@/lib/workspace/sources";

const ID = "5e55a000-0000-4000-8000-000000000001";

async function claudeSource(): Promise<string> {
  const sources = await makeTempDir("casefile-layout-src-");
  await fs.mkdir(path.join(sources, "-home-layout-app"), { recursive: true });
  await fs.writeFile(path.join(sources, "-home-layout-app", `${ID}.jsonl`), claudeLines(ID, "/home/layout/app", 2));
  return sources;
}

describe("workspace layout", () => {
  it("prepare --force keeps the recorded sources and Control Plane registrations (configuration is not derived data)", async () => {
    const sources = await claudeSource();
    const cpRoot = await makeTempDir("casefile-layout-cp-");
    await writeControlPlaneRoot(cpRoot, scriptSession({ sessionId: "SES-CAFE0001", start: 0, turns: [{ user: "hello", response: "Hi!" }] }));
    const ctx = createCoreContext(await makeTempDir("casefile-layout-ws-"));
    await prepareWorkspace(ctx, { claudeRoots: [sources] });
    await writeSources(ctx.workspaceRoot, { claude: [sources], codex: [], demo: false });
    const { projects } = await registerControlPlaneRoots(ctx, [cpRoot]);

    await prepareWorkspace(ctx, { claudeRoots: [sources], force: true });

    expect(await readSources(ctx.workspaceRoot)).toEqual({ claude: [sources], codex: [], demo: false });
    expect((await listControlPlaneProjects(ctx)).map((p) => p.project_key)).toEqual([projects[0]!.project_key]);
    // And the derived folder really is derived: nothing configured lives in it.
    expect(await fs.readdir(path.join(ctx.workspaceRoot, CASEFILE_DIR)).catch(() => [])).not.toContain("sources.json");
  });

  it("moves configuration an older Casefile kept in .casefile/ on open, and prepare --force keeps it too", async () => {
    const sources = await claudeSource();
    const ctx = createCoreContext(await makeTempDir("casefile-layout-ws-"));
    await prepareWorkspace(ctx, { claudeRoots: [sources] });
    const legacy = path.join(ctx.workspaceRoot, CASEFILE_DIR, "sources.json");
    // The folder an older Casefile kept it in (this prepare may have had nothing derived to put there).
    await fs.mkdir(path.dirname(legacy), { recursive: true });
    await fs.writeFile(legacy, JSON.stringify({ claude: [sources], codex: [], demo: false }));

    await prepareWorkspace(ctx, { claudeRoots: [sources], force: true });

    expect(await readSources(ctx.workspaceRoot)).toEqual({ claude: [sources], codex: [], demo: false });
    await expect(fs.access(legacy)).rejects.toThrow();
    expect(configPath(ctx.workspaceRoot, "sources.json")).toBe(path.join(ctx.workspaceRoot, CONFIG_DIR, "sources.json"));
  });

  it("a file already at the new place wins over an old copy", async () => {
    const root = await makeTempDir("casefile-layout-ws-");
    await fs.mkdir(path.join(root, CASEFILE_DIR), { recursive: true });
    await fs.mkdir(path.join(root, CONFIG_DIR), { recursive: true });
    await fs.writeFile(path.join(root, CASEFILE_DIR, "control-plane.json"), "old");
    await fs.writeFile(path.join(root, CONFIG_DIR, "control-plane.json"), "new");
    expect(await fs.readFile(configPath(root, "control-plane.json"), "utf8")).toBe("new");
    expect(await fs.readFile(path.join(root, CASEFILE_DIR, "control-plane.json"), "utf8")).toBe("old");
  });

  it("the workspace stamp moves with the index, and with evidence cards only in the content scope", async () => {
    const sources = await claudeSource();
    const ctx = createCoreContext(await makeTempDir("casefile-layout-ws-"));
    await prepareWorkspace(ctx, { claudeRoots: [sources] });
    const root = ctx.workspaceRoot;
    const [key] = await fs.readdir(path.join(root, "projects"));
    const index = workspaceStamp(root);
    const content = workspaceStamp(root, "content");
    expect(workspaceStamp(root)).toBe(index);

    const card = evidenceCardPath(projectDir(root, key!), "S0001");
    await fs.mkdir(path.dirname(card), { recursive: true });
    await fs.writeFile(card, "{}");
    expect(workspaceStamp(root)).toBe(index);
    expect(workspaceStamp(root, "content")).not.toBe(content);

    const indexFile = path.join(projectDir(root, key!), "sessions.index.jsonl");
    await fs.writeFile(indexFile, (await fs.readFile(indexFile, "utf8")) + "\n");
    expect(workspaceStamp(root)).not.toBe(index);
  });
});
