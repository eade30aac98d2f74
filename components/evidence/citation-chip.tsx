"use client";

import { parseCitationLines } from "@/lib/evidence/schema";

import { showLines } from "./show-lines";

/** `L45–46`, or `L7` for one line. */
export const chipLabel = ({ start, end }: { start: number; end: number }) => (start === end ? `L${start}` : `L${start}–${end}`);

/** One citation: click to scroll the transcript to its lines and highlight them. */
export function CitationChip({ lines }: { lines: string }) {
  const span = parseCitationLines(lines);
  if (!span) {
    return (
      <span title="Not a valid line span" className="rounded border border-danger/40 bg-danger-soft px-1 font-mono text-2xs text-danger">
        {lines || "(empty)"}
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={() => showLines(span)}
      title={`Show lines ${span.start}–${span.end} in the transcript`}
      data-testid="citation-chip"
      className="rounded border border-accent/30 bg-accent-soft px-1 font-mono text-2xs text-accent tabular-nums hover:border-accent hover:bg-surface"
    >
      {chipLabel(span)}
    </button>
  );
}

/** A row of chips, or nothing when the list is empty. */
export function CitationChips({ citations }: { citations: readonly { lines: string }[] }) {
  if (citations.length === 0) return null;
  return (
    <span className="inline-flex flex-wrap gap-1 align-middle">
      {citations.map((c, k) => (
        // Index keys: a read-only list that is rebuilt, never reordered, between renders.
        <CitationChip key={k} lines={c.lines} />
      ))}
    </span>
  );
}
