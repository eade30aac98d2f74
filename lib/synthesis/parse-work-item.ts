/** Work-item input parsed and checked for shape (contract §3.4 stage A). */
import { isBlankText } from "@/lib/evidence/schema";
import {
  SYNTHESIS_CONTROLLED,
  type SynthesisControlledLabel,
  type SynthesisError,
  type TurnKey,
  WORK_ITEM_REF_PATTERN,
  type WorkItemJson,
} from "@/lib/synthesis/schema";

/** A work item that passed stage A: every value well formed (contract §3.4). */
export type ParsedWorkItem = WorkItemJson;

/** Stage A's verdict. */
export type ParseWorkItemResult = { ok: true; item: ParsedWorkItem } | { ok: false; errors: SynthesisError[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
// NOTE: like prompt-diary, a non-object block reads as {} and a non-list list as [].
const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const SUMMARY_HINT = "provide a concise non-empty string";
const REF_HINT = 'reference a turn as {"session_ref": "S0001", "turn_ref": "T0001"}';
const MATERIAL_HINT = "material_work_item requires trigger and agent_reaction";
const NARRATIVE_HINT = "evidence_gap_item and excluded_with_reason carry no trigger, agent_reaction, outcomes, or terminal_states";

/** Contract §3.4 stage-A message and hint builders. */
export const stageAErrors = {
  nonEmpty: (path: string, hint = SUMMARY_HINT): SynthesisError => ({ path, message: `${path} must be a non-empty string`, hint }),
  controlled: (path: string, label: SynthesisControlledLabel): SynthesisError => ({
    path,
    message: `${path} must be a controlled ${label} value`,
    hint: `use a controlled value such as ${[...SYNTHESIS_CONTROLLED[label]].sort().join(", ")}`,
  }),
  emptyCoveredTurns: (path = "work_item.covered_turns"): SynthesisError => ({
    path,
    message: `${path} must list at least one entry`,
    hint: "every work item must account for at least one indexed turn",
  }),
  badRef: (path = "work_item.work_item_ref"): SynthesisError => ({ path, message: `${path} must match W0001`, hint: "assign refs as W0001, W0002, and so on" }),
  materialRequires: (field: "trigger" | "agent_reaction"): SynthesisError => ({ path: `work_item.${field}`, message: `material_work_item requires ${field}`, hint: MATERIAL_HINT }),
  materialResult: (): SynthesisError => ({
    path: "work_item.outcomes",
    message: "material_work_item requires at least one outcome or terminal_state",
    hint: "add a consolidated outcome or a terminal_state describing the result",
  }),
  narrative: (kind: string, field: string): SynthesisError => ({ path: `work_item.${field}`, message: `${kind} must leave ${field} empty`, hint: NARRATIVE_HINT }),
};

/**
 * Casefile's input check before stage A: seed 001's input is one work item object.
 * prompt-diary assumes a dict; a JSON door can send anything.
 */
export function workItemInputError(raw: unknown): SynthesisError | null {
  if (isObj(raw)) return null;
  return {
    path: "work_item",
    message: "work_item must be a JSON object holding one work item",
    hint: "send one work item: {work_item_ref, kind, title, covered_turns, trigger, agent_reaction, outcomes, terminal_states, limits, reason, confidence}",
  };
}

/**
 * Stage A, the item-only parse (contract §3.4): collects every error in the contract's order —
 * kind, trigger, agent_reaction, outcomes, terminal_states, required-by-kind, work_item_ref,
 * title, covered_turns, limits, reason, confidence. A `trigger`/`agent_reaction` that is null
 * or absent is absent; any other value is a block (a non-object reads as `{}`). Unknown keys
 * are dropped from the parsed item.
 */
export function parseWorkItem(raw: unknown): ParseWorkItemResult {
  const errors: SynthesisError[] = [];
  const root = asObj(raw);
  const p = "work_item";
  const kind = enumValue(root.kind, `${p}.kind`, "work item kind", errors);
  const trigger = root.trigger == null ? undefined : parseTrigger(asObj(root.trigger), `${p}.trigger`, errors);
  const agent_reaction = root.agent_reaction == null ? undefined : parseReaction(asObj(root.agent_reaction), `${p}.agent_reaction`, errors);
  const outcomes = asList(root.outcomes).map((item, i) => {
    const o = asObj(item);
    const at = `${p}.outcomes[${i}]`;
    return {
      category: enumValue(o.category, `${at}.category`, "outcome category", errors),
      summary: text(o.summary, `${at}.summary`, errors),
      evidence_refs: turnRefs(o.evidence_refs, `${at}.evidence_refs`, errors),
      confidence: enumValue(o.confidence, `${at}.confidence`, "confidence", errors),
    };
  });
  const terminal_states = asList(root.terminal_states).map((item, i) => {
    const s = asObj(item);
    const at = `${p}.terminal_states[${i}]`;
    return { type: enumValue(s.type, `${at}.type`, "terminal_state type", errors), summary: text(s.summary, `${at}.summary`, errors), evidence_refs: turnRefs(s.evidence_refs, `${at}.evidence_refs`, errors) };
  });
  if (kind === "material_work_item") {
    if (!trigger) errors.push(stageAErrors.materialRequires("trigger"));
    if (!agent_reaction) errors.push(stageAErrors.materialRequires("agent_reaction"));
    if (outcomes.length === 0 && terminal_states.length === 0) errors.push(stageAErrors.materialResult());
  } else if (kind === "evidence_gap_item" || kind === "excluded_with_reason") {
    if (trigger) errors.push(stageAErrors.narrative(kind, "trigger"));
    if (agent_reaction) errors.push(stageAErrors.narrative(kind, "agent_reaction"));
    if (outcomes.length > 0) errors.push(stageAErrors.narrative(kind, "outcomes"));
    if (terminal_states.length > 0) errors.push(stageAErrors.narrative(kind, "terminal_states"));
  }
  const work_item_ref = typeof root.work_item_ref === "string" ? root.work_item_ref : "";
  if (!WORK_ITEM_REF_PATTERN.test(work_item_ref)) errors.push(stageAErrors.badRef(`${p}.work_item_ref`));
  const title = text(root.title, `${p}.title`, errors);
  const coveredList = asList(root.covered_turns);
  if (coveredList.length === 0) errors.push(stageAErrors.emptyCoveredTurns(`${p}.covered_turns`));
  const covered_turns = turnRefs(coveredList, `${p}.covered_turns`, errors);
  const limits = textList(root.limits, `${p}.limits`, errors);
  let reason: string | undefined;
  if (kind === "excluded_with_reason") reason = text(root.reason, `${p}.reason`, errors);
  else if (typeof root.reason === "string") reason = root.reason;
  const confidence = enumValue(root.confidence, `${p}.confidence`, "confidence", errors);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, item: { work_item_ref, kind, title, covered_turns, trigger, agent_reaction, outcomes, terminal_states, limits, reason, confidence } };
}

function parseTrigger(o: Obj, at: string, errors: SynthesisError[]) {
  return { summary: text(o.summary, `${at}.summary`, errors), evidence_refs: turnRefs(o.evidence_refs, `${at}.evidence_refs`, errors) };
}

function parseReaction(o: Obj, at: string, errors: SynthesisError[]) {
  return { summary: text(o.summary, `${at}.summary`, errors), main_actions: textList(o.main_actions, `${at}.main_actions`, errors) };
}

function text(value: unknown, path: string, errors: SynthesisError[], hint = SUMMARY_HINT): string {
  if (typeof value === "string" && !isBlankText(value)) return value;
  errors.push(stageAErrors.nonEmpty(path, hint));
  return typeof value === "string" ? value : "";
}

function textList(value: unknown, path: string, errors: SynthesisError[]): string[] {
  const out: string[] = [];
  asList(value).forEach((item, i) => {
    if (typeof item === "string" && !isBlankText(item)) out.push(item);
    else errors.push(stageAErrors.nonEmpty(`${path}[${i}]`));
  });
  return out;
}

function turnRefs(value: unknown, path: string, errors: SynthesisError[]): TurnKey[] {
  return asList(value).map((item, i) => {
    const o = asObj(item);
    return { session_ref: text(o.session_ref, `${path}[${i}].session_ref`, errors, REF_HINT), turn_ref: text(o.turn_ref, `${path}[${i}].turn_ref`, errors, REF_HINT) };
  });
}

function enumValue(value: unknown, path: string, label: SynthesisControlledLabel, errors: SynthesisError[]): string {
  if (typeof value === "string" && (SYNTHESIS_CONTROLLED[label] as readonly string[]).includes(value)) return value;
  errors.push(stageAErrors.controlled(path, label));
  return typeof value === "string" ? value : "";
}

/**
 * The canonical serialized item (contract §3.2): fixed key order; `trigger`, `agent_reaction`
 * and `reason` omitted when absent; the lists always present.
 */
export function workItemToJson(item: ParsedWorkItem): WorkItemJson {
  const refsJson = (list: TurnKey[]) => list.map((r) => ({ session_ref: r.session_ref, turn_ref: r.turn_ref }));
  const out: WorkItemJson = { work_item_ref: item.work_item_ref, kind: item.kind, title: item.title, covered_turns: refsJson(item.covered_turns) } as WorkItemJson;
  if (item.trigger) out.trigger = { summary: item.trigger.summary, evidence_refs: refsJson(item.trigger.evidence_refs) };
  if (item.agent_reaction) out.agent_reaction = { summary: item.agent_reaction.summary, main_actions: [...item.agent_reaction.main_actions] };
  out.outcomes = item.outcomes.map((o) => ({ category: o.category, summary: o.summary, evidence_refs: refsJson(o.evidence_refs), confidence: o.confidence }));
  out.terminal_states = item.terminal_states.map((s) => ({ type: s.type, summary: s.summary, evidence_refs: refsJson(s.evidence_refs) }));
  out.limits = [...item.limits];
  if (item.reason !== undefined) out.reason = item.reason;
  out.confidence = item.confidence;
  return out;
}
