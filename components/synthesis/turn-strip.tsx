"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type MouseEvent, type RefObject, useRef } from "react";

import { selectedRefsOf, StripRow } from "./strip-row";
import { LEGEND_ORDER, type SessionRow, TURN_STATES } from "./turn-states";

const ROW_HEIGHT = 24;
/** Up to this many sessions every row is in the DOM; beyond it rows are virtualized. */
const VIRTUALIZE_AFTER = 200;

type TurnStripProps = {
  projectKey: string;
  rows: readonly SessionRow[];
  /** Selected turn keys (`S0001/T0003`), open turns only. */
  selected: ReadonlySet<string>;
  /** False on read-only workspaces: nothing is selectable. */
  selectable: boolean;
  onToggle: (turnKey: string) => void;
};

function VirtualRows({ scrollRef, ...props }: Omit<TurnStripProps, "onToggle"> & { scrollRef: RefObject<HTMLDivElement | null> }) {
  const { rows, selected } = props;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design; rows are memoized by hand
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]!.sessionRef,
    overscan: 12,
  });
  return (
    <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index]!;
        return (
          <div key={item.key} data-index={item.index} className="absolute left-0 w-full" style={{ top: 0, transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
            <StripRow projectKey={props.projectKey} row={row} selectedRefs={selectedRefsOf(row, selected)} selectable={props.selectable} />
          </div>
        );
      })}
    </div>
  );
}

/** The per-session strip: one row per session, one cell per turn coloured by its state. */
export function TurnStrip(props: TurnStripProps) {
  const { projectKey, rows, selected, selectable, onToggle } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const cell = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-turn]");
    if (cell?.dataset.turn) onToggle(cell.dataset.turn);
  };
  const virtual = rows.length > VIRTUALIZE_AFTER;
  return (
    <section aria-labelledby="strip-heading" className="flex min-w-0 flex-col gap-2 rounded border border-line bg-surface p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="strip-heading" className="text-sm font-semibold">
          Turns by session
        </h2>
        <span className="text-2xs text-muted">
          {selectable ? "Click open turns to select them for an evidence gap or an exclusion." : "Read-only workspace: nothing to select."}
        </span>
      </div>
      <ul aria-label="Turn states" className="flex flex-wrap gap-x-3 gap-y-1 text-2xs text-muted">
        {LEGEND_ORDER.map((s) => (
          <li key={s} title={TURN_STATES[s].meaning} className="flex items-center gap-1">
            <span aria-hidden className={`inline-block h-3 w-2.5 rounded-[2px] ${TURN_STATES[s].cell}`} />
            {TURN_STATES[s].label}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden className="inline-block h-3 w-2.5 rounded-[2px] bg-surface outline-2 outline-offset-1 outline-accent ring-1 ring-ink/45 ring-inset" />
          selected
        </li>
      </ul>
      <div ref={scrollRef} role="list" aria-label="Sessions" onClick={onClick} className="max-h-[60vh] overflow-auto px-1 py-0.5">
        {virtual ? (
          <VirtualRows scrollRef={scrollRef} projectKey={projectKey} rows={rows} selected={selected} selectable={selectable} />
        ) : (
          rows.map((row) => <StripRow key={row.sessionRef} projectKey={projectKey} row={row} selectedRefs={selectedRefsOf(row, selected)} selectable={selectable} />)
        )}
      </div>
    </section>
  );
}
