import { useMemo, useState } from "react";

import type { TurnSpan } from "@/lib/evidence/check-turn";
import type { EvidenceError } from "@/lib/evidence/schema";

import { type ChainDraft, type ChainInput, type CitationDraft, newCitation, toChainInput } from "./draft";
import { fieldPaths, groupByPath, sameValue, shapeErrors, turnErrors, valueAt } from "./validation";

/** What the server said about the chain it was sent (structural errors with hints). */
export type ServerFeedback = { errors: readonly EvidenceError[]; chain: ChainInput };
/** The citation list the viewer's "Cite" button fills: its owner path, its label, and the row focused last in it. */
export type CitationTarget = { owner: string; label: string; row?: number };

const TRIGGER_TARGET: CitationTarget = { owner: "evidence_chain.trigger", label: "Trigger" };
const OUTCOMES = "evidence_chain.outcomes";
const TERMINAL_TYPE = "evidence_chain.terminal_state.type";
const TOKEN = /\.([A-Za-z_]+)|\[(\d+)\]/g;

/** The citation array of an owner path inside the draft (its shape mirrors the chain's keys). */
function citationsAt(draft: ChainDraft, owner: string): CitationDraft[] | undefined {
  let node: unknown = draft;
  for (const m of owner.slice("evidence_chain".length).matchAll(TOKEN)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[m[1] ?? Number(m[2])];
  }
  const citations = (node as { citations?: unknown } | undefined)?.citations;
  return Array.isArray(citations) ? (citations as CitationDraft[]) : undefined;
}

/**
 * The editor's state: the draft, which fields were edited (their shape errors show as you
 * type; all of them after a save attempt), the last active citation list, and every error
 * derived during render — zod's, citations outside `turn` (shown at once, whether typed or
 * cited), plus the server's while the value they named is unchanged.
 */
export function useChainDraft(initial: () => ChainDraft, server: ServerFeedback | null, turn: TurnSpan) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const [target, setTarget] = useState<CitationTarget>(TRIGGER_TARGET);

  const chain = useMemo(() => toChainInput(draft), [draft]);
  const clientErrors = useMemo(() => groupByPath(shapeErrors(chain)), [chain]);
  const { turn_ref: turnRef, turn_start_line: turnStart, turn_end_line: turnEnd } = turn;
  const outsideTurn = useMemo(
    () => groupByPath(turnErrors(chain, { turn_ref: turnRef, turn_start_line: turnStart, turn_end_line: turnEnd })),
    [chain, turnRef, turnStart, turnEnd],
  );
  // Both kinds block a save; a field has one or the other (an outside span is a well-formed one).
  const blocking = useMemo(() => new Map([...clientErrors, ...outsideTurn]), [clientErrors, outsideTurn]);
  const paths = useMemo(() => fieldPaths(draft), [draft]);

  /** Applies `recipe` to a copy of the draft; `path` marks the edited field. */
  const edit = (recipe: (d: ChainDraft) => void, path?: string) => {
    setDraft((prev) => {
      const next = structuredClone(prev);
      recipe(next);
      return next;
    });
    if (path) setTouched((prev) => new Set(prev).add(path));
  };

  const errorsAt = (path: string): EvidenceError[] => {
    const shown = submitted || touched.has(path) || (path === OUTCOMES && touched.has(TERMINAL_TYPE));
    const client = [...(outsideTurn.get(path) ?? []), ...(shown ? (clientErrors.get(path) ?? []) : [])];
    const fromServer = (server?.errors ?? []).filter((e) => e.path === path && sameValue(valueAt(chain, path), valueAt(server!.chain, path)));
    return [...fromServer, ...client.filter((c) => !fromServer.some((s) => s.message === c.message))];
  };

  /** Server errors no input owns (the chain root, project/session, unknown paths). */
  const formErrors = (server?.errors ?? []).filter((e) => e.path !== "base_version" && !paths.has(e.path));

  /**
   * Puts a span into the last active citation list (the trigger's when that list is gone): into
   * the row focused last when it is empty, else into the list's last empty row (one just added
   * with "+ Add citation"), else as a new row.
   */
  const cite = (lines: string) => {
    const owner = citationsAt(draft, target.owner) ? target : TRIGGER_TARGET;
    const list = citationsAt(draft, owner.owner) ?? [];
    const isEmpty = (k: number | undefined) => k !== undefined && list[k] !== undefined && list[k].lines.trim() === "";
    const lastEmpty = list.findLastIndex((c) => c.lines.trim() === "");
    const row = isEmpty(owner.row) ? owner.row! : lastEmpty >= 0 ? lastEmpty : list.length;
    edit((d) => {
      const rows = citationsAt(d, owner.owner);
      if (!rows) return;
      if (row < rows.length) rows[row]!.lines = lines;
      else rows.push(newCitation(lines));
    }, `${owner.owner}.citations[${row}].lines`);
    if (owner !== target) setTarget(owner);
  };

  return {
    draft,
    chain,
    edit,
    errorsAt,
    formErrors,
    /** Fields with shape errors (shown or not yet) or citations outside the turn. */
    clientErrorCount: blocking.size,
    /** The first field with a shape error, in schema order (top of the form first), else the first citation outside the turn. */
    firstClientErrorPath: blocking.keys().next().value as string | undefined,
    submitted,
    /** Marks every field as shown; the caller saves only when there are no shape errors. */
    attemptSave: () => setSubmitted(true),
    target: citationsAt(draft, target.owner) ? target : TRIGGER_TARGET,
    setTarget,
    cite,
  };
}

export type ChainForm = ReturnType<typeof useChainDraft>;
