/** Work-item stage A parsing and canonical serialization (contract §3.2). */
import { describe, expect, it } from "vitest";

import { materialItem, plainItem } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { parseWorkItem, workItemInputError, workItemToJson } from "@/lib/synthesis/parse-work-item";

/* Stage A of write_work_item (contract §3.4, prompt-diary test_model.py). */

const SUMMARY_HINT = "provide a concise non-empty string";
const REF_HINT = 'reference a turn as {"session_ref": "S0001", "turn_ref": "T0001"}';
const NARRATIVE_HINT = "evidence_gap_item and excluded_with_reason carry no trigger, agent_reaction, outcomes, or terminal_states";
const KIND_HINT = "use a controlled value such as evidence_gap_item, excluded_with_reason, material_work_item, no_material_work_item";
const CATEGORY_HINT =
  "use a controlled value such as blocker_outcome, code_outcome, decision_outcome, document_outcome, other, process_outcome, research_outcome, validation_outcome";
const STATE_HINT = "use a controlled value such as blocked, clarification_only, evidence_gap, failed, interrupted, material_result, no_material, other";
const CONFIDENCE_HINT = "use a controlled value such as high, low, medium";

const material = () => materialItem("W0001", "S0001/T0001");
const errorsOf = (raw: unknown) => {
  const parsed = parseWorkItem(raw);
  return parsed.ok ? [] : parsed.errors;
};
const nonEmpty = (path: string, hint = SUMMARY_HINT) => ({ path, message: `${path} must be a non-empty string`, hint });

