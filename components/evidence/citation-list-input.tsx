"use client";

import type { FocusEvent } from "react";

import { parseCitationLines } from "@/lib/evidence/schema";

import { type ChainDraft, type CitationDraft, newCitation, normalizeCitation } from "./draft";
import { describedBy, FieldError } from "./field-error";
import { showLines } from "./show-lines";
import type { ChainForm } from "./use-chain-draft";
import { fieldId } from "./validation";

type CitationListInputProps = {
  form: ChainForm;
  /** Path of the part that owns the list: `evidence_chain.outcomes[0]`. */
  owner: string;
  /** Human name of the owner: "Outcome 1"; inputs are labelled "Outcome 1 citation 2". */
  label: string;
  citations: readonly CitationDraft[];
  /** The same list inside a draft copy, for edits. */
  get: (draft: ChainDraft) => CitationDraft[];
};

/**
 * The citations of one chain part: typed as `a-b` or `a` (normalized to `a-a` on blur), or
 * added from the viewer's selection with "Cite" — which fills the row focused last when it is
 * empty, in the list focused last.
 */
export function CitationListInput({ form, owner, label, citations, get }: CitationListInputProps) {
  const isTarget = form.target.owner === owner;
  const listPath = `${owner}.citations`;
  // Focus anywhere in the list makes it the cite target; focus on a row input also names the row.
  const activate = (event: FocusEvent<HTMLFieldSetElement>) => {
    const rowText = event.target instanceof HTMLElement ? event.target.dataset.citationRow : undefined;
    const row = rowText === undefined ? undefined : Number(rowText);
    if (!isTarget || form.target.row !== row) form.setTarget({ owner, label, row });
  };
  return (
    <fieldset
      onFocus={activate}
      data-cite-target={isTarget || undefined}
      className="flex flex-col gap-1 rounded border border-dashed border-line-strong px-2 pt-0.5 pb-1.5 data-cite-target:border-accent data-cite-target:bg-accent-soft/40"
    >
      <legend className="px-1 text-2xs font-medium text-muted">
        {label} citations
        {isTarget && <span className="ml-1.5 rounded bg-accent px-1 text-[0.6rem] font-semibold text-white uppercase">cite target</span>}
      </legend>
      {citations.length === 0 && <p className="text-2xs text-faint">None yet: type a span or select lines in the transcript.</p>}
      <ul className="flex flex-col gap-1">
        {citations.map((citation, k) => {
          const path = `${listPath}[${k}].lines`;
          const id = fieldId(path);
          const errors = form.errorsAt(path);
          const span = parseCitationLines(normalizeCitation(citation.lines));
          return (
            <li key={citation.id} className="flex flex-col gap-0.5">
              <div className="flex items-center gap-1">
                <label htmlFor={id} className="sr-only">
                  {label} citation {k + 1}
                </label>
                <input
                  id={id}
                  data-citation-row={k}
                  value={citation.lines}
                  placeholder="12-20"
                  autoComplete="off"
                  inputMode="numeric"
                  onChange={(event) => {
                    const lines = event.target.value; // read now: the recipe runs when React renders
                    form.edit((d) => void (get(d)[k]!.lines = lines), path);
                  }}
                  onBlur={() => {
                    const normal = normalizeCitation(citation.lines);
                    if (normal !== citation.lines) form.edit((d) => void (get(d)[k]!.lines = normal));
                  }}
                  {...describedBy(id, errors)}
                  className="h-6 w-28 rounded border border-line-strong bg-surface px-1.5 font-mono text-xs aria-invalid:border-danger"
                />
                {span && (
                  <button type="button" onClick={() => showLines(span)} title="Show these lines in the transcript" className="rounded px-1 text-2xs text-accent hover:bg-accent-soft">
                    show
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Remove ${label} citation ${k + 1}`}
                  onClick={() => form.edit((d) => void get(d).splice(k, 1), listPath)}
                  className="rounded px-1 text-muted hover:bg-danger-soft hover:text-danger"
                >
                  ×
                </button>
              </div>
              <FieldError id={`${id}-error`} errors={errors} value={citation.lines} />
            </li>
          );
        })}
      </ul>
      <FieldError id={`${fieldId(listPath)}-error`} errors={form.errorsAt(listPath)} />
      <button type="button" onClick={() => form.edit((d) => void get(d).push(newCitation()))} className="self-start text-2xs text-accent hover:underline">
        + Add citation to {label}
      </button>
    </fieldset>
  );
}
