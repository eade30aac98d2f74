/*
 * The editor's working copy of one chain. Every value is a string the inputs hold as typed;
 * list items carry a client-only `id` so React keys survive add/remove. `toChainInput` turns it
 * into the chain the zod schema and the server actions check.
 */

export type CitationDraft = { id: string; lines: string };
export type CitedDraft = { id: string; summary: string; citations: CitationDraft[] };
export type QuotedDraft = { id: string; text: string; citations: CitationDraft[] };
export type ChainDraft = {
  turn_ref: string;
  trigger: { type: string; summary: string; quoted_messages: QuotedDraft[]; citations: CitationDraft[] };
  agent_reactions: CitedDraft[];
  outcomes: (CitedDraft & { category: string })[];
  observed_checks: (CitedDraft & { type: string })[];
  terminal_state: { type: string; summary: string; citations: CitationDraft[] };
  materiality: string;
};

let nextId = 0;
/** A key for a new list item (client-only; never sent). */
export const newId = (): string => `d${++nextId}`;

export const newCitation = (lines = ""): CitationDraft => ({ id: newId(), lines });
export const newCited = (): CitedDraft => ({ id: newId(), summary: "", citations: [] });

/** A blank chain for a turn without one: the reviewer picks every controlled value. */
export function emptyDraft(turnRef: string): ChainDraft {
  return {
    turn_ref: turnRef,
    trigger: { type: "", summary: "", quoted_messages: [], citations: [] },
    agent_reactions: [],
    outcomes: [],
    observed_checks: [],
    terminal_state: { type: "", summary: "", citations: [] },
    materiality: "",
  };
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
const cites = (v: unknown) => list(v).map((c) => ({ lines: str(c.lines) }));
const cited = (o: Obj) => ({ summary: str(o.summary), citations: cites(o.citations) });

/** A stored chain as strings, leniently: the card may hold anything, and the panel shows it as is. */
export function readChain(chain: unknown, turnRef: string): ChainInput {
  const c = obj(chain);
  const trigger = obj(c.trigger);
  const terminal = obj(c.terminal_state);
  return {
    turn_ref: turnRef,
    trigger: {
      type: str(trigger.type),
      summary: str(trigger.summary),
      quoted_messages: list(trigger.quoted_messages).map((q) => ({ text: str(q.text), citations: cites(q.citations) })),
      citations: cites(trigger.citations),
    },
    agent_reactions: list(c.agent_reactions).map(cited),
    outcomes: list(c.outcomes).map((o) => ({ category: str(o.category), ...cited(o) })),
    observed_checks: list(c.observed_checks).map((o) => ({ type: str(o.type), ...cited(o) })),
    terminal_state: { type: str(terminal.type), ...cited(terminal) },
    materiality: str(c.materiality),
  };
}

/** A stored chain as an editable draft (list items get keys). */
export function draftFromChain(chain: unknown, turnRef: string): ChainDraft {
  const c = readChain(chain, turnRef);
  const ids = (citations: { lines: string }[]) => citations.map((x) => newCitation(x.lines));
  const keyed = <T extends { citations: { lines: string }[] }>(item: T) => ({ ...item, id: newId(), citations: ids(item.citations) });
  return {
    turn_ref: turnRef,
    trigger: { ...c.trigger, quoted_messages: c.trigger.quoted_messages.map(keyed), citations: ids(c.trigger.citations) },
    agent_reactions: c.agent_reactions.map(keyed),
    outcomes: c.outcomes.map(keyed),
    observed_checks: c.observed_checks.map(keyed),
    terminal_state: { ...c.terminal_state, citations: ids(c.terminal_state.citations) },
    materiality: c.materiality,
  };
}

const SPAN_INPUT = /^L?(\d+)(?:\s*[-–—]\s*L?(\d+))?$/i;

/**
 * A citation as typed → the contract's `a-b`: `12` → `12-12`, `L12–L20` → `12-20`. Anything
 * else is returned trimmed, unchanged, so the schema reports it at its field.
 */
export function normalizeCitation(typed: string): string {
  const text = typed.trim();
  const match = SPAN_INPUT.exec(text);
  if (!match) return text;
  return `${match[1]}-${match[2] ?? match[1]}`;
}

type CitationInput = { lines: string };
type CitedInput = { summary: string; citations: CitationInput[] };
/** What the schema parses and the actions receive; controlled values may still be "" here. */
export type ChainInput = {
  turn_ref: string;
  trigger: CitedInput & { type: string; quoted_messages: { text: string; citations: CitationInput[] }[] };
  agent_reactions: CitedInput[];
  outcomes: (CitedInput & { category: string })[];
  observed_checks: (CitedInput & { type: string })[];
  terminal_state: CitedInput & { type: string };
  materiality: string;
};

const outCites = (c: CitationDraft[]): CitationInput[] => c.map((x) => ({ lines: normalizeCitation(x.lines) }));

/** The chain sent to the schema and the server: canonical key order, normalized citations. */
export function toChainInput(d: ChainDraft): ChainInput {
  return {
    turn_ref: d.turn_ref,
    trigger: {
      type: d.trigger.type,
      summary: d.trigger.summary,
      quoted_messages: d.trigger.quoted_messages.map((q) => ({ text: q.text, citations: outCites(q.citations) })),
      citations: outCites(d.trigger.citations),
    },
    agent_reactions: d.agent_reactions.map((r) => ({ summary: r.summary, citations: outCites(r.citations) })),
    outcomes: d.outcomes.map((o) => ({ category: o.category, summary: o.summary, citations: outCites(o.citations) })),
    observed_checks: d.observed_checks.map((o) => ({ type: o.type, summary: o.summary, citations: outCites(o.citations) })),
    terminal_state: { type: d.terminal_state.type, summary: d.terminal_state.summary, citations: outCites(d.terminal_state.citations) },
    materiality: d.materiality,
  };
}