describe("parseWorkItem (stage A)", () => {
  it.each([
    ["material_work_item", material()],
    ["no_material_work_item", plainItem("no_material_work_item", "W0002", "S0001/T0002")],
    ["evidence_gap_item", plainItem("evidence_gap_item", "W0003", "S0001/T0003")],
    ["excluded_with_reason", plainItem("excluded_with_reason", "W0004", "S0002/T0001")],
    ["no_material with narrative", { ...material(), kind: "no_material_work_item" }],
    ["gap with null blocks and absent lists", { work_item_ref: "W0005", kind: "evidence_gap_item", title: "Gap", covered_turns: [{ session_ref: "S1", turn_ref: "T1" }], trigger: null, agent_reaction: null, confidence: "low" }],
  ])("accepts %s", (_label, raw) => {
    expect(parseWorkItem(raw)).toMatchObject({ ok: true });
  });

  it.each([
    ["kind", { ...material(), kind: "totally_invalid_kind" }, [{ path: "work_item.kind", message: "work_item.kind must be a controlled work item kind value", hint: KIND_HINT }]],
    ["trigger.summary", { ...material(), trigger: { summary: " \t", evidence_refs: [] } }, [nonEmpty("work_item.trigger.summary")]],
    ["trigger that is not an object", { ...material(), trigger: "asked" }, [nonEmpty("work_item.trigger.summary")]],
    ["trigger.evidence_refs[0].session_ref", { ...material(), trigger: { summary: "s", evidence_refs: [{ turn_ref: "T0001" }] } }, [nonEmpty("work_item.trigger.evidence_refs[0].session_ref", REF_HINT)]],
    ["agent_reaction.summary", { ...material(), agent_reaction: { summary: 3, main_actions: [] } }, [nonEmpty("work_item.agent_reaction.summary")]],
    ["agent_reaction.main_actions[1]", { ...material(), agent_reaction: { summary: "s", main_actions: ["ok", ""] } }, [nonEmpty("work_item.agent_reaction.main_actions[1]")]],
    [
      "outcomes[0] category, summary, evidence_refs, confidence",
      { ...material(), outcomes: [{ category: "new_category", summary: "", evidence_refs: [{ session_ref: "S0001" }], confidence: "certain" }] },
      [
        { path: "work_item.outcomes[0].category", message: "work_item.outcomes[0].category must be a controlled outcome category value", hint: CATEGORY_HINT },
        nonEmpty("work_item.outcomes[0].summary"),
        nonEmpty("work_item.outcomes[0].evidence_refs[0].turn_ref", REF_HINT),
        { path: "work_item.outcomes[0].confidence", message: "work_item.outcomes[0].confidence must be a controlled confidence value", hint: CONFIDENCE_HINT },
      ],
    ],
    [
      "terminal_states[0] type and summary",
      { ...material(), terminal_states: [{ type: "done", evidence_refs: [] }] },
      [{ path: "work_item.terminal_states[0].type", message: "work_item.terminal_states[0].type must be a controlled terminal_state type value", hint: STATE_HINT }, nonEmpty("work_item.terminal_states[0].summary")],
    ],
    ["material without trigger", { ...material(), trigger: null }, [{ path: "work_item.trigger", message: "material_work_item requires trigger", hint: "material_work_item requires trigger and agent_reaction" }]],
    ["material without agent_reaction", { ...material(), agent_reaction: undefined }, [{ path: "work_item.agent_reaction", message: "material_work_item requires agent_reaction", hint: "material_work_item requires trigger and agent_reaction" }]],
    [
      "material without outcomes and terminal_states",
      { ...material(), outcomes: [], terminal_states: "none" },
      [{ path: "work_item.outcomes", message: "material_work_item requires at least one outcome or terminal_state", hint: "add a consolidated outcome or a terminal_state describing the result" }],
    ],
    ["bad ref W1", { ...material(), work_item_ref: "W1" }, [{ path: "work_item.work_item_ref", message: "work_item.work_item_ref must match W0001", hint: "assign refs as W0001, W0002, and so on" }]],
    ["bad ref 1", { ...material(), work_item_ref: 1 }, [{ path: "work_item.work_item_ref", message: "work_item.work_item_ref must match W0001", hint: "assign refs as W0001, W0002, and so on" }]],
    ["title", { ...material(), title: "\u3000" }, [nonEmpty("work_item.title")]],
    ["covered_turns missing", { ...material(), covered_turns: undefined }, [{ path: "work_item.covered_turns", message: "work_item.covered_turns must list at least one entry", hint: "every work item must account for at least one indexed turn" }]],
    ["covered_turns[0].turn_ref", { ...material(), covered_turns: [{ session_ref: "S0001", turn_ref: "" }] }, [nonEmpty("work_item.covered_turns[0].turn_ref", REF_HINT)]],
    ["covered_turns[0] not an object", { ...material(), covered_turns: ["S0001/T0001"] }, [nonEmpty("work_item.covered_turns[0].session_ref", REF_HINT), nonEmpty("work_item.covered_turns[0].turn_ref", REF_HINT)]],
    ["limits[0]", { ...material(), limits: [null] }, [nonEmpty("work_item.limits[0]")]],
    ["reason of an exclusion", { ...plainItem("excluded_with_reason", "W0001", "S0001/T0001"), reason: "" }, [nonEmpty("work_item.reason")]],
    ["confidence", { ...material(), confidence: "High" }, [{ path: "work_item.confidence", message: "work_item.confidence must be a controlled confidence value", hint: CONFIDENCE_HINT }]],
  ])("rejects %s with the contract's path, message and hint", (_label, raw, expected) => {
    expect(errorsOf(raw)).toEqual(expected);
  });

  it.each(["evidence_gap_item", "excluded_with_reason"] as const)("%s must leave every narrative field empty", (kind) => {
    const raw = { ...material(), kind, reason: "r", trigger: { summary: "s", evidence_refs: [] } };
    expect(errorsOf(raw)).toEqual(
      ["trigger", "agent_reaction", "outcomes", "terminal_states"].map((field) => ({ path: `work_item.${field}`, message: `${kind} must leave ${field} empty`, hint: NARRATIVE_HINT })),
    );
    // An empty block object is a block, not an absent one (prompt-diary: only None is absent).
    expect(errorsOf({ ...plainItem(kind, "W0001", "S1/T1"), agent_reaction: {} }).map((e) => e.path)).toEqual(["work_item.agent_reaction.summary", "work_item.agent_reaction"]);
  });

  it("collects every error in the contract's order", () => {
    const raw = {
      kind: "material_work_item",
      trigger: { summary: "", evidence_refs: [{}] },
      agent_reaction: { summary: "", main_actions: [""] },
      outcomes: [{ category: "x", summary: "", confidence: "x" }],
      terminal_states: [{ type: "x", summary: "" }],
      work_item_ref: "X1",
      title: "",
      covered_turns: [],
      limits: [""],
      reason: 5,
      confidence: "x",
    };
    expect(errorsOf(raw).map((e) => e.path)).toEqual([
      "work_item.trigger.summary",
      "work_item.trigger.evidence_refs[0].session_ref",
      "work_item.trigger.evidence_refs[0].turn_ref",
      "work_item.agent_reaction.summary",
      "work_item.agent_reaction.main_actions[0]",
      "work_item.outcomes[0].category",
      "work_item.outcomes[0].summary",
      "work_item.outcomes[0].confidence",
      "work_item.terminal_states[0].type",
      "work_item.terminal_states[0].summary",
      "work_item.work_item_ref",
      "work_item.title",
      "work_item.covered_turns",
      "work_item.limits[0]",
      "work_item.confidence",
    ]);
    const gap = { ...raw, kind: "excluded_with_reason", reason: "" };
    expect(errorsOf({ ...gap, kind: "nope" })[0]!.path).toBe("work_item.kind");
    expect(errorsOf(gap).map((e) => e.path).slice(10)).toEqual([
      "work_item.trigger",
      "work_item.agent_reaction",
      "work_item.outcomes",
      "work_item.terminal_states",
      "work_item.work_item_ref",
      "work_item.title",
      "work_item.covered_turns",
      "work_item.limits[0]",
      "work_item.reason",
      "work_item.confidence",
    ]);
  });

  it("reads refs like Python's re: any Unicode decimal digit matches \\d", () => {
    expect(parseWorkItem({ ...material(), work_item_ref: "W\u0661\u0662\u0663\u0664" })).toMatchObject({ ok: true });
    expect(errorsOf({ ...material(), work_item_ref: "W0001\n" })[0]!.path).toBe("work_item.work_item_ref");
  });

  it("refuses input that is not one work item object", () => {
    expect(workItemInputError([material()])).toEqual({
      path: "work_item",
      message: "work_item must be a JSON object holding one work item",
      hint: "send one work item: {work_item_ref, kind, title, covered_turns, trigger, agent_reaction, outcomes, terminal_states, limits, reason, confidence}",
    });
    expect(workItemInputError(material())).toBeNull();
  });
});

