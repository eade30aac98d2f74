/** Evidence stage A rules, their emission order and canonical serialization. */
import { describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain } from "@/lib/evidence/__fixtures__/chains";
import { chainToJson, parseEvidenceChain } from "@/lib/evidence/parse-chain";
import { pyRepr } from "@/lib/evidence/py-repr";
import { type EvidenceError, evidenceChainSchema, zodToEvidenceErrors } from "@/lib/evidence/schema";

type Chain = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke arbitrary shapes into drafts

const NON_EMPTY_HINT = "provide a concise non-empty summary";
const SPAN_HINT = 'write the span as "start-end" with start <= end';
const nonEmpty = (path: string): EvidenceError => ({ path, message: `${path} must be a non-empty string`, hint: NON_EMPTY_HINT });
const span = (path: string): EvidenceError => ({ path, message: `${path} must be a numeric line span`, hint: SPAN_HINT });
const controlled = (path: string, label: string, allowed: string): EvidenceError => ({
  path,
  message: `${path} must be a controlled ${label} value`,
  hint: `use a controlled value such as ${allowed}`,
});
const TRIGGERS = "explicit_user_message, implicit_context, resume_or_continue, user_approval, user_correction";
const OUTCOMES = "blocker_outcome, code_outcome, decision_outcome, document_outcome, other, process_outcome, research_outcome, validation_outcome";
const CHECKS = "artifact_inspection, command_output, other, test_output, user_feedback";
const TERMINALS = "blocked, clarification_only, evidence_gap, failed, interrupted, material_result, no_material, other";
const MATERIAL_RESULT: EvidenceError = {
  path: "evidence_chain.outcomes",
  message:
    "material_result terminal_state requires at least one material outcome; empty outcomes is allowed only when terminal_state explains a non-success ending",
  hint: "add a material outcome, or use a terminal_state.type that explains the non-success ending",
};

function errorsOf(mutate: (c: Chain) => void): EvidenceError[] {
  const chain: Chain = basicT1Chain();
  mutate(chain);
  const result = parseEvidenceChain(chain);
  return result.ok ? [] : result.errors;
}

