/** Evidence stage C: containment in the turn span, outcomes citing more than trigger lines. */
import { describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain } from "@/lib/evidence/__fixtures__/chains";
import { checkChainAgainstTurn } from "@/lib/evidence/check-turn";
import { parseEvidenceChain, type ParsedChain } from "@/lib/evidence/parse-chain";
import type { EvidenceError } from "@/lib/evidence/schema";

type Chain = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke arbitrary shapes into drafts

const T1 = { turn_ref: "T0001", turn_start_line: 2, turn_end_line: 8 };
const ONLY_TRIGGER = (i: number): EvidenceError => ({
  path: `evidence_chain.outcomes[${i}].citations[0].lines`,
  message: "a material outcome cites only trigger evidence",
  hint: "cite agent reaction evidence, not only the trigger lines",
});
const outside = (path: string, lines: string, turn = "T0001", span = "2-8"): EvidenceError => ({
  path,
  message: `line span ${lines} is outside turn ${turn} span ${span}`,
  hint: "cite only lines inside the indexed turn",
});

function parsed(mutate: (c: Chain) => void, base: () => Chain = basicT1Chain): ParsedChain {
  const chain = base();
  mutate(chain);
  const result = parseEvidenceChain(chain);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.chain;
}

describe("stage C: containment in the turn span (contract §2.4)", () => {
  it("accepts citations on the turn's first and last lines", () => {
    expect(checkChainAgainstTurn(parsed(() => undefined), T1)).toEqual([]);
    expect(checkChainAgainstTurn(parsed(() => undefined, basicT2Chain), { turn_ref: "T0002", turn_start_line: 9, turn_end_line: 10 })).toEqual([]);
  });

  it("names the span, the turn and its span: line span 9-10 is outside turn T0001 span 2-8", () => {
    const chain = parsed((c) => (c.terminal_state.citations = [{ lines: "9-10" }]));
    expect(checkChainAgainstTurn(chain, T1)).toEqual([outside("evidence_chain.terminal_state.citations[0].lines", "9-10")]);
  });

  it("flags a span that starts before the turn", () => {
    const chain = parsed((c) => (c.trigger.citations = [{ lines: "1-2" }]));
    expect(checkChainAgainstTurn(chain, T1)).toEqual([outside("evidence_chain.trigger.citations[0].lines", "1-2")]);
  });

  it("checks trigger, quoted_messages, reactions, outcomes, checks, terminal_state — in that order", () => {
    const chain = parsed((c) => {
      c.terminal_state.citations = [{ lines: "20-20" }];
      c.observed_checks[0].citations = [{ lines: "6-7" }, { lines: "19-19" }];
      c.outcomes[0].citations = [{ lines: "18-18" }];
      c.agent_reactions.push({ summary: "more", citations: [{ lines: "3-5" }, { lines: "8-17" }] });
      c.trigger.quoted_messages[0].citations = [{ lines: "0-1" }];
      c.trigger.citations = [{ lines: "2-2" }, { lines: "1-1" }];
    });
    expect(checkChainAgainstTurn(chain, T1)).toEqual([
      outside("evidence_chain.trigger.citations[1].lines", "1-1"),
      outside("evidence_chain.trigger.quoted_messages[0].citations[0].lines", "0-1"),
      outside("evidence_chain.agent_reactions[1].citations[1].lines", "8-17"),
      outside("evidence_chain.outcomes[0].citations[0].lines", "18-18"),
      outside("evidence_chain.observed_checks[0].citations[1].lines", "19-19"),
      outside("evidence_chain.terminal_state.citations[0].lines", "20-20"),
    ]);
  });

  it("writes spans normalized in the message", () => {
    const chain = parsed((c) => (c.terminal_state.citations = [{ lines: "009-010" }]));
    expect(checkChainAgainstTurn(chain, T1)[0]?.message).toBe("line span 9-10 is outside turn T0001 span 2-8");
  });

  it("reports containment before the trigger-only rule", () => {
    const chain = parsed((c) => {
      c.outcomes[0].citations = [{ lines: "2-2" }];
      c.terminal_state.citations = [{ lines: "9-9" }];
    });
    expect(checkChainAgainstTurn(chain, T1)).toEqual([outside("evidence_chain.terminal_state.citations[0].lines", "9-9"), ONLY_TRIGGER(0)]);
  });
});

describe("stage C: an outcome must not cite only trigger lines", () => {
  it("fires when the outcome's lines are all trigger lines and none are reaction lines", () => {
    expect(checkChainAgainstTurn(parsed((c) => (c.outcomes[0].citations = [{ lines: "2-2" }])), T1)).toEqual([ONLY_TRIGGER(0)]);
  });

  it("uses citations[0] in the path whichever citation is at fault, for every outcome", () => {
    const chain = parsed((c) => {
      c.trigger.citations = [{ lines: "2-3" }];
      c.agent_reactions[0].citations = [{ lines: "5-8" }];
      c.outcomes = [
        { category: "code_outcome", summary: "ok", citations: [{ lines: "5-5" }] },
        { category: "other", summary: "only trigger", citations: [{ lines: "3-3" }, { lines: "2-2" }] },
      ];
    });
    expect(checkChainAgainstTurn(chain, T1)).toEqual([ONLY_TRIGGER(1)]);
  });

  it("applies whatever the materiality", () => {
    const chain = parsed((c) => ((c.outcomes[0].citations = [{ lines: "2-2" }]), (c.materiality = "minor")));
    expect(checkChainAgainstTurn(chain, T1)).toEqual([ONLY_TRIGGER(0)]);
  });

  it("treats the trigger's lines as a set across adjacent spans", () => {
    const chain = parsed((c) => {
      c.trigger.citations = [{ lines: "2-2" }, { lines: "3-4" }];
      c.agent_reactions[0].citations = [{ lines: "5-8" }];
      c.outcomes[0].citations = [{ lines: "2-4" }];
    });
    expect(checkChainAgainstTurn(chain, T1)).toEqual([ONLY_TRIGGER(0)]);
  });

  it("does not fire when an outcome line is also a reaction line", () => {
    const chain = parsed((c) => {
      c.trigger.citations = [{ lines: "2-5" }];
      c.outcomes[0].citations = [{ lines: "5-5" }];
    });
    expect(checkChainAgainstTurn(chain, T1)).toEqual([]);
  });

  it("does not fire when the outcome cites a line outside the trigger, or nothing", () => {
    expect(checkChainAgainstTurn(parsed((c) => (c.outcomes[0].citations = [{ lines: "2-3" }])), { ...T1 })).toEqual([]);
    const uncited = parsed((c) => ((c.outcomes[0].citations = []), (c.trigger.citations = [{ lines: "2-8" }])));
    expect(checkChainAgainstTurn(uncited, T1)).toEqual([]);
  });

  it("copes with huge spans without enumerating lines", () => {
    const chain = parsed((c) => {
      c.trigger.citations = [{ lines: "1-900000000" }];
      c.outcomes[0].citations = [{ lines: "2-800000000" }];
      c.agent_reactions[0].citations = [{ lines: "850000000-850000001" }];
    });
    const errors = checkChainAgainstTurn(chain, T1);
    expect(errors.map((e) => e.path)).toContain("evidence_chain.outcomes[0].citations[0].lines");
    expect(errors.at(-1)).toEqual(ONLY_TRIGGER(0));
  });
});
