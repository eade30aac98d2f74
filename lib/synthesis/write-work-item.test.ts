/** Tests of write_work_item: writes, rejections, hard errors. */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeEach, describe, expect, it } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import {
  buildBasicWorkspace,
  envelopeBytes,
  envelopeFile,
  LABEL,
  materialItem,
  plainItem,
  PROJECT,
  QUOTES,
  storedChain,
  turn,
  writeCard,
} from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { readSourceUserMessages } from "@/lib/synthesis/cards";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";

/* write_work_item end to end on a real temp workspace (seed 001, contract §3.4, test_write_api.py). */

let root = "";
let ctx: CoreContext;
beforeEach(async () => {
  root = await buildBasicWorkspace();
  ctx = createCoreContext(root);
});

const write = (work_item: unknown, project_key: unknown = PROJECT) => writeWorkItem(ctx, { project_key, work_item });
const turns = (...keys: string[]) => keys.map(turn);
const ALL = ["S0001/T0001", "S0001/T0002", "S0001/T0003", "S0002/T0001"];
const readEnvelope = async () => JSON.parse((await envelopeBytes(root))!.toString("utf8")) as Record<string, unknown>;

describe("write_work_item: writes", () => {
  it("first write creates the envelope from project.json and populates source_user_messages once, from the cards", async () => {
    expect(await envelopeBytes(root)).toBeNull();
    const result = await write(materialItem("W0001", "S0001/T0001"));
    expect(result).toEqual({ status: "appended", project_key: PROJECT, work_item_ref: "W0001", uncovered_turns: turns("S0001/T0002", "S0001/T0003", "S0002/T0001") });
    const text = (await envelopeBytes(root))!.toString("utf8");
    const envelope = JSON.parse(text) as Record<string, unknown>;
    expect(text).toBe(`${JSON.stringify(envelope, null, 2)}\n`);
    expect(Object.keys(envelope)).toEqual(["schema_version", "project_key", "project_label", "work_items", "source_user_messages"]);
    expect(envelope).toMatchObject({ schema_version: 1, project_key: PROJECT, project_label: LABEL, work_items: [materialItem("W0001", "S0001/T0001")] });
    // Sorted by (session_ref, turn_ref) whatever the card order; only non-empty string texts; no citations.
    expect(envelope.source_user_messages).toEqual([
      { session_ref: "S0001", turn_ref: "T0001", messages: [QUOTES["S0001/T0001"]] },
      { session_ref: "S0001", turn_ref: "T0002", messages: [QUOTES["S0001/T0002"]] },
      { session_ref: "S0002", turn_ref: "T0001", messages: [QUOTES["S0002/T0001"]] },
    ]);
  });

  it("omits entries of chains without messages, and later writes never re-populate", async () => {
    await writeCard(root, "S0002", [storedChain("T0001", [])]);
    await write(plainItem("no_material_work_item", "W0001", "S0002/T0001"));
    const first = (await readEnvelope()).source_user_messages;
    expect(first).toEqual([
      { session_ref: "S0001", turn_ref: "T0001", messages: [QUOTES["S0001/T0001"]] },
      { session_ref: "S0001", turn_ref: "T0002", messages: [QUOTES["S0001/T0002"]] },
    ]);
    await writeCard(root, "S0002", [storedChain("T0001", [{ text: "added later" }])]);
    await write(materialItem("W0002", "S0001/T0001"));
    const envelope = await readEnvelope();
    expect(envelope.source_user_messages).toEqual(first);
    expect(envelope.work_items).toEqual([plainItem("no_material_work_item", "W0001", "S0002/T0001"), materialItem("W0002", "S0001/T0001")]);
  });

  it("uncovered_turns shrinks after every step of a full run until it is empty", async () => {
    const steps: [Record<string, unknown>, string[]][] = [
      [plainItem("evidence_gap_item", "W0001", "S0001/T0003"), ["S0001/T0001", "S0001/T0002", "S0002/T0001"]],
      [materialItem("W0002", "S0001/T0001", "S0002/T0001"), ["S0001/T0002"]],
      [plainItem("excluded_with_reason", "W0003", "S0001/T0002"), []],
    ];
    for (const [item, left] of steps) {
      expect(await write(item)).toEqual({ status: "appended", project_key: PROJECT, work_item_ref: item.work_item_ref, uncovered_turns: turns(...left) });
    }
    expect(await write(plainItem("no_material_work_item", "W0004", "S0001/T0001"))).toMatchObject({ status: "invalid", uncovered_turns: [] });
  });

  it("keeps the existing envelope's unknown keys and its legacy source_user_messages shape", async () => {
    const legacy = [{ session_ref: "S0001", turn_ref: "T0001", quoted_messages: [{ text: "old", citations: [{ lines: "2-2" }] }] }];
    await fs.writeFile(envelopeFile(root), JSON.stringify({ schema_version: 1, project_key: PROJECT, project_label: LABEL, note: "kept", work_items: [], source_user_messages: legacy }));
    await write(materialItem("W0001", "S0001/T0001"));
    const envelope = await readEnvelope();
    expect(envelope).toMatchObject({ note: "kept", source_user_messages: legacy });
    expect(readSourceUserMessages(envelope)).toEqual([{ session_ref: "S0001", turn_ref: "T0001", messages: ["old"] }]);
  });

  it("regenerates an envelope that is a JSON non-object", async () => {
    await fs.writeFile(envelopeFile(root), "[1, 2]\n");
    expect(await write(materialItem("W0001", "S0001/T0001"))).toMatchObject({ status: "appended" });
    expect(await readEnvelope()).toMatchObject({ schema_version: 1, work_items: [{ work_item_ref: "W0001" }], source_user_messages: [{}, {}, {}] });
  });
});

