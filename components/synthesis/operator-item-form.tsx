"use client";

import type { FormEvent } from "react";

import { FieldError } from "@/components/evidence/field-error";
import { useWriteRefusal, WriteRefusalNote } from "@/components/team/write-access";
import { CONFIDENCE_VALUES, type Confidence, OPERATOR_KINDS, type OperatorKind, type SynthesisError, type SynthesisTurnState, WORK_ITEM_KINDS } from "@/lib/synthesis/schema";

import { SelectedTurns } from "./selected-turns";
import { OPERATOR_KIND_LABEL } from "./turn-states";
import { useOperatorForm } from "./use-operator-form";
import type { FormField } from "./validation";

type OperatorItemFormProps = {
  projectKey: string;
  /** The selected open turns, in index order. */
  selection: readonly SynthesisTurnState[];
  onRemove: (turnKey: string) => void;
  onKeepOnly: (kind: OperatorKind) => void;
  onClear: () => void;
};

const INPUT = "w-full rounded border border-line-strong bg-surface px-2 py-1 text-xs aria-invalid:border-danger";
const LABEL = "text-2xs font-medium text-muted";
const KIND_NEEDS: Record<OperatorKind, string> = { evidence_gap_item: "only turns without an evidence chain", excluded_with_reason: "only turns with an evidence chain" };

/** aria-describedby for an input: its help text, then its errors. */
const described = (id: string, errors: readonly SynthesisError[], help?: boolean) => ({
  "aria-invalid": errors.length > 0 || undefined,
  "aria-describedby": [help ? `${id}-help` : "", errors.length ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined,
});

/** Takes the operator to the first field with an error (form order). */
const focusFirst = (fields: readonly FormField[]) => {
  const field = (["kind", "title", "reason", "confidence"] as const).find((f) => fields.includes(f));
  if (field) document.getElementById(`op-${field}`)?.focus();
};

/**
 * Records an evidence_gap_item or an excluded_with_reason item over the selected turns. Shape
 * errors show as you type; the server's errors (`work_item.reason`, `work_item.covered_turns[0]`,
 * …) at the field or the turn their path names, with the hint. A refused create keeps the form.
 * For a browser that may not write (a team server's read token) Create is disabled, the reason beside it.
 */
export function OperatorItemForm({ projectKey, selection, onRemove, onKeepOnly, onClear }: OperatorItemFormProps) {
  const refusal = useWriteRefusal();
  const form = useOperatorForm(projectKey, selection);
  const { kind, title, reason, confidence } = form.values;
  const kindErrors = form.errorsAt("kind");
  const titleErrors = form.errorsAt("title");
  const reasonErrors = form.errorsAt("reason");
  const confidenceErrors = form.errorsAt("confidence");

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const fieldOf = (e: SynthesisError) => /^work_item\.(kind|title|reason|confidence)$/.exec(e.path)?.[1] as FormField | undefined;
    focusFirst(form.submit(onClear, (errors) => focusFirst(errors.flatMap((e) => fieldOf(e) ?? []))));
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Record an evidence gap or exclusion" className="flex flex-col gap-3 rounded border border-line bg-surface p-4">
      <h2 className="text-sm font-semibold">Evidence gap or exclusion</h2>
      <SelectedTurns
        projectKey={projectKey}
        selection={selection}
        kind={kind}
        errors={form.errorsAt("covered_turns")}
        turnErrors={form.turnErrors}
        onRemove={onRemove}
        onKeepOnly={onKeepOnly}
        onClear={onClear}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor="op-kind" className={LABEL}>
          Kind
        </label>
        <select id="op-kind" value={kind} onChange={(e) => form.setKind(e.target.value as OperatorKind)} {...described("op-kind", kindErrors, true)} className={`${INPUT} h-7`}>
          {OPERATOR_KINDS.map((k) => (
            <option key={k} value={k} disabled={form.allowed.size === 1 && !form.allowed.has(k)}>
              {OPERATOR_KIND_LABEL[k]} ({k})
            </option>
          ))}
        </select>
        <p id="op-kind-help" className="text-2xs text-muted">
          Covers {KIND_NEEDS[kind]}: {WORK_ITEM_KINDS[kind]}.
        </p>
        <FieldError id="op-kind-error" errors={kindErrors} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="op-title" className={LABEL}>
          Title
        </label>
        <input id="op-title" value={title} onChange={(e) => form.setTitle(e.target.value)} {...described("op-title", titleErrors)} className={INPUT} />
        <FieldError id="op-title-error" errors={titleErrors} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="op-reason" className={LABEL}>
          Reason
        </label>
        <textarea id="op-reason" rows={2} value={reason} onChange={(e) => form.setReason(e.target.value)} {...described("op-reason", reasonErrors, true)} className={`${INPUT} resize-y`} />
        <p id="op-reason-help" className="text-2xs text-muted">
          {kind === "excluded_with_reason" ? "Required: why these turns stay out of the report." : "Optional for an evidence gap."}
        </p>
        <FieldError id="op-reason-error" errors={reasonErrors} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="op-confidence" className={LABEL}>
          Confidence
        </label>
        <select id="op-confidence" value={confidence} onChange={(e) => form.setConfidence(e.target.value as Confidence)} {...described("op-confidence", confidenceErrors)} className={`${INPUT} h-7`}>
          {CONFIDENCE_VALUES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
        <FieldError id="op-confidence-error" errors={confidenceErrors} />
      </div>
      {(form.formErrors.length > 0 || form.failure) && (
        <div role="alert" className="rounded border border-danger/40 bg-danger-soft p-2 text-xs text-danger">
          <p className="font-semibold">Not created.</p>
          {form.failure && <p>{form.failure.message}</p>}
          <FieldError id="op-form-error" errors={form.formErrors} />
        </div>
      )}
      <div className="flex items-center gap-3">
        <button
          type="submit"
          disabled={form.pending || refusal !== null}
          aria-describedby={refusal !== null ? "op-write-refusal" : undefined}
          className="rounded bg-ink px-3 py-1 text-xs font-semibold text-white hover:bg-ink/85 disabled:opacity-60"
        >
          {form.pending ? "Creating…" : `Create ${OPERATOR_KIND_LABEL[kind].toLowerCase()}`}
        </button>
        <span role="status" className="text-2xs text-ok">
          {form.created && !form.pending ? `Created ${form.created}.` : ""}
        </span>
      </div>
      {refusal !== null && <WriteRefusalNote id="op-write-refusal" refusal={refusal} />}
    </form>
  );
}
