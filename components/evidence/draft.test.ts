import { describe, expect, it } from "vitest";

import { draftFromChain, emptyDraft, normalizeCitation, toChainInput } from "./draft";
import { fieldPaths, fieldId, groupByPath, sameValue, shapeErrors, valueAt } from "./validation";

const stored = {
  turn_ref: "T0004",
  trigger: { type: "explicit_user_message", summary: "asks", quoted_messages: [{ text: "do it", citations: [{ lines: "3-3" }] }], citations: [{ lines: "3-4" }] },
  agent_reactions: [{ summary: "does it", citations: [{ lines: "5-6" }] }],
  outcomes: [{ category: "code_outcome", summary: "done", citations: [{ lines: "5-6" }] }],
  observed_checks: [],
  terminal_state: { type: "material_result", summary: "ok", citations: [{ lines: "7-7" }] },
  materiality: "material",
};

describe("citations as typed", () => {
  it.each([
    ["12", "12-12"],
    [" 12-20 ", "12-20"],
    ["L12–L20", "12-20"],
    ["12 - 20", "12-20"],
    ["abc", "abc"],
    ["", ""],
  ])("%j → %j", (typed, sent) => expect(normalizeCitation(typed)).toBe(sent));
});

describe("draft ↔ chain", () => {
  it("round-trips a stored chain in canonical key order", () => {
    const chain = toChainInput(draftFromChain(stored, "T0004"));
    expect(chain).toEqual(stored);
    expect(Object.keys(chain)).toEqual(Object.keys(stored));
    expect(shapeErrors(chain)).toEqual([]);
  });

  it("reports a blank draft's shape errors at the paths the inputs use, in the server's words", () => {
    const draft = emptyDraft("T0001");
    draft.outcomes.push({ id: "x", category: "", summary: "s", citations: [{ id: "c", lines: "9-3" }] });
    const errors = groupByPath(shapeErrors(toChainInput(draft)));
    expect(errors.get("evidence_chain.trigger.type")?.[0]?.message).toBe("evidence_chain.trigger.type must be a controlled trigger.type value");
    expect(errors.get("evidence_chain.outcomes[0].citations[0].lines")?.[0]).toMatchObject({
      message: "evidence_chain.outcomes[0].citations[0].lines must be a numeric line span",
      hint: 'write the span as "start-end" with start <= end',
    });
    for (const path of errors.keys()) expect(fieldPaths(draft).has(path), path).toBe(true);
  });
});

describe("error paths", () => {
  it("reads the value a path names, so a server error lasts until that value changes", () => {
    const chain = toChainInput(draftFromChain(stored, "T0004"));
    expect(valueAt(chain, "evidence_chain.trigger.quoted_messages[0].citations[0].lines")).toBe("3-3");
    expect(valueAt(chain, "evidence_chain.outcomes")).toHaveLength(1);
    expect(valueAt(chain, "base_version")).toBeUndefined();
    expect(sameValue(valueAt(chain, "evidence_chain.outcomes[0]"), stored.outcomes[0])).toBe(true);
  });

  it("gives each path a stable DOM id", () => {
    expect(fieldId("evidence_chain.outcomes[0].citations[1].lines")).toBe("ev-outcomes-0-citations-1-lines");
    expect(fieldId("evidence_chain.turn_ref")).toBe("ev-turn-ref");
  });
});
