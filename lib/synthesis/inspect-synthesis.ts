/** The verdict on a project's synthesis envelope for the dashboard. */
import { isJsonObject } from "@/lib/evidence/card-file";
import { turnId } from "@/lib/synthesis/cards";
import { envelopeProblems, type EnvelopeRead } from "@/lib/synthesis/envelope-file";
import { parseWorkItem } from "@/lib/synthesis/parse-work-item";
import type { TurnKey } from "@/lib/synthesis/schema";
import { validateAgainstWorkspace } from "@/lib/synthesis/validate-workspace";

/** What the inspector needs about the project. */
export type InspectFacts = {
  projectKey: string;
  projectLabel: string;
  /** The universe in index order. */
  universe: TurnKey[];
  committed: Set<string>;
  /** The path the missing-envelope message names. */
  envelopePath: string;
};

/** The §3.5 verdict, plus each stored item's own messages for the work-item list. */
export type SynthesisInspection = {
  complete: boolean;
  /** prompt-diary's messages, verbatim and in its order. */
  errors: string[];
  /** Messages per `work_items` index (parse and validation; not the missing-coverage one). */
  itemIssues: Map<number, string[]>;
  /** True when nothing is wrong but, perhaps, missing coverage (a valid checkpoint or complete). */
  sound: boolean;
};

/**
 * Completeness exactly as prompt-diary's `inspect_project_synthesis` decides it (contract
 * §3.5): a missing envelope; otherwise the envelope (invalid JSON or a non-object reads as
 * `{}`) field checks, then each item in order — not an object, else its stage-A messages, else
 * its stage-B messages against the items before it (each valid item then adds its ref and
 * covered turns) — then `missing covered turn(s): S0001/T0003, …` for uncovered turns.
 * Casefile's content rule (secrets, paths) is a write-time rule and is not re-run here.
 */
export function inspectSynthesis(read: EnvelopeRead, facts: InspectFacts): SynthesisInspection {
  const itemIssues = new Map<number, string[]>();
  if (read.state === "absent") {
    return { complete: false, errors: [`missing project synthesis envelope: ${facts.envelopePath}`], itemIssues, sound: false };
  }
  const envelope = read.parseError === null && isJsonObject(read.value) ? read.value : {};
  const errors = envelopeProblems(envelope, facts.projectKey, facts.projectLabel).map((p) => p.message);
  const universe = new Set(facts.universe.map((t) => turnId(t.session_ref, t.turn_ref)));
  const covered = new Set<string>();
  const refs = new Set<string>();
  const items = Array.isArray(envelope.work_items) ? envelope.work_items : [];
  items.forEach((raw, index) => {
    const issues: string[] = [];
    if (!isJsonObject(raw)) issues.push(`work_items[${index}] must be a JSON object`);
    else {
      const parsed = parseWorkItem(raw);
      if (!parsed.ok) issues.push(...parsed.errors.map((e) => e.message));
      else {
        const found = validateAgainstWorkspace(parsed.item, { universe, committed: facts.committed, alreadyCovered: new Set(covered), existingRefs: new Set(refs) });
        issues.push(...found.map((e) => e.message));
        refs.add(parsed.item.work_item_ref);
        for (const t of parsed.item.covered_turns) covered.add(turnId(t.session_ref, t.turn_ref));
      }
    }
    if (issues.length > 0) itemIssues.set(index, issues);
    errors.push(...issues);
  });
  const structural = errors.length;
  const missing = facts.universe.filter((t) => !covered.has(turnId(t.session_ref, t.turn_ref)));
  if (missing.length > 0) errors.push(`missing covered turn(s): ${missing.map((t) => `${t.session_ref}/${t.turn_ref}`).join(", ")}`);
  return { complete: errors.length === 0, errors, itemIssues, sound: structural === 0 };
}
