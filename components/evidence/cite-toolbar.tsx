"use client";

import { parseLineHash, useLocationHash } from "@/components/viewer/line-hash";
import { spanOutsideTurn, type TurnSpan } from "@/lib/evidence/check-turn";
import { formatCitationLines } from "@/lib/evidence/schema";

import { plainWords } from "./plain-words";
import type { ChainForm } from "./use-chain-draft";

/** `L12–L20`, or `L12` for one line. */
export const rangeLabel = ({ start, end }: { start: number; end: number }) => (start === end ? `L${start}` : `L${start}–L${end}`);

/**
 * The bridge from the viewer's selection (its `#L12-L20` fragment: click a line number,
 * shift-click another) to the citation list that was focused last. A selection outside the
 * edited turn is flagged before it is cited, in the words the citation would get.
 */
export function CiteToolbar({ form, lineCount, turn }: { form: ChainForm; lineCount: number; turn: TurnSpan }) {
  const range = parseLineHash(useLocationHash(), lineCount);
  const outside = range && spanOutsideTurn("", range, turn);
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded border border-line bg-surface px-2 py-1.5 text-2xs">
      {range ? (
        <>
          <button
            type="button"
            onClick={() => form.cite(formatCitationLines(range))}
            title={`Put lines ${range.start}–${range.end} into the ${form.target.label} citations`}
            className="rounded bg-accent px-2 py-0.5 font-semibold text-white hover:bg-accent/90"
          >
            Cite {rangeLabel(range)}
          </button>
          <span className="text-muted">
            → <span className="font-medium text-ink">{form.target.label}</span> citations
          </span>
          {outside && (
            <span role="status" data-testid="selection-outside-turn" className="basis-full text-danger" title={outside.message}>
              {plainWords(outside) ?? outside.message}
            </span>
          )}
        </>
      ) : (
        <span className="text-muted">Select lines to cite: click a line number in the transcript, shift-click another.</span>
      )}
      <span className="basis-full text-faint">Focus a citation list to make it the target.</span>
    </div>
  );
}
