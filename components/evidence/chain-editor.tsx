"use client";

import type { FormEvent } from "react";

import type { EvidenceTurnState } from "@/lib/evidence/schema";

import { CiteToolbar } from "./cite-toolbar";
import { ConflictNotice } from "./conflict-notice";
import { draftFromChain, emptyDraft } from "./draft";
import { EndingEditor } from "./ending-editor";
import { FieldError } from "./field-error";
import { focusField } from "./focus-field";
import type { BaseVersions, CardRef, SaveMode } from "./mutations";
import { PartsEditor } from "./parts-editor";
import { TriggerEditor } from "./trigger-editor";
import { useChainDraft } from "./use-chain-draft";
import { useChainSave } from "./use-chain-save";
import { fieldId } from "./validation";

type ChainEditorProps = {
  cardRef: CardRef;
  turn: EvidenceTurnState;
  mode: SaveMode;
  /** The stored chain to edit (replace mode). */
  chain: unknown;
  /** The card and turn-chain versions the editor opened on: the base of a replace. */
  opened: BaseVersions;
  lineCount: number;
  onClose: () => void;
  onSaved: (turnRef: string) => void;
};

/**
 * Create or replace the chain of one turn. Shape errors show as you type (the shared zod
 * schema), and a citation outside the turn as soon as it is typed or cited (the server's own
 * stage C rule); the server's structural errors show at the field their path names, with the
 * hint, until that field changes. A refused save — invalid or stale — keeps the draft.
 */
export function ChainEditor({ cardRef, turn, mode, chain, opened, lineCount, onClose, onSaved }: ChainEditorProps) {
  const saver = useChainSave(cardRef, mode, turn.turn_ref, opened);
  const form = useChainDraft(() => (mode === "replace" ? draftFromChain(chain, turn.turn_ref) : emptyDraft(turn.turn_ref)), saver.feedback, turn);
  const turnPath = "evidence_chain.turn_ref";
  const turnErrors = form.errorsAt(turnPath);
  const problems = saver.invalidCount || (form.submitted ? form.clientErrorCount : 0);
  // `turn` is the polled card's: only a change to this turn's own chain makes the edit stale.
  const stale = mode === "replace" && turn.chain_version !== saver.base.chainVersion && !saver.conflict;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.attemptSave();
    if (form.clientErrorCount > 0) {
      focusField(form.firstClientErrorPath);
      return;
    }
    saver.save(form.chain, { onSaved: () => onSaved(turn.turn_ref), onRejected: (errors) => focusField(errors[0]?.path) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Evidence chain editor for ${turn.turn_ref}`} className="flex flex-col gap-3">
      <div className="sticky top-0 z-10 -mx-3 flex flex-col gap-2 border-b border-line bg-surface/95 px-3 pt-1 pb-2 backdrop-blur">
        <div className="flex items-baseline justify-between gap-2">
          <h2 className="text-sm font-semibold">
            {mode === "create" ? "New chain" : "Edit chain"} ·{" "}
            <output id={fieldId(turnPath)} aria-describedby={turnErrors.length ? `${fieldId(turnPath)}-error` : undefined} className="font-mono">
              {turn.turn_ref}
            </output>
          </h2>
          <span className="font-mono text-2xs text-muted">
            lines {turn.turn_start_line}–{turn.turn_end_line}
          </span>
        </div>
        <FieldError id={`${fieldId(turnPath)}-error`} errors={turnErrors} />
        <CiteToolbar form={form} lineCount={lineCount} turn={turn} />
        {/* In the sticky header, so a refused save is seen wherever the reviewer scrolled to (the Save button is at the bottom). */}
        {(form.formErrors.length > 0 || saver.error) && (
          <div role="alert" className="rounded border border-danger/40 bg-danger-soft p-2 text-xs text-danger">
            <p className="font-semibold">Not saved.</p>
            {saver.error && <p>{saver.error.message}</p>}
            <FieldError id="ev-form-error" errors={form.formErrors} />
          </div>
        )}
        {saver.conflict && <ConflictNotice error={saver.conflict} reloading={saver.reloading} onReload={saver.reload} />}
        {stale && <ConflictNotice error={null} reloading={saver.reloading} onReload={saver.reload} />}
        {saver.reloadedVersion && (
          <p role="status" className="rounded border border-ok/30 bg-ok-soft p-2 text-xs text-ok">
            Card reloaded (version <span className="font-mono">{saver.reloadedVersion.slice(0, 12)}</span>). Your draft is kept — save to apply it.
          </p>
        )}
      </div>

      <TriggerEditor form={form} />
      <PartsEditor form={form} part="agent_reactions" />
      <PartsEditor form={form} part="outcomes" />
      <PartsEditor form={form} part="observed_checks" />
      <EndingEditor form={form} />

      <div className="sticky bottom-0 -mx-3 flex items-center gap-2 border-t border-line bg-surface/95 px-3 py-2 backdrop-blur">
        <button type="submit" disabled={saver.pending} className="rounded bg-ink px-3 py-1 text-xs font-semibold text-white hover:bg-ink/85 disabled:opacity-60">
          {saver.pending ? "Saving…" : mode === "create" ? "Save chain" : "Save changes"}
        </button>
        <button type="button" onClick={onClose} className="rounded border border-line-strong px-3 py-1 text-xs hover:bg-canvas">
          Cancel
        </button>
        {problems > 0 && (
          <span role="status" className="text-2xs text-danger">
            {problems === 1 ? "1 problem" : `${problems} problems`} — see the marked fields.
          </span>
        )}
      </div>
    </form>
  );
}
