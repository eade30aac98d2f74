"use server";

import { appendEvidenceChain } from "@/lib/evidence/write-evidence";
import { deleteEvidenceChain, replaceEvidenceChain } from "@/lib/evidence/corrections";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import type {
  AppendEvidenceResult,
  DeleteEvidenceChainInput,
  DeleteEvidenceResult,
  EvidenceCardView,
  ReplaceEvidenceChainInput,
  ReplaceEvidenceResult,
} from "@/lib/evidence/schema";
import { type ActionResult, runAction } from "@/server/action";
import { getCoreContext } from "@/server/core";

/*
 * The evidence editor's server actions (issue 3): thin calls into lib/evidence. Structural
 * rejections and stale-version conflicts come back as `data` ({status:"invalid"|"conflict"}),
 * so the form keeps its draft and shows each error at the field its `path` names.
 */

/** Creates the chain of one turn (write_evidence's append, plus the new card `version`). */
export async function createEvidenceChainAction(input: { project_key: string; session_ref: string; evidence_chain: unknown }): Promise<ActionResult<AppendEvidenceResult>> {
  return runAction(() => appendEvidenceChain(getCoreContext(), input));
}

/** Replaces the chain of `evidence_chain.turn_ref`; refused with `conflict` when `base_version` is stale. */
export async function replaceEvidenceChainAction(input: ReplaceEvidenceChainInput): Promise<ActionResult<ReplaceEvidenceResult>> {
  return runAction(() => replaceEvidenceChain(getCoreContext(), input));
}

/** Deletes the chain of `turn_ref`; refused with `conflict` when `base_version` is stale. */
export async function deleteEvidenceChainAction(input: DeleteEvidenceChainInput): Promise<ActionResult<DeleteEvidenceResult>> {
  return runAction(() => deleteEvidenceChain(getCoreContext(), input));
}

/** The card view for the panel (also used to reload after a conflict). */
export async function getEvidenceCardAction(input: { project_key: string; session_ref: string }): Promise<ActionResult<EvidenceCardView>> {
  return runAction(() => getEvidenceCard(getCoreContext(), input.project_key, input.session_ref));
}