describe("write_work_item: rejections (stage B and the existing envelope)", () => {
  const UNCOVERED = turns(...ALL.filter((k) => k !== "S0001/T0001"));
  beforeEach(async () => {
    await write(materialItem("W0001", "S0001/T0001"));
  });

  it.each([
    ["ref reused", plainItem("no_material_work_item", "W0001", "S0001/T0002"), [{ path: "work_item.work_item_ref", message: "work_item_ref 'W0001' is already used in the envelope", hint: "each work_item_ref must be unique within the envelope" }]],
    [
      "covered turn not indexed (its other checks skipped)",
      { ...plainItem("no_material_work_item", "W0002", "S0009/T0001"), trigger: { summary: "s", evidence_refs: turns("S0009/T0001") } },
      [
        { path: "work_item.covered_turns[0]", message: "covered turn S0009/T0001 is not an indexed turn", hint: "cover only turns listed in sessions.index.jsonl" },
        { path: "work_item.trigger.evidence_refs[0]", message: "evidence ref S0009/T0001 must be one of this work item's covered_turns", hint: "cite only turns in this item's covered_turns" },
      ],
    ],
    ["turn already covered", plainItem("no_material_work_item", "W0002", "S0001/T0001"), [{ path: "work_item.covered_turns[0]", message: "turn S0001/T0001 is already covered by another work item", hint: "every indexed turn belongs to exactly one work item" }]],
    ["turn repeated in the item", plainItem("no_material_work_item", "W0002", "S0001/T0002", "S0001/T0002"), [{ path: "work_item.covered_turns[1]", message: "turn S0001/T0002 is already covered by another work item", hint: "every indexed turn belongs to exactly one work item" }]],
    [
      "gap item on a turn with a chain",
      plainItem("evidence_gap_item", "W0002", "S0002/T0001"),
      [{ path: "work_item.covered_turns[0]", message: "evidence_gap_item cannot cover S0002/T0001, which has a committed evidence chain", hint: "an evidence_gap_item covers only turns with no committed chain" }],
    ],
    [
      "non-gap item on a turn without a chain, citing it",
      { ...plainItem("no_material_work_item", "W0002", "S0001/T0003"), trigger: { summary: "s", evidence_refs: turns("S0001/T0003") } },
      [
        { path: "work_item.covered_turns[0]", message: "S0001/T0003 has no committed evidence chain; only an evidence_gap_item may cover it", hint: "cover turns without a chain using an evidence_gap_item" },
        { path: "work_item.trigger.evidence_refs[0]", message: "evidence ref S0001/T0003 has no committed evidence chain and cannot be cited", hint: "a turn with no chain cannot be cited" },
      ],
    ],
    [
      "evidence refs outside covered_turns",
      { ...materialItem("W0002", "S0002/T0001"), outcomes: [{ category: "code_outcome", summary: "s", evidence_refs: turns("S0002/T0001", "S0001/T0002"), confidence: "low" }], terminal_states: [{ type: "other", summary: "s", evidence_refs: turns("S0001/T0001") }] },
      [
        { path: "work_item.outcomes[0].evidence_refs[1]", message: "evidence ref S0001/T0002 must be one of this work item's covered_turns", hint: "cite only turns in this item's covered_turns" },
        { path: "work_item.terminal_states[0].evidence_refs[0]", message: "evidence ref S0001/T0001 must be one of this work item's covered_turns", hint: "cite only turns in this item's covered_turns" },
      ],
    ],
  ])("%s: exact errors, uncovered_turns, nothing written", async (_label, item, errors) => {
    const before = await envelopeBytes(root);
    expect(await write(item)).toEqual({ status: "invalid", errors, uncovered_turns: UNCOVERED });
    expect(await envelopeBytes(root)).toEqual(before);
  });

  it("collects stage B errors in the contract's order", async () => {
    const item = plainItem("evidence_gap_item", "W0001", "S0001/T0001", "S0007/T0001", "S0002/T0001", "S0001/T0003");
    expect(await write(item)).toMatchObject({
      errors: [
        { path: "work_item.work_item_ref" },
        { path: "work_item.covered_turns[0]", message: "turn S0001/T0001 is already covered by another work item" },
        { path: "work_item.covered_turns[0]", message: "evidence_gap_item cannot cover S0001/T0001, which has a committed evidence chain" },
        { path: "work_item.covered_turns[1]", message: "covered turn S0007/T0001 is not an indexed turn" },
        { path: "work_item.covered_turns[2]", message: "evidence_gap_item cannot cover S0002/T0001, which has a committed evidence chain" },
      ],
    });
  });

  it("unknown project: the single error, without uncovered_turns", async () => {
    expect(await write(plainItem("no_material_work_item", "W0001", "S0001/T0001"), "Nope-000000000000")).toEqual({
      status: "invalid",
      errors: [{ path: "project_key", message: "unknown project_key 'Nope-000000000000'", hint: "use the project_key from the prepared workspace" }],
    });
    expect(await write(materialItem("W0002", "S0001/T0002"), 7)).toMatchObject({ errors: [{ path: "project_key", message: "project_key must be a non-empty string" }] });
  });

  it("a structurally invalid item gets stage A errors only, with uncovered_turns when the project resolves", async () => {
    const bad = { ...plainItem("no_material_work_item", "W0001", "S0009/T0001"), confidence: "sure" };
    expect(await write(bad)).toEqual({ status: "invalid", errors: [expect.objectContaining({ path: "work_item.confidence" })], uncovered_turns: UNCOVERED });
    expect(await write(bad, "Nope-000000000000")).toEqual({ status: "invalid", errors: [expect.objectContaining({ path: "work_item.confidence" })] });
    expect(await write("W0002")).toMatchObject({ errors: [{ path: "work_item", message: "work_item must be a JSON object holding one work item" }], uncovered_turns: UNCOVERED });
  });

  it("secrets and absolute paths are refused with the stage A errors, before the workspace checks", async () => {
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const item = { ...materialItem("W0001", "S0001/T0001"), title: "", limits: [`token ${token}`, "see /home/alice/app/x.ts"] };
    const result = await write(item);
    expect(result).toEqual({
      status: "invalid",
      errors: [
        { path: "work_item.title", message: "work_item.title must be a non-empty string", hint: "provide a concise non-empty string" },
        { path: "work_item.limits[0]", message: "work_item.limits[0] contains what looks like a GitHub token", hint: "remove the secret; describe it without its value" },
        { path: "work_item.limits[1]", message: "work_item.limits[1] contains an absolute path '/home/alice/app/x.ts'", hint: expect.stringContaining("project-relative path") },
      ],
      uncovered_turns: UNCOVERED,
    });
    expect(JSON.stringify(result)).not.toContain(token);
  });

  it("validates the existing envelope first: wrong label, non-object items, invalid JSON", async () => {
    const envelope = await readEnvelope();
    const hint = expect.stringContaining("repair or move aside the existing project-synthesis.json");
    const where = `existing project synthesis envelope projects/${PROJECT}/project-synthesis.json`;
    await fs.writeFile(envelopeFile(root), JSON.stringify({ ...envelope, project_label: "Other", work_items: [...(envelope.work_items as unknown[]), "x"] }));
    expect(await write(materialItem("W0002", "S0001/T0002"))).toEqual({
      status: "invalid",
      errors: [
        { path: "project_synthesis.project_label", message: `${where}: project_label must be 'Demo'`, hint },
        { path: "project_synthesis.work_items[1]", message: `${where}: work_items[1] must be a JSON object`, hint },
      ],
      uncovered_turns: UNCOVERED,
    });
    await fs.writeFile(envelopeFile(root), "{");
    const result = await write(materialItem("W0002", "S0001/T0002"));
    expect(result).toEqual({ status: "invalid", errors: [{ path: "project_synthesis", message: expect.stringMatching(new RegExp(`^${where} is not valid JSON: `)), hint }] });
    expect((await envelopeBytes(root))!.toString()).toBe("{");
  });
});

describe("write_work_item: hard errors", () => {
  it("refuses a schema-2 (read-only) workspace with a coded error", async () => {
    const meta = path.join(root, "metadata.json");
    await fs.writeFile(meta, JSON.stringify({ ...JSON.parse(await fs.readFile(meta, "utf8")), schema_version: 2 }));
    await expect(write(materialItem("W0001", "S0001/T0001"))).rejects.toMatchObject({ code: "conflict" });
  });

  it("an evidence card that is not JSON is a parse_error, and nothing is written", async () => {
    await fs.writeFile(path.join(root, "projects", PROJECT, "evidence", "S0002.json"), "{oops");
    await expect(write(materialItem("W0001", "S0001/T0001"))).rejects.toMatchObject({ code: "parse_error", message: expect.stringContaining("S0002.json contains invalid JSON") });
    expect(await envelopeBytes(root)).toBeNull();
  });
});