describe("workItemToJson (contract §3.2 canonical serialization)", () => {
  it("writes the canonical key order and drops unknown keys", () => {
    const parsed = parseWorkItem({ extra: 1, confidence: "high", ...material(), risks: ["x"] });
    if (!parsed.ok) throw new Error("expected ok");
    const json = workItemToJson(parsed.item);
    expect(Object.keys(json)).toEqual(["work_item_ref", "kind", "title", "covered_turns", "trigger", "agent_reaction", "outcomes", "terminal_states", "limits", "confidence"]);
    expect(Object.keys(json.outcomes[0]!)).toEqual(["category", "summary", "evidence_refs", "confidence"]);
    expect(json).toEqual(material());
  });

  it("omits absent blocks, always writes the lists, and keeps a reason given as a string", () => {
    const parsed = parseWorkItem({ work_item_ref: "W0002", kind: "no_material_work_item", title: "T", covered_turns: [{ session_ref: "S1", turn_ref: "T1", x: 1 }], reason: "", confidence: "low" });
    if (!parsed.ok) throw new Error("expected ok");
    expect(JSON.stringify(workItemToJson(parsed.item))).toBe(
      '{"work_item_ref":"W0002","kind":"no_material_work_item","title":"T","covered_turns":[{"session_ref":"S1","turn_ref":"T1"}],"outcomes":[],"terminal_states":[],"limits":[],"reason":"","confidence":"low"}',
    );
    const excluded = parseWorkItem(plainItem("excluded_with_reason", "W0003", "S1/T1"));
    expect(excluded.ok && workItemToJson(excluded.item).reason).toBe("Out of scope for the report.");
  });
});
