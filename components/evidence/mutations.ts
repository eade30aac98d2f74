import { useMutation, useQueryClient } from "@tanstack/react-query";

import type { AppendEvidenceResult, DeleteEvidenceResult, ReplaceEvidenceResult } from "@/lib/evidence/schema";
import { createEvidenceChainAction, deleteEvidenceChainAction, replaceEvidenceChainAction } from "@/server/actions/evidence";

import type { ChainInput } from "./draft";
import { evidenceKeys } from "./queries";
import { unwrap } from "./unwrap";

/**
 * Which session's card a mutation writes; `turnsLimit` is how many of its turns the panel
 * reads (issue 13: the card's turns come page by page; default `TURNS_PAGE`).
 */
export type CardRef = { projectKey: string; sessionRef: string; turnsLimit?: number };
/**
 * Create appends a new chain; replace swaps the turn's chain if that chain is still at
 * `base.chainVersion` (other turns may have changed meanwhile).
 */
export type SaveMode = "create" | "replace";
/** The card and turn-chain versions an edit started from (`getEvidenceCard`). */
export type BaseVersions = { version: string; chainVersion: string };
export type SaveVariables = { chain: ChainInput; base: BaseVersions };
export type SaveResult = AppendEvidenceResult | ReplaceEvidenceResult;

/**
 * Saves the editor's chain. Rejections (`invalid`, `conflict`) are results, not errors, so the
 * form keeps its draft; the card is re-read after every attempt, and the promise waits for it so
 * a closed editor never shows the card as it was before the save.
 */
export function useSaveChain({ projectKey, sessionRef }: CardRef, mode: SaveMode) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ chain, base }: SaveVariables): Promise<SaveResult> => {
      const ids = { project_key: projectKey, session_ref: sessionRef, evidence_chain: chain };
      return mode === "create"
        ? unwrap(await createEvidenceChainAction(ids))
        : unwrap(await replaceEvidenceChainAction({ ...ids, base_version: base.version, base_chain_version: base.chainVersion }));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: evidenceKeys.card(projectKey, sessionRef) }),
  });
}

/** Deletes every chain of a turn, if that turn's chain is still at `base.chainVersion`. */
export function useDeleteChain({ projectKey, sessionRef }: CardRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ turnRef, base }: { turnRef: string; base: BaseVersions }): Promise<DeleteEvidenceResult> =>
      unwrap(
        await deleteEvidenceChainAction({ project_key: projectKey, session_ref: sessionRef, turn_ref: turnRef, base_version: base.version, base_chain_version: base.chainVersion }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: evidenceKeys.card(projectKey, sessionRef) }),
  });
}
