import Link from "next/link";
import { memo } from "react";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { SynthesisTurnState } from "@/lib/synthesis/schema";

import { cellLabel, KIND_FOR_STATE, OPERATOR_KIND_LABEL, type SessionRow, TURN_STATES, turnKeyOf } from "./turn-states";

function cellTitle(t: SynthesisTurnState, canSelect: boolean): string {
  const kind = KIND_FOR_STATE[t.state];
  const action = canSelect && kind ? ` · click to select for an ${OPERATOR_KIND_LABEL[kind].toLowerCase()}` : "";
  return `${turnKeyOf(t)} · lines ${t.turn_start_line}–${t.turn_end_line} · ${TURN_STATES[t.state].meaning}${t.work_item_ref ? ` (${t.work_item_ref})` : ""}${action}`;
}

type StripRowProps = { projectKey: string; row: SessionRow; selectedRefs: string; selectable: boolean };

/**
 * One session: its ref (a link to the viewer), covered/indexed, and one plain element per turn.
 * Open turns are buttons (toggled by the strip's one delegated click handler); covered turns
 * are images with the same accessible name pattern.
 */
function StripRowView({ projectKey, row, selectedRefs, selectable }: StripRowProps) {
  const picked = new Set(selectedRefs.split(","));
  const covered = row.turns.filter((t) => !KIND_FOR_STATE[t.state]).length;
  return (
    <div role="listitem" aria-label={`Session ${row.sessionRef}`} className="flex h-6 items-center gap-2">
      {/* No prefetch: scrolling a strip of hundreds of sessions would prefetch every viewer page. */}
      <Link href={routes.session(projectKey, row.sessionRef)} prefetch={false} className="sticky left-0 z-10 w-14 shrink-0 bg-surface font-mono text-xs text-accent hover:underline">
        {row.sessionRef}
      </Link>
      <span className="w-12 shrink-0 text-right font-mono text-2xs text-muted tabular-nums" title={`${covered} of ${row.turns.length} turns covered`}>
        {formatCount(covered)}/{formatCount(row.turns.length)}
      </span>
      <div className="flex gap-0.5">
        {row.turns.map((t) => {
          const style = `block h-4 w-3 shrink-0 rounded-[2px] ${TURN_STATES[t.state].cell}`;
          const canSelect = selectable && KIND_FOR_STATE[t.state] !== undefined;
          if (!canSelect) return <span key={t.turn_ref} role="img" aria-label={cellLabel(t)} title={cellTitle(t, false)} className={style} />;
          const on = picked.has(t.turn_ref);
          return (
            <button
              key={t.turn_ref}
              type="button"
              data-turn={turnKeyOf(t)}
              aria-label={cellLabel(t)}
              aria-pressed={on}
              title={cellTitle(t, true)}
              className={`${style} cursor-pointer hover:scale-y-125 ${on ? "outline-2 outline-offset-1 outline-accent" : ""}`}
            />
          );
        })}
      </div>
    </div>
  );
}

// Polls rebuild the rows every time anything changes; structural sharing keeps unchanged turn
// objects identical, so a row re-renders only when one of its own turns (or its selection) changed.
export const StripRow = memo(
  StripRowView,
  (a, b) =>
    a.projectKey === b.projectKey &&
    a.selectable === b.selectable &&
    a.selectedRefs === b.selectedRefs &&
    a.row.sessionRef === b.row.sessionRef &&
    a.row.turns.length === b.row.turns.length &&
    a.row.turns.every((t, i) => t === b.row.turns[i]),
);

/** The row's selected turn refs as one string (`T0001,T0004`): a cheap, comparable memo prop. */
export const selectedRefsOf = (row: SessionRow, selected: ReadonlySet<string>) =>
  row.turns
    .filter((t) => selected.has(turnKeyOf(t)))
    .map((t) => t.turn_ref)
    .join(",");
