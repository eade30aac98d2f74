import type { EvidenceCardView } from "@/lib/evidence/schema";

import { IssueList } from "./chain-view";
import { CoverageMeter, STATUS_TITLE } from "./coverage-meter";

/** Panel header: the card's §2.5 status, its coverage, and what the inspector reports. */
export function CardSummary({ card }: { card: EvidenceCardView }) {
  // A card whose last chain was deleted holds none: to a reviewer that is no evidence at all, as
  // before the first chain (issue 29); the inspector's "missing turn_ref(s): every turn" says nothing more.
  const empty = card.status === "partial" && card.turns_with_chain === 0 && card.card_issues.length === 0;
  const status = empty ? "missing" : card.status;
  return (
    <div className="flex flex-col gap-1.5 border-b border-line px-3 py-2">
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold">Evidence</h2>
        <span title={STATUS_TITLE[status]} data-testid="card-status" className="rounded bg-canvas px-1.5 text-2xs font-medium text-muted">
          {status}
        </span>
        <span className="ml-auto">
          <CoverageMeter withChain={card.turns_with_chain} total={card.turn_count} status={status} label="Turns with an evidence chain" />
        </span>
      </div>
      {card.read_only && <p className="text-2xs text-warn">This workspace is read-only (schema 2): evidence cannot be edited here.</p>}
      {card.card_issues.length > 0 && <IssueList issues={card.card_issues} />}
      {card.errors.length > 0 && status !== "missing" && (
        <details className="text-2xs text-muted">
          <summary className="cursor-pointer">Inspector: {card.errors.length === 1 ? "1 message" : `${card.errors.length} messages`}</summary>
          <ul className="mt-1 flex max-h-32 flex-col gap-0.5 overflow-auto font-mono">
            {card.errors.map((e, k) => (
              <li key={k}>{e}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
