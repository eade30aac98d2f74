import { type EvidenceCardView, type LineSpan, parseCitationLines } from "@/lib/evidence/schema";

import { readChain } from "./draft";

/** Every span the card's chains cite (valid spans only), for the viewer to mark those lines. */
export function citedRanges(card: EvidenceCardView): LineSpan[] {
  const spans: LineSpan[] = [];
  const add = (citations: readonly { lines: string }[]) => {
    for (const c of citations) {
      const span = parseCitationLines(c.lines);
      if (span) spans.push(span);
    }
  };
  for (const entry of card.chains) {
    const chain = readChain(entry.chain, entry.turn_ref ?? "");
    add(chain.trigger.citations);
    for (const q of chain.trigger.quoted_messages) add(q.citations);
    for (const part of [...chain.agent_reactions, ...chain.outcomes, ...chain.observed_checks, chain.terminal_state]) add(part.citations);
  }
  return spans;
}
