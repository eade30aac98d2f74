"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";

import { useDebouncedValue } from "@/components/hooks/use-debounced-value";
import { DockedPanel } from "@/components/viewer/docked-panel";
import { FOLLOW_DELAY_MS, useReadingTurn } from "@/components/viewer/reading-turn";
import type { EvidenceCardView, EvidenceTurnState } from "@/lib/evidence/schema";

import { CardSummary } from "./card-summary";
import { ChainEditor } from "./chain-editor";
import { ChainView } from "./chain-view";
import { DeleteChainButton } from "./delete-chain-button";
import { readChain } from "./draft";
import { scrollToLine } from "./show-lines";
import type { BaseVersions, CardRef, SaveMode } from "./mutations";
import { evidenceCardQuery, TURNS_PAGE } from "./queries";
import { TurnEvidenceItem } from "./turn-evidence-item";

type EvidencePanelProps = { cardRef: CardRef; initialCard: EvidenceCardView; lineCount: number };
/** The open editor: its turn and mode, and the chain and card version it started from. */
type Editing = { turnRef: string; mode: SaveMode; chain: unknown; opened: BaseVersions };
/** The most turns one card read lists (get_evidence_card's turns_limit cap): the panel follows the reader that far. */
const MAX_SHOWN_TURNS = 5000;

/**
 * The session's evidence beside the transcript: the indexed turns, {@link TURNS_PAGE} at a time
 * (issue 13: only those are read from the server), each with its chain (or none),
 * one expanded at a time (opening it scrolls the transcript to the turn), and the editor for
 * one turn. The turn being read in the viewer is marked and kept in view, its page listed once
 * the reader stays on it (issue 36). The card is polled, so an agent's appends show up; an open
 * editor keeps its draft through those refreshes (and when the panel is collapsed).
 */
export function EvidencePanel({ cardRef, initialCard, lineCount }: EvidencePanelProps) {
  const [shown, setShown] = useState(TURNS_PAGE);
  const reading = useReadingTurn();
  const follow = useDebouncedValue(reading?.ordinal ?? null, FOLLOW_DELAY_MS);
  const reach = follow === null ? 0 : Math.min(MAX_SHOWN_TURNS, (Math.floor(follow / TURNS_PAGE) + 1) * TURNS_PAGE);
  // Grows only: adjusting state during render is React's alternative to an effect for this.
  if (reach > shown) setShown(reach);
  const pagedRef = { ...cardRef, turnsLimit: shown };
  const { data } = useQuery({
    ...evidenceCardQuery(cardRef.projectKey, cardRef.sessionRef, shown),
    initialData: shown === TURNS_PAGE ? initialCard : undefined,
    placeholderData: keepPreviousData,
  });
  const card = data ?? initialCard;
  // One turn open at a time (issue 12 item 6): the panel reads as a list, not a wall of chains.
  const [expanded, setExpanded] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);

  const entryOf = (turn: EvidenceTurnState) => (turn.chain_index === null ? undefined : card.chains.find((c) => c.index === turn.chain_index));
  const otherIndexes = new Set(card.other_chain_indexes);
  const others = card.chains.filter((c) => otherIndexes.has(c.index));
  const editTurn = editing ? card.turns.find((t) => t.turn_ref === editing.turnRef) : undefined;

  /** Opens a turn (closing any other) and scrolls the transcript to its first line; a second click closes it. */
  const toggle = (turn: EvidenceTurnState) => {
    if (expanded === turn.turn_ref) return setExpanded(null);
    setExpanded(turn.turn_ref);
    scrollToLine(turn.turn_start_line);
  };
  const edit = (turn: EvidenceTurnState) => {
    const entry = entryOf(turn);
    setEditing({ turnRef: turn.turn_ref, mode: entry ? "replace" : "create", chain: entry?.chain, opened: { version: card.version, chainVersion: turn.chain_version } });
  };
  const saved = (turnRef: string) => {
    setEditing(null);
    setExpanded(turnRef);
  };

  const listRef = useRef<HTMLUListElement>(null);
  const readingRef = reading?.turn_ref ?? null;
  const listing = !(editing && editTurn);
  useEffect(() => {
    if (listing) listRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: "nearest" });
  }, [readingRef, card.turns.length, listing]);

  return (
    <DockedPanel layout="evidence" label="Evidence">
      {editing && editTurn ? (
        <div className="px-3 pb-0">
          <ChainEditor
            key={`${editing.turnRef}:${editing.mode}`}
            cardRef={pagedRef}
            turn={editTurn}
            mode={editing.mode}
            chain={editing.chain}
            opened={editing.opened}
            lineCount={lineCount}
            onClose={() => setEditing(null)}
            onSaved={saved}
          />
        </div>
      ) : (
        <>
          <CardSummary card={card} />
          {card.turn_count === 0 && <p className="p-3 text-xs text-faint">No turns indexed for this session.</p>}
          <ul ref={listRef} aria-label="Turns and their evidence">
            {card.turns.map((turn) => (
              <TurnEvidenceItem
                key={turn.turn_ref}
                cardRef={cardRef}
                turn={turn}
                entry={entryOf(turn)}
                base={{ version: card.version, chainVersion: turn.chain_version }}
                expanded={expanded === turn.turn_ref}
                current={turn.turn_ref === readingRef}
                readOnly={card.read_only}
                onToggle={() => toggle(turn)}
                onEdit={() => edit(turn)}
              />
            ))}
          </ul>
          {card.turn_count > card.turns.length && (
            <button type="button" onClick={() => setShown(card.turns.length + TURNS_PAGE)} className="m-3 rounded border border-line px-2 py-1 text-2xs text-muted hover:bg-canvas">
              Show {Math.min(TURNS_PAGE, card.turn_count - card.turns.length)} more of {card.turn_count - card.turns.length} turns
            </button>
          )}
          {others.length > 0 && (
            <section aria-label="Other chains on the card" className="flex flex-col gap-2 border-t border-line p-3">
              <h3 className="text-xs font-semibold">Other chains on the card ({others.length})</h3>
              <p className="text-2xs text-muted">Chains for turns the index does not list, or second chains for a turn.</p>
              {others.map((entry) => (
                <div key={entry.index} className="flex flex-col gap-2 rounded border border-line p-2">
                  <span className="font-mono text-2xs text-muted">#{entry.index + 1} · {entry.turn_ref ?? "no turn_ref"}</span>
                  <ChainView chain={readChain(entry.chain, entry.turn_ref ?? "")} issues={entry.issues} />
                  {entry.turn_ref && !card.read_only && <DeleteChainButton cardRef={cardRef} turnRef={entry.turn_ref} base={{ version: card.version, chainVersion: card.turns.find((t) => t.turn_ref === entry.turn_ref)?.chain_version ?? "absent" }} />}
                </div>
              ))}
            </section>
          )}
        </>
      )}
    </DockedPanel>
  );
}
