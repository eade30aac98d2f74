/** `write_evidence`: one chain validated in three stages and appended to its session card. */
import { cardChains, existingCardErrors, newCard, storedTurnRef } from "@/lib/evidence/card-file";
import { changeCard, chainInputError, currentCardObject, inputFields, invalid, refuse } from "@/lib/evidence/card-store";
import { checkChainAgainstTurn } from "@/lib/evidence/check-turn";
import { chainToJson } from "@/lib/evidence/parse-chain";
import { assertWritable, duplicateTurnError, prepareChainWrite } from "@/lib/evidence/resolve";
import type { AppendEvidenceResult, WriteEvidenceResult } from "@/lib/evidence/schema";
import { type CoreContext, traceStage } from "@/lib/context";

/**
 * Appends one evidence chain to its session card, creating the card when missing (seed 000
 * `write_evidence`, contract §2.4), and returns the new card version for the editor.
 *
 * Order: Casefile's input check (one chain object, not a card); stage A (all errors); stage B
 * (first failure alone: unknown project, no project.json, unknown session, unknown turn, then —
 * under the card lock, against the freshly read card — an existing card that does not match
 * project.json and the index row, a duplicate turn); stage C (all errors). Serialized per card
 * in-process and across processes; a rejected write changes nothing on disk.
 * @throws AppError conflict (schema-2 workspace, read-only) | parse_error (malformed workspace) | io_error
 */
export async function appendEvidenceChain(ctx: CoreContext, input: unknown): Promise<AppendEvidenceResult> {
  await assertWritable(ctx);
  const { project_key, session_ref, evidence_chain } = inputFields(input);
  const prepared = await prepareChainWrite(ctx, project_key, session_ref, evidence_chain, chainInputError(evidence_chain));
  if (!prepared.ok) return invalid(prepared.errors);
  const { chain, target, turn } = prepared;
  const projectKey = target.project.projectKey;
  const sessionRef = target.row.session_ref;

  const { trace } = ctx;
  return changeCard<AppendEvidenceResult>(target, (read) => {
    const existing = existingCardErrors(read, target.relPath, projectKey, sessionRef);
    const chains = existing.length > 0 ? [] : cardChains(currentCardObject(read));
    const stageB = existing.length > 0 ? existing : chains.some((c) => storedTurnRef(c) === chain.turn_ref) ? [duplicateTurnError(chain.turn_ref)] : [];
    if (traceStage(trace, "stage_b", stageB).length > 0) return refuse(invalid(stageB));
    const stageC = checkChainAgainstTurn(chain, turn);
    if (traceStage(trace, "stage_c", stageC).length > 0) return refuse(invalid(stageC));
    const card = currentCardObject(read) ?? newCard(projectKey, sessionRef);
    return {
      write: true,
      card: { ...card, evidence_chains: [...chains, chainToJson(chain)] },
      result: (version) => ({ status: "appended", project_key: projectKey, session_ref: sessionRef, turn_ref: chain.turn_ref, version }),
    };
  }, ctx.trace);
}

/**
 * `write_evidence` (seed 000), the MCP/CLI/HTTP tool: {@link appendEvidenceChain} with the
 * seed's exact result, `{"status":"appended", project_key, session_ref, turn_ref}` or
 * `{"status":"invalid", "errors":[{path, message, hint}]}`.
 * @throws AppError conflict (read-only workspace) | parse_error | io_error
 */
export async function writeEvidence(ctx: CoreContext, input: unknown): Promise<WriteEvidenceResult> {
  const result = await appendEvidenceChain(ctx, input);
  if (result.status !== "appended") return result;
  return { status: result.status, project_key: result.project_key, session_ref: result.session_ref, turn_ref: result.turn_ref };
}
