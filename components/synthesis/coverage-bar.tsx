import type { ReactNode } from "react";

import { formatCount, plural } from "@/components/format/format";
import type { SynthesisState, SynthesisTurnStateName } from "@/lib/synthesis/schema";

import { InspectionMessages } from "./inspection-messages";
import { TURN_STATES } from "./turn-states";

type Segment = { state: SynthesisTurnStateName; count: number };

/** Turns per state, in legend order: the four covered kinds, invalid items, then the open turns. */
function segments({ counts }: SynthesisState): Segment[] {
  const byKind = counts.turns_by_kind;
  const byValidKinds = byKind.material_work_item + byKind.no_material_work_item + byKind.evidence_gap_item + byKind.excluded_with_reason;
  return [
    { state: "material_work_item", count: byKind.material_work_item },
    { state: "no_material_work_item", count: byKind.no_material_work_item },
    { state: "evidence_gap", count: byKind.evidence_gap_item },
    { state: "excluded_with_reason", count: byKind.excluded_with_reason },
    { state: "invalid_work_item", count: counts.covered_turns - byValidKinds },
    { state: "uncovered", count: counts.uncovered_turns - counts.no_chain_turns },
    { state: "no_chain", count: counts.no_chain_turns },
  ];
}

function Completeness({ state }: { state: SynthesisState }) {
  const { complete, sound, version, counts } = state;
  const [tone, text] = complete
    ? ["border-ok/30 bg-ok-soft text-ok", "Complete"]
    : version === "absent"
      ? ["border-line-strong bg-canvas text-muted", `No envelope yet · ${formatCount(counts.uncovered_turns)} uncovered`]
      : !sound
        ? ["border-danger/30 bg-danger-soft text-danger", `Envelope has problems · ${formatCount(counts.uncovered_turns)} uncovered`]
        : ["border-warn/30 bg-warn-soft text-warn", `${formatCount(counts.uncovered_turns)} uncovered`];
  return (
    <span role="status" aria-label="Completeness" className={`rounded border px-1.5 py-0.5 text-xs font-semibold ${tone}`}>
      {text}
    </span>
  );
}

/**
 * Covered over indexed turns as one bar split by the covering item's kind, the open turns after
 * them, a legend with every count, the completeness verdict and prompt-diary's §3.5 messages.
 */
export function CoverageBar({ state, live }: { state: SynthesisState; live: ReactNode }) {
  const { indexed_turns: total, covered_turns: covered } = state.counts;
  const parts = segments(state);
  const percent = total === 0 ? 0 : Math.floor((covered / total) * 100);
  return (
    <section aria-labelledby="coverage-heading" className="flex flex-col gap-2 rounded border border-line bg-surface p-4">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h2 id="coverage-heading" className="text-sm font-semibold">
          Coverage
        </h2>
        <p className="text-sm">
          <span
            role="meter"
            aria-label="Turns covered"
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={covered}
            aria-valuetext={`${covered}/${total}`}
            className="font-mono text-base font-semibold tabular-nums"
          >
            {formatCount(covered)}/{formatCount(total)}
          </span>{" "}
          <span className="text-muted">
            {total === 1 ? "turn" : "turns"} covered ({percent}%)
          </span>
        </p>
        <Completeness state={state} />
        <span className="ml-auto">{live}</span>
      </div>
      <div className="flex h-4 w-full gap-px overflow-hidden rounded bg-line" aria-hidden>
        {parts.map(({ state: s, count }) =>
          count > 0 ? (
            <span key={s} title={`${TURN_STATES[s].label}: ${plural(count, "turn")}`} className={`h-full transition-[flex-grow] duration-300 ${TURN_STATES[s].swatch}`} style={{ flexGrow: count }} />
          ) : null,
        )}
      </div>
      <ul aria-label="Turns by state" className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
        {parts.map(({ state: s, count }) =>
          s === "invalid_work_item" && count === 0 ? null : (
            <li key={s} aria-label={`${TURN_STATES[s].label}: ${count}`} title={TURN_STATES[s].meaning} className={`flex items-center gap-1.5 ${count === 0 ? "text-faint" : ""}`}>
              <span aria-hidden className={`inline-block size-3 rounded-sm ${TURN_STATES[s].swatch}`} />
              <span>{TURN_STATES[s].label}</span>
              <span className="font-mono tabular-nums">{formatCount(count)}</span>
            </li>
          ),
        )}
      </ul>
      <InspectionMessages state={state} />
    </section>
  );
}
