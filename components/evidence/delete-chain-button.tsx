"use client";

import { useState } from "react";

import { useWriteRefusal } from "@/components/team/write-access";

import { type BaseVersions, type CardRef, useDeleteChain } from "./mutations";

type DeleteChainButtonProps = { cardRef: CardRef; turnRef: string; base: BaseVersions; onDeleted?: () => void };

/**
 * "Delete chain" with an inline confirmation; a chain changed meanwhile is refused and said so.
 * Disabled (the reason as its title) for a browser that may not write.
 */
export function DeleteChainButton({ cardRef, turnRef, base, onDeleted }: DeleteChainButtonProps) {
  const mayNotWrite = useWriteRefusal();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteChain(cardRef);
  const result = remove.data;
  const refusal = result && result.status !== "deleted" ? result.errors[0] : undefined;

  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        disabled={mayNotWrite !== null}
        title={mayNotWrite ?? undefined}
        className="rounded border border-line-strong px-2 py-0.5 text-2xs text-danger hover:bg-danger-soft disabled:cursor-not-allowed disabled:opacity-50"
      >
        Delete chain…
      </button>
    );
  }
  return (
    <div role="group" aria-label={`Confirm deleting the chain of ${turnRef}`} className="flex basis-full flex-col gap-1.5 rounded border border-danger/40 bg-danger-soft p-2 text-xs">
      <p className="text-danger">
        Delete the evidence chain of <span className="font-mono">{turnRef}</span>? The card on disk is rewritten without it (and without any other chain it holds for this turn).
      </p>
      {refusal && (
        <p role="alert" className="text-danger">
          {refusal.message} <span className="text-muted">Hint: {refusal.hint}</span>
        </p>
      )}
      {remove.error && <p role="alert" className="text-danger">{remove.error.message}</p>}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { turnRef, base },
              {
                onSuccess: (r) => {
                  if (r.status !== "deleted") return;
                  setConfirming(false);
                  onDeleted?.();
                },
              },
            )
          }
          className="rounded bg-danger px-2 py-0.5 font-semibold text-white hover:bg-danger/90 disabled:opacity-60"
        >
          {remove.isPending ? "Deleting…" : "Delete"}
        </button>
        <button
          type="button"
          onClick={() => {
            remove.reset();
            setConfirming(false);
          }}
          className="rounded border border-line-strong bg-surface px-2 py-0.5 hover:bg-canvas"
        >
          Cancel
        </button>
      </div>
    </div>
  );
}
