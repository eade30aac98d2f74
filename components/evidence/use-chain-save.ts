import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";

import type { EvidenceError } from "@/lib/evidence/schema";

import type { ChainInput } from "./draft";
import { type BaseVersions, type CardRef, type SaveMode, useSaveChain } from "./mutations";
import { evidenceCardQuery } from "./queries";
import type { ServerFeedback } from "./use-chain-draft";

/**
 * Saving one editor's chain: the base versions it claims (the card and turn-chain versions the
 * editor opened on, until the reviewer reloads the card after a conflict), and the server's
 * verdict as the form needs it. Everything is derived from the mutation's state; nothing is
 * copied by effects.
 */
export function useChainSave(cardRef: CardRef, mode: SaveMode, turnRef: string, opened: BaseVersions) {
  const queryClient = useQueryClient();
  const mutation = useSaveChain(cardRef, mode);
  const [base, setBase] = useState(opened);
  // A mutation only for its pending/success state: "Reload card" re-reads the card and makes
  // its version the new base, keeping the draft as it is.
  const reloader = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...evidenceCardQuery(cardRef.projectKey, cardRef.sessionRef, cardRef.turnsLimit), staleTime: 0 }),
    onSuccess: (card) => {
      setBase({ version: card.version, chainVersion: card.turns.find((t) => t.turn_ref === turnRef)?.chain_version ?? "absent" });
      mutation.reset();
    },
  });

  const result = mutation.data;
  const rejected = result?.status === "invalid" || result?.status === "conflict" ? result : null;
  const feedback: ServerFeedback | null = rejected && mutation.variables ? { errors: rejected.errors, chain: mutation.variables.chain } : null;

  return {
    base,
    feedback,
    conflict: result?.status === "conflict" ? (result.errors[0] ?? null) : null,
    invalidCount: result?.status === "invalid" ? result.errors.length : 0,
    error: mutation.error,
    pending: mutation.isPending,
    save: (chain: ChainInput, then: { onSaved: () => void; onRejected: (errors: readonly EvidenceError[]) => void }) =>
      mutation.mutate(
        { chain, base },
        {
          onSuccess: (saved) => {
            if (saved.status === "appended" || saved.status === "replaced") then.onSaved();
            else then.onRejected(saved.errors);
          },
        },
      ),
    reload: () => reloader.mutate(),
    reloading: reloader.isPending,
    /** Set after a reload until the next save attempt, to say the draft survived it. */
    reloadedVersion: reloader.isSuccess && !result && !mutation.isPending ? reloader.data.version : null,
  };
}
