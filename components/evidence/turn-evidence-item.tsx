"use client";

import type { EvidenceChainEntry, EvidenceTurnState } from "@/lib/evidence/schema";
import { oneLine } from "@/lib/format/one-line";
import { useWriteRefusal, WriteRefusalNote } from "@/components/team/write-access";

import { ChainAuthorLine } from "./chain-author";
import { ChainView } from "./chain-view";
import { DeleteChainButton } from "./delete-chain-button";
import { readChain } from "./draft";
import type { BaseVersions, CardRef } from "./mutations";

/** A turn's evidence state as the panel shows it: a chain, a chain with problems, or none. */
export type TurnEvidenceState = "chain" | "issues" | "none";

const STATE_STYLE: Record<TurnEvidenceState, { label: string; className: string }> = {
  chain: { label: "chain", className: "bg-ok-soft text-ok" },
  issues: { label: "chain · issues", className: "bg-warn-soft text-warn" },
  none: { label: "no chain", className: "bg-canvas text-muted" },
};

type TurnEvidenceItemProps = {
  cardRef: CardRef;
  turn: EvidenceTurnState;
  entry: EvidenceChainEntry | undefined;
  base: BaseVersions;
  expanded: boolean;
  /** The turn being read in the viewer beside the panel. */
  current: boolean;
  readOnly: boolean;
  onToggle: () => void;
  onEdit: () => void;
};

/**
 * One indexed turn: its state, and when expanded its chain with edit and delete, or "create";
 * disabled, with the reason beside them, for a browser that may not write (a team server's read token).
 */
export function TurnEvidenceItem({ cardRef, turn, entry, base, expanded, current, readOnly, onToggle, onEdit }: TurnEvidenceItemProps) {
  const refusal = useWriteRefusal();
  const reasonId = `write-refusal-${turn.turn_ref}`;
  const state: TurnEvidenceState = !entry ? "none" : entry.issues.length > 0 ? "issues" : "chain";
  const style = STATE_STYLE[state];
  const chain = entry ? readChain(entry.chain, turn.turn_ref) : null;
  return (
    <li
      aria-label={`Turn ${turn.turn_ref}`}
      aria-current={current || undefined}
      data-state={state}
      className="border-b border-l-2 border-line border-l-transparent last:border-b-0 aria-[current=true]:border-l-accent"
    >
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={expanded}
        className="flex w-full items-center gap-2 px-3 py-1.5 text-left hover:bg-accent-soft aria-expanded:bg-accent-soft/60"
      >
        <span className="font-mono text-xs font-semibold">{turn.turn_ref}</span>
        <span className="font-mono text-2xs text-muted tabular-nums">
          L{turn.turn_start_line}–{turn.turn_end_line}
        </span>
        <span className={`ml-auto shrink-0 rounded px-1.5 text-2xs font-medium ${style.className}`}>{style.label}</span>
      </button>
      {!expanded && chain && <p className="truncate px-3 pb-1.5 text-2xs text-muted">{oneLine(chain.trigger.summary, 300)}</p>}
      {expanded && (
        <div className="flex flex-col gap-2 px-3 pt-1 pb-3">
          {chain && entry ? <ChainView chain={chain} issues={entry.issues} /> : <p className="text-xs text-muted">No evidence chain for this turn yet.</p>}
          {chain && <ChainAuthorLine cardRef={cardRef} turnRef={turn.turn_ref} />}
          {!readOnly && (
            <div className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                onClick={onEdit}
                disabled={refusal !== null}
                aria-describedby={refusal !== null ? reasonId : undefined}
                className="rounded bg-ink px-2 py-0.5 text-2xs font-semibold text-white hover:bg-ink/85 disabled:cursor-not-allowed disabled:opacity-50"
              >
                {chain ? "Edit chain" : "Create chain"}
              </button>
              {chain && <DeleteChainButton cardRef={cardRef} turnRef={turn.turn_ref} base={base} />}
              {refusal !== null && <WriteRefusalNote id={reasonId} refusal={refusal} />}
            </div>
          )}
        </div>
      )}
    </li>
  );
}