describe("stage A: one rule at a time (contract §2.4), path + message + hint", () => {
  it.each<[string, (c: Chain) => void, EvidenceError]>([
    ["turn_ref missing", (c) => delete c.turn_ref, nonEmpty("evidence_chain.turn_ref")],
    ["turn_ref not a string", (c) => (c.turn_ref = 1), nonEmpty("evidence_chain.turn_ref")],
    ["turn_ref whitespace only", (c) => (c.turn_ref = " \t\u3000"), nonEmpty("evidence_chain.turn_ref")],
    ["trigger.summary empty", (c) => (c.trigger.summary = ""), nonEmpty("evidence_chain.trigger.summary")],
    ["quoted message text blank", (c) => (c.trigger.quoted_messages[0].text = "\n"), nonEmpty("evidence_chain.trigger.quoted_messages[0].text")],
    ["reaction summary missing", (c) => delete c.agent_reactions[0].summary, nonEmpty("evidence_chain.agent_reactions[0].summary")],
    ["outcome summary blank", (c) => (c.outcomes[0].summary = "  "), nonEmpty("evidence_chain.outcomes[0].summary")],
    ["check summary not a string", (c) => (c.observed_checks[0].summary = ["x"]), nonEmpty("evidence_chain.observed_checks[0].summary")],
    ["terminal_state summary empty", (c) => (c.terminal_state.summary = ""), nonEmpty("evidence_chain.terminal_state.summary")],
    ["trigger.type not controlled", (c) => (c.trigger.type = "user_request"), controlled("evidence_chain.trigger.type", "trigger.type", TRIGGERS)],
    ["outcome category is a completion label", (c) => (c.outcomes[0].category = "completed"), controlled("evidence_chain.outcomes[0].category", "outcome category", OUTCOMES)],
    ["outcome category is a verification label", (c) => (c.outcomes[0].category = "verified"), controlled("evidence_chain.outcomes[0].category", "outcome category", OUTCOMES)],
    ["outcome category is an engagement label", (c) => (c.outcomes[0].category = "direction"), controlled("evidence_chain.outcomes[0].category", "outcome category", OUTCOMES)],
    ["check type is a verification status", (c) => (c.observed_checks[0].type = "passed"), controlled("evidence_chain.observed_checks[0].type", "check type", CHECKS)],
    ["terminal_state.type not controlled", (c) => (c.terminal_state.type = "done"), controlled("evidence_chain.terminal_state.type", "terminal_state.type", TERMINALS)],
    ["terminal_state.type not a string", (c) => (c.terminal_state.type = 3), controlled("evidence_chain.terminal_state.type", "terminal_state.type", TERMINALS)],
    ["materiality not controlled", (c) => (c.materiality = "high"), controlled("evidence_chain.materiality", "materiality", "material, minor, none")],
    ["materiality missing", (c) => delete c.materiality, controlled("evidence_chain.materiality", "materiality", "material, minor, none")],
    ['trigger citation "2"', (c) => (c.trigger.citations[0].lines = "2"), span("evidence_chain.trigger.citations[0].lines")],
    ["trigger citation integer 2", (c) => (c.trigger.citations[0].lines = 2), span("evidence_chain.trigger.citations[0].lines")],
    ["quoted message citation reversed", (c) => (c.trigger.quoted_messages[0].citations[0].lines = "3-2"), span("evidence_chain.trigger.quoted_messages[0].citations[0].lines")],
    ["reaction citation with spaces", (c) => (c.agent_reactions[0].citations[0].lines = " 3-5"), span("evidence_chain.agent_reactions[0].citations[0].lines")],
    ["outcome citation non-digits", (c) => (c.outcomes[0].citations[0].lines = "a-b"), span("evidence_chain.outcomes[0].citations[0].lines")],
    ["check citation with two dashes", (c) => (c.observed_checks[0].citations[0].lines = "6-7-8"), span("evidence_chain.observed_checks[0].citations[0].lines")],
    ["terminal citation without lines", (c) => (c.terminal_state.citations[0] = { line: "8-8" }), span("evidence_chain.terminal_state.citations[0].lines")],
    ["citation that is not an object", (c) => (c.trigger.citations = [{ lines: "2-2" }, "2-2"]), span("evidence_chain.trigger.citations[1].lines")],
    ["citation with a negative start", (c) => (c.trigger.citations[0].lines = "-2-2"), span("evidence_chain.trigger.citations[0].lines")],
    ["material_result with empty outcomes", (c) => (c.outcomes = []), MATERIAL_RESULT],
    ["material_result with absent outcomes", (c) => delete c.outcomes, MATERIAL_RESULT],
  ])("%s", (_label, mutate, expected) => {
    expect(errorsOf(mutate)).toEqual([expected]);
  });

  it("reads a missing trigger or terminal_state as {}: type and summary errors, no material check", () => {
    expect(errorsOf((c) => delete c.trigger)).toEqual([controlled("evidence_chain.trigger.type", "trigger.type", TRIGGERS), nonEmpty("evidence_chain.trigger.summary")]);
    expect(errorsOf((c) => (c.terminal_state = "material_result"))).toEqual([
      controlled("evidence_chain.terminal_state.type", "terminal_state.type", TERMINALS),
      nonEmpty("evidence_chain.terminal_state.summary"),
    ]);
  });

  it("reads non-object list items as {}", () => {
    expect(errorsOf((c) => (c.agent_reactions = [c.agent_reactions[0], 7]))).toEqual([nonEmpty("evidence_chain.agent_reactions[1].summary")]);
  });

  it("allows empty outcomes when terminal_state explains a non-success ending", () => {
    expect(errorsOf((c) => ((c.outcomes = []), (c.terminal_state.type = "blocked")))).toEqual([]);
  });

  it("accepts both basic-two-turns chains", () => {
    expect(parseEvidenceChain(basicT1Chain()).ok).toBe(true);
    expect(parseEvidenceChain(basicT2Chain()).ok).toBe(true);
  });
});

