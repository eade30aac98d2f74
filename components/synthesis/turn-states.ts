import type { OperatorKind, SynthesisTurnState, SynthesisTurnStateName, TurnKey } from "@/lib/synthesis/schema";

/** How each turn state reads and looks, in legend order: covered kinds first, then the open ones. */
export const TURN_STATES: Record<SynthesisTurnStateName, { label: string; cell: string; swatch: string; meaning: string }> = {
  material_work_item: { label: "material work", cell: "bg-ok", swatch: "bg-ok", meaning: "covered by a material_work_item" },
  no_material_work_item: {
    label: "no material work",
    cell: "bg-[#8b9bc4]",
    swatch: "bg-[#8b9bc4]",
    meaning: "covered by a no_material_work_item (low-value or negative turns)",
  },
  evidence_gap: { label: "evidence gap", cell: "bg-warn", swatch: "bg-warn", meaning: "covered by an evidence_gap_item: no extractable evidence" },
  excluded_with_reason: { label: "excluded", cell: "bg-muted", swatch: "bg-muted", meaning: "covered by an excluded_with_reason item" },
  invalid_work_item: { label: "invalid item", cell: "bg-danger", swatch: "bg-danger", meaning: "covered by an item whose kind is not a controlled value" },
  uncovered: {
    label: "uncovered",
    cell: "bg-surface ring-1 ring-inset ring-ink/45",
    swatch: "bg-surface ring-1 ring-inset ring-ink/45",
    meaning: "has an evidence chain, no work item yet",
  },
  no_chain: {
    label: "no chain yet",
    cell: "bg-[repeating-linear-gradient(135deg,var(--color-line-strong)_0_2px,transparent_2px_5px)] ring-1 ring-inset ring-line-strong",
    swatch: "bg-[repeating-linear-gradient(135deg,var(--color-line-strong)_0_2px,transparent_2px_5px)] ring-1 ring-inset ring-line-strong",
    meaning: "no committed evidence chain and no work item yet",
  },
};

export const LEGEND_ORDER = Object.keys(TURN_STATES) as SynthesisTurnStateName[];

/** The operator item each open state allows (contract §3.4 coverage rules): nothing for covered turns. */
export const KIND_FOR_STATE: Partial<Record<SynthesisTurnStateName, OperatorKind>> = {
  no_chain: "evidence_gap_item",
  uncovered: "excluded_with_reason",
};

export const OPERATOR_KIND_LABEL: Record<OperatorKind, string> = {
  evidence_gap_item: "Evidence gap",
  excluded_with_reason: "Exclusion",
};

/** `S0001/T0003`: a turn's id in the strip, the selection and aria-labels. */
export const turnKeyOf = (t: TurnKey): string => `${t.session_ref}/${t.turn_ref}`;

/** The accessible name of a strip cell, e.g. "S0001/T0003: uncovered" or "S0001/T0001: material work (W0001)". */
export function cellLabel(t: SynthesisTurnState): string {
  return `${turnKeyOf(t)}: ${TURN_STATES[t.state].label}${t.work_item_ref ? ` (${t.work_item_ref})` : ""}`;
}

/** One strip row: a session and its turns in index order. */
export type SessionRow = { sessionRef: string; turns: SynthesisTurnState[] };

/** Groups the turn universe into one row per session, sessions and turns in index order. */
export function sessionRows(turns: readonly SynthesisTurnState[]): SessionRow[] {
  const rows = new Map<string, SessionRow>();
  for (const t of turns) {
    const row = rows.get(t.session_ref);
    if (row) row.turns.push(t);
    else rows.set(t.session_ref, { sessionRef: t.session_ref, turns: [t] });
  }
  return [...rows.values()];
}
