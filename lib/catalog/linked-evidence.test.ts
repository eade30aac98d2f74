/** Issue 35, item 7: one project's evidence folder linked out of the workspace degrades that project only, and nothing is read through the link. */
import type * as NodeFs from "node:fs";
import fs from "node:fs/promises";
import type * as NodeFsPromises from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { listProjectsTool, listSessionsTool } from "@/lib/catalog/tools";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { evidenceCardPath, evidenceDir, projectDir, projectJsonPath, sessionsIndexPath } from "@/lib/fs/workspace-layout";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { makeTempDir } from "@/lib/testing/shared";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { getProject, listProjects } from "@/lib/workspace/projects";

/** Every path the code under test opened, listed or read (node:fs, sync and promises), to prove what was not read. */
const touched = vi.hoisted(() => [] as string[]);

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof NodeFs>();
  const spy = <F extends (...args: never[]) => unknown>(fn: F) => ((...args: Parameters<F>) => (touched.push(String(args[0])), fn(...args))) as unknown as F;
  const wrapped = { readdirSync: spy(real.readdirSync), readFileSync: spy(real.readFileSync), openSync: spy(real.openSync), statSync: spy(real.statSync), opendirSync: spy(real.opendirSync) };
  return { ...real, ...wrapped, default: { ...real, ...wrapped } };
});
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof NodeFsPromises>();
  const spy = <F extends (...args: never[]) => unknown>(fn: F) => ((...args: Parameters<F>) => (touched.push(String(args[0])), fn(...args))) as unknown as F;
  const wrapped = { readdir: spy(real.readdir), readFile: spy(real.readFile), open: spy(real.open), stat: spy(real.stat), opendir: spy(real.opendir) };
  return { ...real, ...wrapped, default: { ...real, ...wrapped } };
});

const OTHER_KEY = "Other-0123456789ab";
let ctx: CoreContext | undefined;

afterEach(() => {
  if (ctx) closeCatalog(ctx);
  ctx = undefined;
});

/**
 * A workspace with two projects, A (TEST_PROJECT_KEY) and B, where A's `evidence` is a link to a
 * folder outside the workspace holding a card with a chain for A's turn (read, it would count).
 */
async function setup() {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
  const a = projectDir(root, TEST_PROJECT_KEY);
  const b = projectDir(root, OTHER_KEY);
  await fs.cp(a, b, { recursive: true });
  await fs.writeFile(projectJsonPath(b), JSON.stringify({ schema_version: 3, project_key: OTHER_KEY, project_label: "Other" }));
  const outside = await makeTempDir("casefile-outside-evidence-");
  await fs.writeFile(path.join(outside, "S0001.json"), JSON.stringify({ schema_version: 3, project_key: TEST_PROJECT_KEY, session_ref: "S0001", evidence_chains: [{ turn_ref: "T0001" }] }));
  await fs.symlink(outside, evidenceDir(a), "dir");
  // B has a card of its own, read as ever.
  await fs.mkdir(evidenceDir(b));
  await fs.writeFile(evidenceCardPath(b, "S0001"), JSON.stringify({ schema_version: 3, project_key: OTHER_KEY, session_ref: "S0001", evidence_chains: [{ turn_ref: "T0001" }] }));
  expect((await fs.readFile(sessionsIndexPath(b), "utf8")).length).toBeGreaterThan(0);
  ctx = createCoreContext(root);
  return { root, ctx, a, b, outside };
}

/** Paths under A's linked evidence folder or the folder it leads to that the code listed, opened, read or stat'ed. */
function readThroughLink(a: string, outside: string): string[] {
  const link = evidenceDir(a);
  return touched.filter((p) => p === link || p.startsWith(link + path.sep) || p === outside || p.startsWith(outside + path.sep));
}

