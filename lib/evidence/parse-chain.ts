/** Evidence chain input parsed and checked for shape (contract §2.4 stage A). */
import {
  type ControlledLabel,
  CONTROLLED,
  type EvidenceChain,
  type EvidenceError,
  evidenceErrors,
  formatCitationLines,
  isBlankText,
  type LineSpan,
  parseCitationLines,
} from "@/lib/evidence/schema";

/** A chain part with its parsed citation spans. */
export type CitedPart = { summary: string; citations: LineSpan[] };

/** A chain that passed stage A: every value well formed, spans parsed (contract §2.4). */
export type ParsedChain = {
  turn_ref: string;
  trigger: CitedPart & { type: string; quoted_messages: { text: string; citations: LineSpan[] }[] };
  agent_reactions: CitedPart[];
  outcomes: (CitedPart & { category: string })[];
  observed_checks: (CitedPart & { type: string })[];
  terminal_state: CitedPart & { type: string };
  materiality: string;
};

/** Stage A's verdict: the parsed chain, or every error in emission order. */
export type ParseChainResult = { ok: true; chain: ParsedChain } | { ok: false; errors: EvidenceError[] };

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
// NOTE: like prompt-diary, a list field that is not a list reads as [] (contract §2.2: absent lists are []).
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Stage A, the chain-only parse (contract §2.4): collects every error, in the contract's
 * emission order — outcomes, terminal_state, the material_result check, turn_ref, trigger
 * (type, summary, quoted_messages text + citations, citations), agent_reactions,
 * observed_checks, materiality. Non-object parts read as `{}`; unknown keys are ignored.
 */
export function parseEvidenceChain(raw: unknown): ParseChainResult {
  const errors: EvidenceError[] = [];
  const root = asObj(raw);
  const p = "evidence_chain";
  const outcomes = asList(root.outcomes).map((item, i) => {
    const o = asObj(item);
    const at = `${p}.outcomes[${i}]`;
    return { category: enumValue(o.category, `${at}.category`, "outcome category", errors), ...cited(o, at, errors) };
  });
  const ts = asObj(root.terminal_state);
  const terminal_state = { type: enumValue(ts.type, `${p}.terminal_state.type`, "terminal_state.type", errors), ...cited(ts, `${p}.terminal_state`, errors) };
  if (outcomes.length === 0 && terminal_state.type === "material_result") errors.push(evidenceErrors.materialResult(`${p}.outcomes`));
  const turn_ref = text(root.turn_ref, `${p}.turn_ref`, errors);
  const tr = asObj(root.trigger);
  const type = enumValue(tr.type, `${p}.trigger.type`, "trigger.type", errors);
  const summary = text(tr.summary, `${p}.trigger.summary`, errors);
  const quoted_messages = asList(tr.quoted_messages).map((item, j) => {
    const q = asObj(item);
    const at = `${p}.trigger.quoted_messages[${j}]`;
    return { text: text(q.text, `${at}.text`, errors), citations: spans(q.citations, at, errors) };
  });
  const trigger = { type, summary, quoted_messages, citations: spans(tr.citations, `${p}.trigger`, errors) };
  const agent_reactions = asList(root.agent_reactions).map((item, i) => cited(asObj(item), `${p}.agent_reactions[${i}]`, errors));
  const observed_checks = asList(root.observed_checks).map((item, i) => {
    const c = asObj(item);
    const at = `${p}.observed_checks[${i}]`;
    return { type: enumValue(c.type, `${at}.type`, "check type", errors), ...cited(c, at, errors) };
  });
  const materiality = enumValue(root.materiality, `${p}.materiality`, "materiality", errors);
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, chain: { turn_ref, trigger, agent_reactions, outcomes, observed_checks, terminal_state, materiality } };
}

function cited(o: Obj, at: string, errors: EvidenceError[]): CitedPart {
  return { summary: text(o.summary, `${at}.summary`, errors), citations: spans(o.citations, at, errors) };
}

function text(value: unknown, path: string, errors: EvidenceError[]): string {
  if (typeof value === "string" && !isBlankText(value)) return value;
  errors.push(evidenceErrors.nonEmpty(path));
  return typeof value === "string" ? value : "";
}

function enumValue(value: unknown, path: string, label: ControlledLabel, errors: EvidenceError[]): string {
  if (typeof value === "string" && Object.hasOwn(CONTROLLED[label], value)) return value;
  errors.push(evidenceErrors.controlled(path, label));
  return typeof value === "string" ? value : "";
}

function spans(value: unknown, owner: string, errors: EvidenceError[]): LineSpan[] {
  return asList(value).map((item, k) => {
    const span = parseCitationLines(asObj(item).lines);
    if (span) return span;
    errors.push(evidenceErrors.span(`${owner}.citations[${k}].lines`));
    return { start: 0, end: 0 };
  });
}

const citationsJson = (list: LineSpan[]) => list.map((span) => ({ lines: formatCitationLines(span) }));

/**
 * The canonical serialized chain (contract §2.2): fixed key order, unknown input keys dropped,
 * absent lists written as `[]`, citation spans normalized (`"07-7"` → `"7-7"`).
 */
export function chainToJson(chain: ParsedChain): EvidenceChain {
  const part = (x: CitedPart) => ({ summary: x.summary, citations: citationsJson(x.citations) });
  return {
    turn_ref: chain.turn_ref,
    trigger: {
      type: chain.trigger.type,
      summary: chain.trigger.summary,
      quoted_messages: chain.trigger.quoted_messages.map((q) => ({ text: q.text, citations: citationsJson(q.citations) })),
      citations: citationsJson(chain.trigger.citations),
    },
    agent_reactions: chain.agent_reactions.map(part),
    outcomes: chain.outcomes.map((o) => ({ category: o.category, ...part(o) })),
    observed_checks: chain.observed_checks.map((c) => ({ type: c.type, ...part(c) })),
    terminal_state: { type: chain.terminal_state.type, ...part(chain.terminal_state) },
    materiality: chain.materiality,
  } as EvidenceChain;
}
