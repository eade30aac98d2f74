import { memo } from "react";

import { routes } from "@/components/navigation/routes";
import type { SynthesisTurnState, SynthesisTurnStateName, SynthesisWorkItemView } from "@/lib/synthesis/schema";

import { TURN_STATES, turnKeyOf } from "./turn-states";

const STATE_OF_KIND: Record<string, SynthesisTurnStateName> = {
  material_work_item: "material_work_item",
  no_material_work_item: "no_material_work_item",
  evidence_gap_item: "evidence_gap",
  excluded_with_reason: "excluded_with_reason",
};

/** A string field of the stored item, when it is one. */
const textOf = (item: unknown, key: string): string | null => {
  const value = item !== null && typeof item === "object" ? (item as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : null;
};

type WorkItemRowProps = { projectKey: string; item: SynthesisWorkItemView; spans: ReadonlyMap<string, SynthesisTurnState> };

function WorkItemRowView({ projectKey, item, spans }: WorkItemRowProps) {
  const ref = item.work_item_ref ?? `#${item.index + 1}`;
  const state = STATE_OF_KIND[item.kind ?? ""] ?? "invalid_work_item";
  const confidence = textOf(item.item, "confidence");
  const reason = textOf(item.item, "reason");
  return (
    <li>
      <article aria-label={`Work item ${ref}`} className="flex flex-col gap-1 border-b border-line px-1 py-2 last:border-b-0">
        <header className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="font-mono text-xs font-semibold">{ref}</span>
          <span className="inline-flex items-center gap-1 rounded border border-line-strong px-1 text-2xs leading-4" title={TURN_STATES[state].meaning}>
            <span aria-hidden className={`inline-block size-2 rounded-[2px] ${TURN_STATES[state].swatch}`} />
            {item.kind ?? "no kind"}
          </span>
          <h3 className="min-w-0 text-sm">{item.title ?? <em className="text-muted">untitled</em>}</h3>
          {confidence && <span className="ml-auto text-2xs text-muted">confidence {confidence}</span>}
        </header>
        <p className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-2xs">
          <span className="text-muted">Covers</span>
          {item.covered_turns.map((t, i) => {
            const key = turnKeyOf(t);
            const span = spans.get(key);
            return span ? (
              <a key={i} href={routes.turn(projectKey, t.session_ref, span.turn_start_line, span.turn_end_line)} title={`lines ${span.turn_start_line}–${span.turn_end_line}`} className="font-mono text-accent hover:underline">
                {key}
              </a>
            ) : (
              <span key={i} title="not an indexed turn" className="font-mono text-danger line-through">
                {key}
              </span>
            );
          })}
        </p>
        {reason !== null && (
          <p className="text-xs">
            <span className="text-muted">Reason: </span>
            {reason}
          </p>
        )}
        {item.issues.length > 0 && (
          <ul aria-label={`Issues of ${ref}`} className="flex flex-col gap-0.5 rounded bg-danger-soft px-2 py-1 text-2xs text-danger">
            {item.issues.map((issue, i) => (
              <li key={i}>{issue}</li>
            ))}
          </ul>
        )}
      </article>
    </li>
  );
}

const sameSpan = (a: SynthesisTurnState | undefined, b: SynthesisTurnState | undefined) =>
  a?.turn_start_line === b?.turn_start_line && a?.turn_end_line === b?.turn_end_line;

// Stored items keep their identity across polls (structural sharing), and the span map is
// rebuilt whenever any turn changes state: compare only the spans this item links to.
const WorkItemRow = memo(
  WorkItemRowView,
  (a, b) => a.projectKey === b.projectKey && a.item === b.item && a.item.covered_turns.every((t) => sameSpan(a.spans.get(turnKeyOf(t)), b.spans.get(turnKeyOf(t)))),
);

/** The envelope's work items in stored order, each covered turn a link to it in the viewer. */
export function WorkItemList({ projectKey, items, spans }: { projectKey: string; items: readonly SynthesisWorkItemView[]; spans: ReadonlyMap<string, SynthesisTurnState> }) {
  return (
    <section aria-labelledby="items-heading" className="flex flex-col gap-1 rounded border border-line bg-surface p-4">
      <h2 id="items-heading" className="text-sm font-semibold">
        Work items <span className="font-normal text-muted">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="text-xs text-muted">No work items yet. The synthesis agent writes them with write_work_item; evidence gaps and exclusions can be recorded here.</p>
      ) : (
        <ol aria-label="Work items" className="flex flex-col">
          {items.map((item) => (
            <WorkItemRow key={item.index} projectKey={projectKey} item={item} spans={spans} />
          ))}
        </ol>
      )}
    </section>
  );
}
