/** The synthesis fixtures load, check and rebuild as seed 001 says. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildSourceUserMessages, loadCommittedChains, readSourceUserMessages } from "@/lib/synthesis/cards";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";
import { copyFixtureWorkspace, HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { findProject, loadWorkspace } from "@/lib/workspace/load";

/*
 * prompt-diary's own workspaces (../shared/fixtures/prompt-diary): their envelopes load and pass
 * completeness, and write_work_item rebuilds them byte-for-byte from their items and cards.
 */

const RG = "ReportGenerator-e6ff7eeda632";
const FIXTURES = path.join(SHARED_DIR, "fixtures", "prompt-diary");

/**
 * daily-synthesis/basic completed as the fixture README infers: the two-projects metadata, a
 * schema-3 project.json, and project-synthesis/basic's S0001 card.
 */
async function basicWorkspace(): Promise<string> {
  const root = await copyFixtureWorkspace("daily-synthesis/basic/workspace");
  const dir = path.join(root, "projects", RG);
  await fs.copyFile(path.join(FIXTURES, "daily-synthesis/two-projects/workspace/metadata.json"), path.join(root, "metadata.json"));
  await fs.writeFile(path.join(dir, "project.json"), `${JSON.stringify({ schema_version: 3, project_key: RG, project_label: "ReportGenerator" }, null, 2)}\n`);
  await fs.copyFile(path.join(FIXTURES, `project-synthesis/basic/workspace/projects/${RG}/evidence/S0001.json`), path.join(dir, "evidence", "S0001.json"));
  return root;
}

describe.skipIf(!HAS_SHARED)("prompt-diary fixture workspaces", () => {
  if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

  it("daily-synthesis envelopes (newest shape) load and are complete", async () => {
    const basic = await basicWorkspace();
    const state = await getSynthesisState(createCoreContext(basic), RG);
    expect(state).toMatchObject({ complete: true, errors: [], uncovered_turns: [] });
    expect(state.turns.map((t) => t.state)).toEqual(["material_work_item", "no_material_work_item", "evidence_gap", "material_work_item"]);
    expect(readSourceUserMessages(state.envelope)).toEqual(state.envelope!.source_user_messages);
    const two = await copyFixtureWorkspace("daily-synthesis/two-projects/workspace");
    for (const key of ["ProjectAlpha-aaaaaaaaaaaa", "ProjectBeta-bbbbbbbbbbbb"]) {
      expect(await getSynthesisState(createCoreContext(two), key)).toMatchObject({ complete: true, errors: [] });
    }
  });

  it("write_work_item rebuilds daily-synthesis/basic's envelope byte for byte from its items and cards", async () => {
    const root = await basicWorkspace();
    const file = path.join(root, "projects", RG, "project-synthesis.json");
    const expected = JSON.parse(await fs.readFile(file, "utf8")) as { work_items: unknown[] };
    await fs.rm(file);
    const ctx = createCoreContext(root);
    const left: number[] = [];
    for (const item of expected.work_items) {
      const result = await writeWorkItem(ctx, { project_key: RG, work_item: item });
      expect(result.status).toBe("appended");
      left.push(result.uncovered_turns!.length);
    }
    expect(left).toEqual([3, 2, 1, 0]);
    expect(await fs.readFile(file, "utf8")).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it("project-synthesis/disposition-scope: source_user_messages exactly as seed 001 says, full coverage, complete", async () => {
    const root = await copyFixtureWorkspace("project-synthesis/disposition-scope/workspace");
    const ctx = createCoreContext(root);
    const project = findProject(await loadWorkspace(ctx), RG)!;
    // Independently: every card's chains, sorted by (session_ref, turn_ref), non-empty texts.
    const expected: { session_ref: string; turn_ref: string; messages: string[] }[] = [];
    for (const row of [...project.rows].sort((a, b) => (a.session_ref < b.session_ref ? -1 : 1))) {
      const card = JSON.parse(await fs.readFile(path.join(project.dir, "evidence", `${row.session_ref}.json`), "utf8")) as { evidence_chains: { turn_ref: string; trigger: { quoted_messages: { text: string }[] } }[] };
      const chains = [...card.evidence_chains].sort((a, b) => (a.turn_ref < b.turn_ref ? -1 : a.turn_ref > b.turn_ref ? 1 : 0));
      for (const c of chains) {
        const messages = c.trigger.quoted_messages.map((q) => q.text).filter((t) => typeof t === "string" && t !== "");
        if (messages.length > 0) expected.push({ session_ref: row.session_ref, turn_ref: c.turn_ref, messages });
      }
    }
    expect(expected.length).toBeGreaterThan(0);
    expect(buildSourceUserMessages((await loadCommittedChains(project)).chains)).toEqual(expected);
    let state = await getSynthesisState(ctx, RG);
    let n = 0;
    for (const t of state.turns) {
      n += 1;
      const kind = t.has_chain ? "no_material_work_item" : "evidence_gap_item";
      const item = { work_item_ref: `W${String(n).padStart(4, "0")}`, kind, title: `Turn ${t.session_ref}/${t.turn_ref}`, covered_turns: [{ session_ref: t.session_ref, turn_ref: t.turn_ref }], confidence: "medium" };
      const result = await writeWorkItem(ctx, { project_key: RG, work_item: item });
      expect(result).toMatchObject({ status: "appended", uncovered_turns: expect.any(Array) });
      expect(result.uncovered_turns).toHaveLength(state.turns.length - n);
    }
    state = await getSynthesisState(ctx, RG);
    expect(state).toMatchObject({ complete: true, errors: [], uncovered_turns: [] });
    expect(state.envelope!.source_user_messages).toEqual(expected);
  });
});
