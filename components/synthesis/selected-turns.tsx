"use client";

import { FieldError } from "@/components/evidence/field-error";
import { routes } from "@/components/navigation/routes";
import type { OperatorKind, SynthesisError, SynthesisTurnState } from "@/lib/synthesis/schema";

import { KIND_FOR_STATE, OPERATOR_KIND_LABEL, TURN_STATES, turnKeyOf } from "./turn-states";

type SelectedTurnsProps = {
  projectKey: string;
  selection: readonly SynthesisTurnState[];
  kind: OperatorKind;
  errors: readonly SynthesisError[];
  turnErrors: (turnKey: string) => SynthesisError[];
  onRemove: (turnKey: string) => void;
  onKeepOnly: (kind: OperatorKind) => void;
  onClear: () => void;
};

const turnsWord = (n: number) => (n === 1 ? "1 turn" : `${n} turns`);

/** The selected turns (each a link to it in the viewer), what kind each allows, and their errors. */
export function SelectedTurns({ projectKey, selection, kind, errors, turnErrors, onRemove, onKeepOnly, onClear }: SelectedTurnsProps) {
  const gaps = selection.filter((t) => KIND_FOR_STATE[t.state] === "evidence_gap_item").length;
  const exclusions = selection.length - gaps;
  const mismatched = selection.filter((t) => KIND_FOR_STATE[t.state] !== kind).length;
  return (
    <fieldset aria-describedby={errors.length ? "op-turns-error" : undefined} className="flex flex-col gap-1.5">
      <legend className="mb-1 flex w-full items-center justify-between text-2xs font-medium text-muted">
        <span>Selected turns ({selection.length})</span>
        {selection.length > 0 && (
          <button type="button" onClick={onClear} className="text-2xs text-accent hover:underline">
            Clear
          </button>
        )}
      </legend>
      {selection.length === 0 ? (
        <p className="rounded border border-dashed border-line-strong p-2 text-2xs text-muted">
          Nothing selected. Click open turns in the strip: a hatched turn (<em>no chain yet</em>) can only be recorded as an evidence gap, a white turn (
          <em>uncovered</em>, it has an evidence chain) only as an exclusion.
        </p>
      ) : (
        <ul aria-label="Selected turns" className="flex max-h-40 flex-col gap-1 overflow-auto">
          {selection.map((t) => {
            const key = turnKeyOf(t);
            const own = turnErrors(key);
            const errorId = `op-turn-${key.replace("/", "-")}-error`;
            return (
              <li key={key} className="flex flex-col gap-0.5">
                <span className="flex items-center gap-1.5 text-xs">
                  <span aria-hidden className={`inline-block h-3 w-2.5 shrink-0 rounded-[2px] ${TURN_STATES[t.state].cell}`} />
                  <a href={routes.turn(projectKey, t.session_ref, t.turn_start_line, t.turn_end_line)} target="_blank"
                    rel="noreferrer"
                    aria-describedby={own.length ? errorId : undefined}
                    className="font-mono text-accent hover:underline"
                    title="Open the turn in the viewer (new tab)"
                  >
                    {key}
                  </a>
                  <span className="text-2xs text-muted">
                    {TURN_STATES[t.state].label} → {OPERATOR_KIND_LABEL[KIND_FOR_STATE[t.state]!].toLowerCase()}
                  </span>
                  <button type="button" onClick={() => onRemove(key)} aria-label={`Remove ${key}`} className="ml-auto px-1 text-muted hover:text-danger">
                    ×
                  </button>
                </span>
                <FieldError id={errorId} errors={own} />
              </li>
            );
          })}
        </ul>
      )}
      {gaps > 0 && exclusions > 0 && (
        <div role="note" className="flex flex-col gap-1 rounded border border-warn/30 bg-warn-soft p-2 text-2xs text-warn">
          <span>
            Mixed selection: an evidence gap covers only the {turnsWord(gaps)} without a chain, an exclusion only the {turnsWord(exclusions)} with one.
            {mismatched > 0 && ` ${turnsWord(mismatched)} cannot be part of this ${OPERATOR_KIND_LABEL[kind].toLowerCase()}.`}
          </span>
          <span className="flex gap-3">
            <button type="button" onClick={() => onKeepOnly("evidence_gap_item")} className="underline">
              Keep the evidence-gap turns
            </button>
            <button type="button" onClick={() => onKeepOnly("excluded_with_reason")} className="underline">
              Keep the exclusion turns
            </button>
          </span>
        </div>
      )}
      <FieldError id="op-turns-error" errors={errors} />
    </fieldset>
  );
}
