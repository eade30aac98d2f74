import { citationsOutsideTurn, type TurnSpan } from "@/lib/evidence/check-turn";
import { type EvidenceError, evidenceChainSchema, parseCitationLines, zodToEvidenceErrors } from "@/lib/evidence/schema";

import type { ChainDraft, ChainInput } from "./draft";

/*
 * Error plumbing of the editor. Every error carries the contract's dotted path
 * (`evidence_chain.outcomes[0].citations[1].lines`); each input knows its own path and asks for
 * the errors there. Paths name no input (`base_version`, `project_key`, the chain root) are
 * shown at the top of the form instead.
 */

export type ErrorsByPath = ReadonlyMap<string, EvidenceError[]>;

export function groupByPath(errors: readonly EvidenceError[]): Map<string, EvidenceError[]> {
  const map = new Map<string, EvidenceError[]>();
  for (const e of errors) {
    const at = map.get(e.path);
    if (!at) map.set(e.path, [e]);
    else if (!at.some((x) => x.message === e.message)) at.push(e);
  }
  return map;
}

/** Stage A shape errors, in the server's words: the same zod schema the actions use. */
export function shapeErrors(chain: ChainInput): EvidenceError[] {
  const parsed = evidenceChainSchema.safeParse(chain);
  return parsed.success ? [] : zodToEvidenceErrors(parsed.error);
}

/**
 * Citations outside the turn, in the server's words (stage C's containment rule, shared with
 * lib/evidence/check-turn): known as soon as a span is typed or cited, before any save.
 */
export function turnErrors(chain: ChainInput, turn: TurnSpan): EvidenceError[] {
  return citationsOutsideTurn(chain, turn, (citation) => parseCitationLines(citation.lines));
}

const TOKEN = /\.([A-Za-z_]+)|\[(\d+)\]/g;

/**
 * The value a path names inside a chain input, or undefined. Used to tell whether a server
 * error still applies: it does while the value it was reported for is unchanged.
 */
export function valueAt(chain: ChainInput, path: string): unknown {
  if (!path.startsWith("evidence_chain")) return undefined;
  let current: unknown = chain;
  for (const match of path.slice("evidence_chain".length).matchAll(TOKEN)) {
    if (current === null || typeof current !== "object") return undefined;
    const key = match[1] ?? Number(match[2]);
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

const cited = (owner: string, citations: readonly unknown[]) => [
  `${owner}.citations`,
  ...citations.map((_, k) => `${owner}.citations[${k}].lines`),
];

/** Every path the form renders an input (or a list) for: errors elsewhere go to the form's top. */
export function fieldPaths(d: ChainDraft): Set<string> {
  const p = "evidence_chain";
  const paths = [
    `${p}.turn_ref`,
    `${p}.trigger.type`,
    `${p}.trigger.summary`,
    ...cited(`${p}.trigger`, d.trigger.citations),
    ...d.trigger.quoted_messages.flatMap((q, j) => [`${p}.trigger.quoted_messages[${j}].text`, ...cited(`${p}.trigger.quoted_messages[${j}]`, q.citations)]),
    ...d.agent_reactions.flatMap((r, i) => [`${p}.agent_reactions[${i}].summary`, ...cited(`${p}.agent_reactions[${i}]`, r.citations)]),
    `${p}.outcomes`,
    ...d.outcomes.flatMap((o, i) => [`${p}.outcomes[${i}].category`, `${p}.outcomes[${i}].summary`, ...cited(`${p}.outcomes[${i}]`, o.citations)]),
    ...d.observed_checks.flatMap((c, i) => [`${p}.observed_checks[${i}].type`, `${p}.observed_checks[${i}].summary`, ...cited(`${p}.observed_checks[${i}]`, c.citations)]),
    `${p}.terminal_state.type`,
    `${p}.terminal_state.summary`,
    ...cited(`${p}.terminal_state`, d.terminal_state.citations),
    `${p}.materiality`,
  ];
  return new Set(paths);
}

/** A DOM id for the input at a path (`evidence_chain.outcomes[0].summary` → `ev-outcomes-0-summary`). */
export const fieldId = (path: string): string => `ev-${path.replace(/^evidence_chain\.?/, "").replace(/[^A-Za-z0-9]+/g, "-").replace(/-$/, "")}`;
