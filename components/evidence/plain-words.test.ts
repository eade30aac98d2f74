import { describe, expect, it } from "vitest";

import { evidenceErrors } from "@/lib/evidence/schema";

import { plainWords } from "./plain-words";

describe("form messages in plain words", () => {
  it("leads with what to do, keeping the contract message for the expander", () => {
    expect(plainWords(evidenceErrors.controlled("evidence_chain.trigger.type", "trigger.type"))).toBe("Pick a trigger type.");
    expect(plainWords(evidenceErrors.span("evidence_chain.trigger.citations[0].lines"), "20-10")).toBe("The end (10) is before the start (20): write the smaller line first.");
    expect(plainWords(evidenceErrors.span("evidence_chain.trigger.citations[0].lines"), "abc")).toBe("Write a line span such as 12-20 (or one line, 12).");
    expect(plainWords({ path: "p", message: "line span 40-45 is outside turn T0005 span 50-60", hint: "h" })).toBe("Lines 40–45 are not in turn T0005 (lines 50–60). Cite lines of this turn.");
    expect(plainWords({ path: "p", message: "something new", hint: "h" })).toBeNull();
  });

  it("never shows a raw field path (issue 29)", () => {
    expect(plainWords({ path: "work_item.covered_turns", message: "work_item.covered_turns must list at least one entry", hint: "h" })).toBe("Select at least one turn in the strip above.");
    expect(plainWords({ path: "work_item.kind", message: "work_item.kind must be one of evidence_gap_item, excluded_with_reason for an operator item", hint: "h" })).toBe(
      "Kind must be one of evidence_gap_item, excluded_with_reason for an operator item.",
    );
    expect(plainWords({ path: "p", message: "evidence_chain.outcomes[0].summary is too long", hint: "h" })).toBe("Summary is too long.");
  });
});