describe("stage A emission order", () => {
  it("emits outcomes, terminal_state, turn_ref, trigger, reactions, checks, materiality", () => {
    const chain = {
      turn_ref: "  ",
      trigger: { type: "bogus", summary: "", quoted_messages: [{ text: 3, citations: [{ lines: "2" }] }, "x"], citations: [{ lines: 2 }] },
      agent_reactions: [{ summary: null, citations: [{ lines: "5-4" }] }],
      outcomes: [{ category: "completed", summary: "", citations: [{ lines: "a-b" }] }],
      observed_checks: [{ type: "verified", summary: " ", citations: ["2-3"] }],
      terminal_state: { type: "done", summary: "", citations: [{ lines: "1-" }] },
      materiality: "high",
    };
    const result = parseEvidenceChain(chain);
    expect(result.ok).toBe(false);
    const p = "evidence_chain";
    expect(result.ok ? [] : result.errors).toEqual([
      controlled(`${p}.outcomes[0].category`, "outcome category", OUTCOMES),
      nonEmpty(`${p}.outcomes[0].summary`),
      span(`${p}.outcomes[0].citations[0].lines`),
      controlled(`${p}.terminal_state.type`, "terminal_state.type", TERMINALS),
      nonEmpty(`${p}.terminal_state.summary`),
      span(`${p}.terminal_state.citations[0].lines`),
      nonEmpty(`${p}.turn_ref`),
      controlled(`${p}.trigger.type`, "trigger.type", TRIGGERS),
      nonEmpty(`${p}.trigger.summary`),
      nonEmpty(`${p}.trigger.quoted_messages[0].text`),
      span(`${p}.trigger.quoted_messages[0].citations[0].lines`),
      nonEmpty(`${p}.trigger.quoted_messages[1].text`),
      span(`${p}.trigger.citations[0].lines`),
      nonEmpty(`${p}.agent_reactions[0].summary`),
      span(`${p}.agent_reactions[0].citations[0].lines`),
      controlled(`${p}.observed_checks[0].type`, "check type", CHECKS),
      nonEmpty(`${p}.observed_checks[0].summary`),
      span(`${p}.observed_checks[0].citations[0].lines`),
      controlled(`${p}.materiality`, "materiality", "material, minor, none"),
    ]);
  });

  it("places the material_result check after terminal_state and before turn_ref", () => {
    const errors = errorsOf((c) => ((c.outcomes = []), (c.terminal_state.summary = ""), (c.turn_ref = "")));
    expect(errors).toEqual([nonEmpty("evidence_chain.terminal_state.summary"), MATERIAL_RESULT, nonEmpty("evidence_chain.turn_ref")]);
  });
});

describe("canonical serialization (contract §2.2)", () => {
  it("writes the canonical key order, drops unknown keys, writes absent lists as []", () => {
    const raw = {
      materiality: "none",
      extra: "dropped",
      terminal_state: { citations: [{ lines: "10-10", note: "x" }], summary: "No work.", type: "no_material" },
      trigger: { citations: [{ lines: "09-9" }], summary: "Continue.", type: "resume_or_continue", speaker: "user" },
      turn_ref: "T0002",
    };
    const result = parseEvidenceChain(raw);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const json = chainToJson(result.chain);
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        turn_ref: "T0002",
        trigger: { type: "resume_or_continue", summary: "Continue.", quoted_messages: [], citations: [{ lines: "9-9" }] },
        agent_reactions: [],
        outcomes: [],
        observed_checks: [],
        terminal_state: { type: "no_material", summary: "No work.", citations: [{ lines: "10-10" }] },
        materiality: "none",
      }),
    );
  });

  it("keeps summaries verbatim (no trimming)", () => {
    const chain = basicT1Chain() as Chain;
    chain.trigger.summary = "  padded  ";
    const result = parseEvidenceChain(chain);
    expect(result.ok && chainToJson(result.chain).trigger.summary).toBe("  padded  ");
  });
});

describe("the form's zod schema speaks the same errors", () => {
  it("maps shape errors to stage A's {path, message, hint}", () => {
    const draft = basicT1Chain() as Chain;
    draft.trigger.summary = " ";
    draft.outcomes[0].category = "completed";
    draft.observed_checks[0].citations[0].lines = "7-6";
    draft.materiality = "high";
    const zod = evidenceChainSchema.safeParse(draft);
    const stageA = parseEvidenceChain(draft);
    expect(zod.success).toBe(false);
    const sort = (e: EvidenceError[]) => [...e].sort((a, b) => a.path.localeCompare(b.path));
    expect(sort(zod.success ? [] : zodToEvidenceErrors(zod.error))).toEqual(sort(stageA.ok ? [] : stageA.errors));
  });

  it("reports material_result without outcomes at evidence_chain.outcomes", () => {
    const draft = basicT1Chain() as Chain;
    draft.outcomes = [];
    const zod = evidenceChainSchema.safeParse(draft);
    expect(zod.success ? [] : zodToEvidenceErrors(zod.error)).toEqual([MATERIAL_RESULT]);
  });

  it("accepts the valid chains", () => {
    expect(evidenceChainSchema.safeParse(basicT1Chain()).success).toBe(true);
    expect(evidenceChainSchema.safeParse(basicT2Chain()).success).toBe(true);
  });
});

describe("pyRepr quotes like Python", () => {
  it.each([
    ["T0001", "'T0001'"],
    ["it's", `"it's"`],
    [`a'b"c`, `'a\\'b"c'`],
    ["x\ny\\", "'x\\ny\\\\'"],
    ["\u0007\u2028é", "'\\x07\\u2028é'"],
  ])("%j", (input, expected) => {
    expect(pyRepr(input)).toBe(expected);
  });
});