describe("a project whose evidence folder links outside the workspace (issue 35, item 7)", () => {
  it("list_projects lists every project, A's row says what is wrong; list_sessions of B works; A's evidence is not read through the link", async () => {
    const { ctx, a, b, outside } = await setup();
    touched.length = 0;
    const listed = await listProjectsTool.run(ctx, {});
    expect(listed.projects.map((p) => p.project_key).sort()).toEqual([OTHER_KEY, TEST_PROJECT_KEY].sort());
    const rowA = listed.projects.find((p) => p.project_key === TEST_PROJECT_KEY)!;
    const rowB = listed.projects.find((p) => p.project_key === OTHER_KEY)!;
    expect(rowA.problem).toMatch(new RegExp(`projects/${TEST_PROJECT_KEY}/evidence is a link leading outside the project`));
    expect(rowB.problem).toBeUndefined();
    expect(rowA.session_count).toBe(1);

    const sessionsB = await listSessionsTool.run(ctx, listSessionsTool.input.parse({ project_key: OTHER_KEY }));
    expect(sessionsB).toMatchObject({ status: "ok", total: 1, sessions: [{ session_ref: "S0001" }] });
    const sessionsA = await listSessionsTool.run(ctx, listSessionsTool.input.parse({ project_key: TEST_PROJECT_KEY }));
    expect(sessionsA).toMatchObject({ status: "ok", total: 1 });

    // The home page's overview: A says what is wrong and counts no evidence; B's card counts.
    const overview = await getWorkspaceOverview(ctx);
    const viewA = overview.projects.find((p) => p.project_key === TEST_PROJECT_KEY)!;
    const viewB = overview.projects.find((p) => p.project_key === OTHER_KEY)!;
    expect(viewA).toMatchObject({ turns_with_chain: 0, turn_count: 1, problem: rowA.problem });
    expect(viewB).toMatchObject({ turns_with_chain: 1 });
    expect(viewB.problem).toBeUndefined();

    // The file-based summaries (list_projects' oracle, get_project's) say the same.
    expect((await listProjects(ctx)).find((p) => p.project_key === TEST_PROJECT_KEY)!.problem).toBe(rowA.problem);
    expect((await getProject(ctx, TEST_PROJECT_KEY)).problem).toBe(rowA.problem);
    // A's own evidence and synthesis pages refuse with the reason; B's answer as ever.
    await expect(evidenceCoverage(ctx, TEST_PROJECT_KEY)).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/evidence is a link leading outside the project/) });
    await expect(getSynthesisState(ctx, TEST_PROJECT_KEY)).rejects.toMatchObject({ code: "invalid_input" });
    expect(await evidenceCoverage(ctx, OTHER_KEY)).toMatchObject({ turns_with_chain: 1 });
    expect(await getSynthesisState(ctx, OTHER_KEY)).toMatchObject({ project_key: OTHER_KEY });
    // The recorder sees reads (B's evidence folder was listed), and none went through A's link.
    expect(touched).toContain(evidenceDir(b));
    expect(readThroughLink(a, outside)).toEqual([]);
  });

  it("a project whose project.json and index link outside: listed without them (no sessions, label from its key), its row says why, and neither is read", async () => {
    const { ctx, a, outside } = await setup();
    await fs.rm(evidenceDir(a));
    for (const file of [projectJsonPath(a), sessionsIndexPath(a)]) {
      await fs.rename(file, path.join(outside, path.basename(file)));
      await fs.symlink(path.join(outside, path.basename(file)), file);
    }
    touched.length = 0;
    const listed = await listProjectsTool.run(ctx, {});
    const rowA = listed.projects.find((p) => p.project_key === TEST_PROJECT_KEY)!;
    expect(rowA).toMatchObject({ project_label: "Demo", session_count: 0 });
    expect(rowA.problem).toMatch(/project\.json, projects\/[^ ]+\/sessions\.index\.jsonl are links leading outside the project/);
    expect(listed.projects.find((p) => p.project_key === OTHER_KEY)).toMatchObject({ session_count: 1 });
    expect(listed.projects.find((p) => p.project_key === OTHER_KEY)!.problem).toBeUndefined();
    expect(touched.filter((p) => p === projectJsonPath(a) || p === sessionsIndexPath(a) || p.startsWith(outside + path.sep))).toEqual([]);
  });
});
