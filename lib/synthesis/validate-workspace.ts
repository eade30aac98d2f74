/** Work items checked against the workspace (contract §3.4 stage B). */
import { pyRepr } from "@/lib/evidence/py-repr";
import { turnId } from "@/lib/synthesis/cards";
import type { ParsedWorkItem } from "@/lib/synthesis/parse-work-item";
import type { SynthesisError, TurnKey } from "@/lib/synthesis/schema";

/** What stage B checks an item against: sets of {@link turnId}s and the refs in use. */
export type WorkspaceFacts = {
  /** Every indexed turn (contract §3.5 universe). */
  universe: Set<string>;
  /** Turns with a committed evidence chain (contract §3.3). */
  committed: Set<string>;
  /** Turns covered by the envelope's stored items. */
  alreadyCovered: Set<string>;
  /** `work_item_ref`s of the stored items. */
  existingRefs: Set<string>;
};

const show = (t: TurnKey) => `${t.session_ref}/${t.turn_ref}`;

/** Contract §3.4 stage-B message and hint builders. */
export const stageBErrors = {
  unknownProject: (projectKey: string): SynthesisError => ({ path: "project_key", message: `unknown project_key ${pyRepr(projectKey)}`, hint: "use the project_key from the prepared workspace" }),
  refReused: (ref: string): SynthesisError => ({
    path: "work_item.work_item_ref",
    message: `work_item_ref ${pyRepr(ref)} is already used in the envelope`,
    hint: "each work_item_ref must be unique within the envelope",
  }),
  notIndexed: (path: string, t: TurnKey): SynthesisError => ({ path, message: `covered turn ${show(t)} is not an indexed turn`, hint: "cover only turns listed in sessions.index.jsonl" }),
  alreadyCovered: (path: string, t: TurnKey): SynthesisError => ({ path, message: `turn ${show(t)} is already covered by another work item`, hint: "every indexed turn belongs to exactly one work item" }),
  gapWithChain: (path: string, t: TurnKey): SynthesisError => ({
    path,
    message: `evidence_gap_item cannot cover ${show(t)}, which has a committed evidence chain`,
    hint: "an evidence_gap_item covers only turns with no committed chain",
  }),
  nonGapWithoutChain: (path: string, t: TurnKey): SynthesisError => ({
    path,
    message: `${show(t)} has no committed evidence chain; only an evidence_gap_item may cover it`,
    hint: "cover turns without a chain using an evidence_gap_item",
  }),
  refNotCovered: (path: string, t: TurnKey): SynthesisError => ({ path, message: `evidence ref ${show(t)} must be one of this work item's covered_turns`, hint: "cite only turns in this item's covered_turns" }),
  refWithoutChain: (path: string, t: TurnKey): SynthesisError => ({ path, message: `evidence ref ${show(t)} has no committed evidence chain and cannot be cited`, hint: "a turn with no chain cannot be cited" }),
};

/**
 * Stage B's collected checks (prompt-diary's `validate_work_item_against_workspace`, contract
 * §3.4), in its order: the ref reused; then per covered turn — not indexed (further checks on
 * that entry skipped), already covered or repeated in this item, a gap item on a chained turn,
 * a non-gap item on a chain-less turn; then every evidence ref (trigger, outcomes,
 * terminal_states) — not among this item's indexed covered turns, else without a chain.
 */
export function validateAgainstWorkspace(item: ParsedWorkItem, facts: WorkspaceFacts): SynthesisError[] {
  const errors: SynthesisError[] = [];
  if (facts.existingRefs.has(item.work_item_ref)) errors.push(stageBErrors.refReused(item.work_item_ref));
  const isGap = item.kind === "evidence_gap_item";
  const coveredHere = new Set<string>();
  item.covered_turns.forEach((t, i) => {
    const id = turnId(t.session_ref, t.turn_ref);
    const path = `work_item.covered_turns[${i}]`;
    if (!facts.universe.has(id)) {
      errors.push(stageBErrors.notIndexed(path, t));
      return;
    }
    if (facts.alreadyCovered.has(id) || coveredHere.has(id)) errors.push(stageBErrors.alreadyCovered(path, t));
    coveredHere.add(id);
    const hasChain = facts.committed.has(id);
    if (isGap && hasChain) errors.push(stageBErrors.gapWithChain(path, t));
    if (!isGap && !hasChain) errors.push(stageBErrors.nonGapWithoutChain(path, t));
  });
  for (const [path, t] of evidenceRefs(item)) {
    const id = turnId(t.session_ref, t.turn_ref);
    if (!coveredHere.has(id)) errors.push(stageBErrors.refNotCovered(path, t));
    else if (!facts.committed.has(id)) errors.push(stageBErrors.refWithoutChain(path, t));
  }
  return errors;
}

function* evidenceRefs(item: ParsedWorkItem): Generator<[string, TurnKey]> {
  for (const [i, t] of (item.trigger?.evidence_refs ?? []).entries()) yield [`work_item.trigger.evidence_refs[${i}]`, t];
  for (const [j, o] of item.outcomes.entries()) for (const [i, t] of o.evidence_refs.entries()) yield [`work_item.outcomes[${j}].evidence_refs[${i}]`, t];
  for (const [j, s] of item.terminal_states.entries()) for (const [i, t] of s.evidence_refs.entries()) yield [`work_item.terminal_states[${j}].evidence_refs[${i}]`, t];
}
