/** Tests of createOperatorItem. */
import { beforeEach, describe, expect, it } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import { buildBasicWorkspace, envelopeBytes, materialItem, plainItem, PROJECT, turn } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { createOperatorItem } from "@/lib/synthesis/operator-item";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";

/* Operator items from the synthesis page (issue 4): same validation and write path as the tool. */

let root = "";
let ctx: CoreContext;
beforeEach(async () => {
  root = await buildBasicWorkspace();
  ctx = createCoreContext(root);
});

const gap = { project_key: PROJECT, kind: "evidence_gap_item", covered_turns: [turn("S0001/T0003")], title: "No evidence for this turn", confidence: "low" };
const exclusion = { project_key: PROJECT, kind: "excluded_with_reason", covered_turns: [turn("S0001/T0002")], title: "Small talk", reason: "Not project work.", confidence: "medium" };

describe("createOperatorItem", () => {
  it("assigns W0001 first, then one past the highest ref in use, and writes the canonical item", async () => {
    expect(await createOperatorItem(ctx, gap)).toMatchObject({ status: "appended", work_item_ref: "W0001" });
    await writeWorkItem(ctx, { project_key: PROJECT, work_item: materialItem("W0007", "S0001/T0001") });
    expect(await createOperatorItem(ctx, exclusion)).toEqual({ status: "appended", project_key: PROJECT, work_item_ref: "W0008", uncovered_turns: [turn("S0002/T0001")] });
    const envelope = JSON.parse((await envelopeBytes(root))!.toString()) as { work_items: unknown[] };
    expect(envelope.work_items[0]).toEqual({ ...plainItem("evidence_gap_item", "W0001", "S0001/T0003"), title: "No evidence for this turn" });
    expect(envelope.work_items[2]).toEqual({ ...plainItem("excluded_with_reason", "W0008", "S0001/T0002"), title: "Small talk", reason: "Not project work.", confidence: "medium" });
  });

  it("an exclusion with an empty reason gets the inline error at work_item.reason, then the valid one commits", async () => {
    expect(await createOperatorItem(ctx, { ...exclusion, reason: "" })).toEqual({
      status: "invalid",
      errors: [{ path: "work_item.reason", message: "work_item.reason must be a non-empty string", hint: "provide a concise non-empty string" }],
      uncovered_turns: ["S0001/T0001", "S0001/T0002", "S0001/T0003", "S0002/T0001"].map(turn),
    });
    expect(await envelopeBytes(root)).toBeNull();
    expect(await createOperatorItem(ctx, exclusion)).toMatchObject({ status: "appended", work_item_ref: "W0001" });
  });

  it("goes through the tool's workspace rules", async () => {
    expect(await createOperatorItem(ctx, { ...gap, covered_turns: [turn("S0002/T0001")] })).toMatchObject({
      status: "invalid",
      errors: [{ path: "work_item.covered_turns[0]", message: "evidence_gap_item cannot cover S0002/T0001, which has a committed evidence chain" }],
    });
    expect(await createOperatorItem(ctx, { ...exclusion, covered_turns: [] })).toMatchObject({ errors: [{ path: "work_item.covered_turns", message: "work_item.covered_turns must list at least one entry" }] });
    expect(await createOperatorItem(ctx, { ...exclusion, title: "see /Users/bob/notes.txt" })).toMatchObject({ errors: [{ message: "work_item.title contains an absolute path '/Users/bob/notes.txt'" }] });
    expect(await createOperatorItem(ctx, { ...gap, project_key: "Nope-000000000000" })).toMatchObject({ errors: [{ path: "project_key" }] });
  });

  it("refuses the narrative kinds", async () => {
    expect(await createOperatorItem(ctx, { ...gap, kind: "material_work_item" })).toEqual({
      status: "invalid",
      errors: [
        {
          path: "work_item.kind",
          message: "work_item.kind must be one of evidence_gap_item, excluded_with_reason for an operator item",
          hint: "operators record evidence gaps and exclusions; narrative work items come from the synthesis agent",
        },
      ],
    });
  });

  it("concurrent operator items get distinct refs under the lock", async () => {
    const results = await Promise.all([
      createOperatorItem(ctx, gap),
      createOperatorItem(ctx, exclusion),
      createOperatorItem(ctx, { ...exclusion, covered_turns: [turn("S0001/T0001")] }),
      createOperatorItem(ctx, { ...exclusion, covered_turns: [turn("S0002/T0001")] }),
    ]);
    expect(results.map((r) => (r.status === "appended" ? r.work_item_ref : r.status)).sort()).toEqual(["W0001", "W0002", "W0003", "W0004"]);
    expect(results.map((r) => r.uncovered_turns?.length).sort()).toEqual([0, 1, 2, 3]);
  });
});
