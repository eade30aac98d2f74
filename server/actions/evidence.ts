"use server";

import { createEvidenceChainTool, deleteEvidenceChainTool, getEvidenceCardTool, replaceEvidenceChainTool } from "@/lib/evidence/tools";
import type {
  AppendEvidenceResult,
  DeleteEvidenceChainInput,
  DeleteEvidenceResult,
  EvidenceCardView,
  ReplaceEvidenceChainInput,
  ReplaceEvidenceResult,
} from "@/lib/evidence/schema";
import { invokeToolForUi } from "@/lib/tools/registry";
import { type ActionResult, runAction } from "@/server/action";
import { getCoreContext } from "@/server/core";

/*
 * The evidence editor's server actions (issue 3): each one registered tool call (door `ui`). Structural
 * rejections and stale-version conflicts come back as `data` ({status:"invalid"|"conflict"}),
 * so the form keeps its draft and shows each error at the field its `path` names.
 */

/** Creates the chain of one turn (write_evidence's append, plus the new card `version`). */
export async function createEvidenceChainAction(input: { project_key: string; session_ref: string; evidence_chain: unknown }): Promise<ActionResult<AppendEvidenceResult>> {
  return runAction(() => invokeToolForUi(getCoreContext(), createEvidenceChainTool, input));
}

/** Replaces the chain of `evidence_chain.turn_ref`; refused with `conflict` when `base_version` is stale. */
export async function replaceEvidenceChainAction(input: ReplaceEvidenceChainInput): Promise<ActionResult<ReplaceEvidenceResult>> {
  return runAction(() => invokeToolForUi(getCoreContext(), replaceEvidenceChainTool, input));
}

/** Deletes the chain of `turn_ref`; refused with `conflict` when `base_version` is stale. */
export async function deleteEvidenceChainAction(input: DeleteEvidenceChainInput): Promise<ActionResult<DeleteEvidenceResult>> {
  return runAction(() => invokeToolForUi(getCoreContext(), deleteEvidenceChainTool, input));
}

/** The card view for the panel (also used to reload after a conflict). */
export async function getEvidenceCardAction(input: { project_key: string; session_ref: string }): Promise<ActionResult<EvidenceCardView>> {
  return runAction(() => invokeToolForUi(getCoreContext(), getEvidenceCardTool, input));
}
