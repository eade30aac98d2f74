/** An evidence chain's citations checked against its indexed turn's span (contract §2.4 stage C). */
import type { ParsedChain } from "@/lib/evidence/parse-chain";
import type { EvidenceError, LineSpan } from "@/lib/evidence/schema";

/** An indexed turn's span (contract §1.4). */
export type TurnSpan = { turn_ref: string; turn_start_line: number; turn_end_line: number };

/**
 * Stage C (contract §2.4, `validate_evidence_chain_against_turn`): every error collected.
 * First containment of every citation in the turn span, in the order trigger,
 * quoted_messages, agent_reactions, outcomes, observed_checks, terminal_state; then the rule
 * that an outcome must not cite only trigger lines (path always `…outcomes[i].citations[0].lines`).
 */
export function checkChainAgainstTurn(chain: ParsedChain, turn: TurnSpan): EvidenceError[] {
  const errors = citationsOutsideTurn(chain, turn, (span) => span);
  const triggerLines = merge(chain.trigger.citations);
  const reactionLines = merge(chain.agent_reactions.flatMap((r) => r.citations));
  chain.outcomes.forEach((outcome, i) => {
    if (citesOnlyTrigger(outcome.citations, triggerLines, reactionLines)) {
      errors.push({
        path: `evidence_chain.outcomes[${i}].citations[0].lines`,
        message: "a material outcome cites only trigger evidence",
        hint: "cite agent reaction evidence, not only the trigger lines",
      });
    }
  });
  return errors;
}

/** The citation lists of a chain, whatever its citations hold: parsed spans (stage C) or the editor's typed `{lines}`. */
export type ChainCitations<C> = {
  turn_ref: string;
  trigger: { citations: readonly C[]; quoted_messages: readonly { citations: readonly C[] }[] };
  agent_reactions: readonly { citations: readonly C[] }[];
  outcomes: readonly { citations: readonly C[] }[];
  observed_checks: readonly { citations: readonly C[] }[];
  terminal_state: { citations: readonly C[] };
};

/**
 * Stage C's containment rule alone: one error per citation outside `turn`, in the contract's
 * order, worded as the server words it. `spanOf` reads a citation's span; a citation it gives
 * null for (not yet a span) is skipped. The evidence editor runs it on the draft as the
 * reviewer types, with the chain's other parts still incomplete (issue 36).
 */
export function citationsOutsideTurn<C>(chain: ChainCitations<C>, turn: TurnSpan, spanOf: (citation: C) => LineSpan | null): EvidenceError[] {
  const errors: EvidenceError[] = [];
  for (const [path, citation] of citationsInOrder(chain)) {
    const span = spanOf(citation);
    const error = span && spanOutsideTurn(path, span, turn, chain.turn_ref);
    if (error) errors.push(error);
  }
  return errors;
}

/**
 * The containment rule for one span: its error at `path` (the message names `turnRef`, the
 * chain's turn_ref), or null when the span lies inside `turn`.
 */
export function spanOutsideTurn(path: string, span: LineSpan, turn: TurnSpan, turnRef = turn.turn_ref): EvidenceError | null {
  if (span.start >= turn.turn_start_line && span.end <= turn.turn_end_line) return null;
  return {
    path,
    message: `line span ${span.start}-${span.end} is outside turn ${turnRef} span ${turn.turn_start_line}-${turn.turn_end_line}`,
    hint: "cite only lines inside the indexed turn",
  };
}

function* citationsInOrder<C>(chain: ChainCitations<C>): Generator<[string, C]> {
  const p = "evidence_chain";
  const each = function* (spans: readonly C[], owner: string): Generator<[string, C]> {
    for (const [k, span] of spans.entries()) yield [`${owner}.citations[${k}].lines`, span];
  };
  yield* each(chain.trigger.citations, `${p}.trigger`);
  for (const [j, q] of chain.trigger.quoted_messages.entries()) yield* each(q.citations, `${p}.trigger.quoted_messages[${j}]`);
  for (const [i, r] of chain.agent_reactions.entries()) yield* each(r.citations, `${p}.agent_reactions[${i}]`);
  for (const [i, o] of chain.outcomes.entries()) yield* each(o.citations, `${p}.outcomes[${i}]`);
  for (const [i, c] of chain.observed_checks.entries()) yield* each(c.citations, `${p}.observed_checks[${i}]`);
  yield* each(chain.terminal_state.citations, `${p}.terminal_state`);
}

/**
 * The line set of some spans as sorted, disjoint, non-adjacent intervals. prompt-diary builds
 * Python sets of every line; intervals give the same answers without allocating a line per
 * cited line (a span like "1-900000000" would otherwise exhaust memory).
 */
function merge(spans: LineSpan[]): LineSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: LineSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end + 1) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The outcome's lines are non-empty, all among the trigger's lines, and none among the reactions'. */
function citesOnlyTrigger(outcome: LineSpan[], trigger: LineSpan[], reactions: LineSpan[]): boolean {
  if (outcome.length === 0) return false;
  const covered = outcome.every((o) => trigger.some((t) => t.start <= o.start && o.end <= t.end));
  const touchesReaction = outcome.some((o) => reactions.some((r) => o.start <= r.end && r.start <= o.end));
  return covered && !touchesReaction;
}
