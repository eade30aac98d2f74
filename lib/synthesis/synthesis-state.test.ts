/** Tests of getSynthesisState. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { beforeEach, describe, expect, it } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import { buildBasicWorkspace, envelopeBytes, envelopeFile, LABEL, materialItem, plainItem, PROJECT, turn } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";

/* The synthesis page's state (issue 4) and prompt-diary's completeness (contract §3.5). */

let root = "";
let ctx: CoreContext;
beforeEach(async () => {
  root = await buildBasicWorkspace();
  ctx = createCoreContext(root);
});

const write = (item: unknown) => writeWorkItem(ctx, { project_key: PROJECT, work_item: item });
const writeEnvelope = (value: unknown) => fs.writeFile(envelopeFile(root), JSON.stringify(value));
const base = { schema_version: 1, project_key: PROJECT, project_label: LABEL, source_user_messages: [] };

describe("getSynthesisState", () => {
  it("before the first write: every turn uncovered or without a chain, the missing-envelope error", async () => {
    const state = await getSynthesisState(ctx, PROJECT);
    expect(state).toMatchObject({ project_key: PROJECT, project_label: LABEL, version: "absent", read_only: false, envelope: null, work_items: [], next_work_item_ref: "W0001", complete: false, sound: false });
    expect(state.turns.map((t) => [t.session_ref, t.turn_ref, t.state, t.has_chain])).toEqual([
      ["S0001", "T0001", "uncovered", true],
      ["S0001", "T0002", "uncovered", true],
      ["S0001", "T0003", "no_chain", false],
      ["S0002", "T0001", "uncovered", true],
    ]);
    expect(state.turns[2]).toMatchObject({ turn_start_line: 13, turn_end_line: 15, work_item_ref: null });
    expect(state.errors).toEqual([`missing project synthesis envelope: ${path.join(root, "projects", PROJECT, "project-synthesis.json")}`]);
    expect(state.counts).toMatchObject({ indexed_turns: 4, covered_turns: 0, uncovered_turns: 4, no_chain_turns: 1 });
  });

  it("follows a run to completion: states, counts, version, uncovered_turns, completeness", async () => {
    await write(materialItem("W0001", "S0001/T0001", "S0002/T0001"));
    let state = await getSynthesisState(ctx, PROJECT);
    expect(state.version).toBe(createHash("sha256").update((await envelopeBytes(root))!).digest("hex"));
    expect(state.turns.map((t) => `${t.state}:${t.work_item_ref}`)).toEqual(["material_work_item:W0001", "uncovered:null", "no_chain:null", "material_work_item:W0001"]);
    expect(state.uncovered_turns).toEqual([turn("S0001/T0002"), turn("S0001/T0003")]);
    expect(state.errors).toEqual(["missing covered turn(s): S0001/T0002, S0001/T0003"]);
    expect(state).toMatchObject({ complete: false, sound: true, next_work_item_ref: "W0002" });
    await write(plainItem("evidence_gap_item", "W0002", "S0001/T0003"));
    await write(plainItem("excluded_with_reason", "W0003", "S0001/T0002"));
    state = await getSynthesisState(ctx, PROJECT);
    expect(state.turns.map((t) => t.state)).toEqual(["material_work_item", "excluded_with_reason", "evidence_gap", "material_work_item"]);
    expect(state).toMatchObject({ complete: true, sound: true, errors: [], uncovered_turns: [] });
    expect(state.counts).toEqual({
      indexed_turns: 4,
      covered_turns: 4,
      uncovered_turns: 0,
      no_chain_turns: 0,
      turns_by_kind: { material_work_item: 2, no_material_work_item: 0, evidence_gap_item: 1, excluded_with_reason: 1 },
      items_by_kind: { material_work_item: 1, no_material_work_item: 0, evidence_gap_item: 1, excluded_with_reason: 1 },
    });
    expect(state.work_items.map((w) => [w.index, w.work_item_ref, w.kind, w.covered_turns.length, w.issues])).toEqual([
      [0, "W0001", "material_work_item", 2, []],
      [1, "W0002", "evidence_gap_item", 1, []],
      [2, "W0003", "excluded_with_reason", 1, []],
    ]);
  });

  it("reports the envelope shape errors and a non-object item in prompt-diary's words", async () => {
    await writeEnvelope({ schema_version: 2, project_key: "x", project_label: "y", work_items: ["x", plainItem("evidence_gap_item", "W0002", "S0001/T0003")], source_user_messages: {} });
    const state = await getSynthesisState(ctx, PROJECT);
    expect(state.errors).toEqual([
      "schema_version must be 1",
      `project_key must be '${PROJECT}'`,
      `project_label must be '${LABEL}'`,
      "source_user_messages must be a list",
      "work_items[0] must be a JSON object",
      "missing covered turn(s): S0001/T0001, S0001/T0002, S0002/T0001",
    ]);
    expect(state).toMatchObject({ complete: false, sound: false });
    expect(state.work_items[0]).toMatchObject({ work_item_ref: null, item: "x", issues: ["work_items[0] must be a JSON object"] });
  });

  it("re-validates stored items in order: parse and workspace messages per item", async () => {
    await writeEnvelope({
      ...base,
      work_items: [
        materialItem("W0001", "S0001/T0001"),
        { ...plainItem("no_material_work_item", "W0001", "S0001/T0001"), kind: "mystery" },
        plainItem("no_material_work_item", "W0001", "S0001/T0001", "S0001/T0003"),
      ],
    });
    const state = await getSynthesisState(ctx, PROJECT);
    expect(state.work_items.map((w) => w.issues)).toEqual([
      [],
      ["work_item.kind must be a controlled work item kind value"],
      [
        "work_item_ref 'W0001' is already used in the envelope",
        "turn S0001/T0001 is already covered by another work item",
        "S0001/T0003 has no committed evidence chain; only an evidence_gap_item may cover it",
      ],
    ]);
    expect(state.turns.map((t) => `${t.state}:${t.work_item_ref}`)).toEqual(["material_work_item:W0001", "uncovered:null", "no_material_work_item:W0001", "uncovered:null"]);
    await writeEnvelope({ ...base, work_items: [{ ...plainItem("no_material_work_item", "W0001", "S0001/T0002"), kind: "mystery" }] });
    expect((await getSynthesisState(ctx, PROJECT)).turns[1]).toMatchObject({ state: "invalid_work_item", work_item_ref: "W0001" });
  });

  it("an invalid-JSON envelope reads as {} and an unreadable card is reported first", async () => {
    await fs.writeFile(envelopeFile(root), "{");
    await fs.writeFile(path.join(root, "projects", PROJECT, "evidence", "S0002.json"), "nope");
    const state = await getSynthesisState(ctx, PROJECT);
    expect(state.envelope).toBeNull();
    expect(state.errors[0]).toMatch(/S0002\.json contains invalid JSON/);
    expect(state.errors.slice(1, 6)).toEqual(["schema_version must be 1", `project_key must be '${PROJECT}'`, `project_label must be '${LABEL}'`, "work_items must be a list", "source_user_messages must be a list"]);
    expect(state.turns[3]!.state).toBe("no_chain");
  });

  it("is cached until the envelope or a card changes, even within one millisecond", async () => {
    const first = await getSynthesisState(ctx, PROJECT);
    expect(await getSynthesisState(ctx, PROJECT)).toBe(first);
    await write(materialItem("W0001", "S0001/T0001"));
    const second = await getSynthesisState(ctx, PROJECT);
    expect(second).not.toBe(first);
    expect(second.uncovered_turns).toHaveLength(3);
    await fs.rm(path.join(root, "projects", PROJECT, "evidence", "S0002.json"));
    expect((await getSynthesisState(ctx, PROJECT)).turns[3]!.state).toBe("no_chain");
  });

  it("throws not_found for an unknown project", async () => {
    await expect(getSynthesisState(ctx, "Nope-000000000000")).rejects.toMatchObject({ code: "not_found", message: "unknown project_key 'Nope-000000000000'" });
  });
});
