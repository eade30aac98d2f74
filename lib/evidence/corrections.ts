/** Corrections of committed evidence chains: replace and delete, with version checks (issue 3). */
import { cardChains, type CardRead, existingCardErrors, storedTurnRef, turnChainVersion } from "@/lib/evidence/card-file";
import { changeCard, chainInputError, conflict, currentCardObject, inputFields, invalid, refuse } from "@/lib/evidence/card-store";
import { checkChainAgainstTurn } from "@/lib/evidence/check-turn";
import { chainToJson } from "@/lib/evidence/parse-chain";
import { pyRepr } from "@/lib/evidence/py-repr";
import { assertWritable, prepareChainWrite, resolveEvidenceTarget } from "@/lib/evidence/resolve";
import { type DeleteEvidenceResult, type EvidenceConflict, type EvidenceError, isBlankText, type ReplaceEvidenceResult } from "@/lib/evidence/schema";
import { type CoreContext, traceStage } from "@/lib/context";

/*
 * Reviewer corrections (issue 3, "Build" 3): replace or delete the chain of one turn. Not MCP
 * tools — seed 000's agent tool is append-only. Each names the card version it was based on
 * and, since issue 12, the version of the turn's chain: a card that changed elsewhere (an agent
 * appended the next turn) is fine, a chain that changed under the reviewer is refused with a
 * conflict result and nothing is written (no lost updates).
 */

function baseVersionError(input: Record<string, unknown>): EvidenceError | null {
  const { base_version, base_chain_version } = input;
  if (typeof base_version !== "string" || base_version === "") {
    return { path: "base_version", message: "base_version must be a non-empty string", hint: "pass the version returned when the card was loaded (getEvidenceCard)" };
  }
  if (base_chain_version !== undefined && (typeof base_chain_version !== "string" || base_chain_version === "")) {
    return { path: "base_chain_version", message: "base_chain_version must be a non-empty string when given", hint: "pass the turn's chain_version returned when the card was loaded (getEvidenceCard)" };
  }
  return null;
}

/**
 * The conflict of a correction of `turnRef`, or null when it may proceed: the card is still at
 * `base_version`, or the correction names a `base_chain_version` that is still the turn's.
 * Without `base_chain_version` any card change is a conflict (the issue-3 rule).
 */
function staleBase(read: CardRead, input: Record<string, unknown>, turnRef: string): EvidenceConflict | null {
  const baseVersion = input.base_version as string;
  if (read.version === baseVersion) return null;
  const baseChain = input.base_chain_version as string | undefined;
  if (baseChain === undefined) return conflict(baseVersion, read.version);
  const current = turnChainVersion(cardChains(currentCardObject(read)), turnRef);
  return current === baseChain ? null : conflict(baseVersion, read.version, { turnRef, current });
}

/**
 * Replaces the committed chain of `evidence_chain.turn_ref` with a corrected one, validated like
 * `write_evidence` (stages A, B, C) except that the duplicate rule does not apply to the chain
 * being replaced. It keeps the replaced chain's position; any further chains of that turn (a
 * card written by something else) are dropped, so the card holds one chain per turn again.
 * Refused with `conflict` when the turn's chain changed since `base_chain_version` (or, without
 * it, when the card changed since `base_version`); other turns' changes are kept as they are.
 * @throws AppError conflict (read-only workspace) | parse_error | io_error
 */
export async function replaceEvidenceChain(ctx: CoreContext, input: unknown): Promise<ReplaceEvidenceResult> {
  await assertWritable(ctx);
  const fields = inputFields(input);
  const { project_key, session_ref, evidence_chain } = fields;
  const first = baseVersionError(fields) ?? chainInputError(evidence_chain);
  const prepared = await prepareChainWrite(ctx, project_key, session_ref, evidence_chain, first);
  if (!prepared.ok) return invalid(prepared.errors);
  const { chain, target, turn } = prepared;
  const ids = { project_key: target.project.projectKey, session_ref: target.row.session_ref, turn_ref: chain.turn_ref };

  const { trace } = ctx;
  return changeCard<ReplaceEvidenceResult>(target, (read) => {
    const stale = staleBase(read, fields, chain.turn_ref);
    traceStage(trace, "base_version", stale?.errors ?? []);
    if (stale) return refuse(stale);
    const existing = existingCardErrors(read, target.relPath, ids.project_key, ids.session_ref);
    const chains = existing.length > 0 ? [] : cardChains(currentCardObject(read));
    const at = chains.findIndex((c) => storedTurnRef(c) === chain.turn_ref);
    const missing = {
      path: "evidence_chain.turn_ref",
      message: `turn_ref ${pyRepr(chain.turn_ref)} has no committed evidence chain to replace`,
      hint: "create the chain instead, or reload the card",
    };
    const stageB = existing.length > 0 ? existing : at < 0 ? [missing] : [];
    if (traceStage(trace, "stage_b", stageB).length > 0) return refuse(invalid(stageB));
    const stageC = checkChainAgainstTurn(chain, turn);
    if (traceStage(trace, "stage_c", stageC).length > 0) return refuse(invalid(stageC));
    const next = chains.flatMap((c, i) => (i === at ? [chainToJson(chain)] : storedTurnRef(c) === chain.turn_ref ? [] : [c]));
    return { write: true, card: { ...currentCardObject(read), evidence_chains: next }, result: (version) => ({ status: "replaced", ...ids, version }) };
  }, ctx.trace);
}

/**
 * Deletes every chain of `turn_ref` from the card (the card itself stays, possibly with an
 * empty `evidence_chains`). The turn need not be in the index any more, so a reviewer can
 * remove a chain left for a turn that re-preparation dropped. Conflicts as for a replace.
 * @throws AppError conflict (read-only workspace) | parse_error | io_error
 */
export async function deleteEvidenceChain(ctx: CoreContext, input: unknown): Promise<DeleteEvidenceResult> {
  await assertWritable(ctx);
  const fields = inputFields(input);
  const { project_key, session_ref, turn_ref } = fields;
  const { trace } = ctx;
  const first = baseVersionError(fields);
  const badTurn = typeof turn_ref !== "string" || isBlankText(turn_ref);
  const inputErrors = first ? [first] : badTurn ? [{ path: "turn_ref", message: "turn_ref must be a non-empty string", hint: "pass the turn_ref of the chain to delete" }] : [];
  if (traceStage(trace, "input", inputErrors).length > 0 || typeof turn_ref !== "string") return invalid(inputErrors);
  const resolved = await resolveEvidenceTarget(ctx, project_key, session_ref);
  if (!resolved.ok) return invalid([...traceStage(trace, "stage_b", [resolved.error])]);
  const { target } = resolved;
  const ids = { project_key: target.project.projectKey, session_ref: target.row.session_ref, turn_ref };

  return changeCard<DeleteEvidenceResult>(target, (read) => {
    const stale = staleBase(read, fields, turn_ref);
    traceStage(trace, "base_version", stale?.errors ?? []);
    if (stale) return refuse(stale);
    const existing = existingCardErrors(read, target.relPath, ids.project_key, ids.session_ref);
    const chains = existing.length > 0 ? [] : cardChains(currentCardObject(read));
    const next = chains.filter((c) => storedTurnRef(c) !== turn_ref);
    const none = { path: "turn_ref", message: `turn_ref ${pyRepr(turn_ref)} has no committed evidence chain`, hint: "reload the card; only a committed chain can be deleted" };
    const stageB = existing.length > 0 ? existing : next.length === chains.length ? [none] : [];
    if (traceStage(trace, "stage_b", stageB).length > 0) return refuse(invalid(stageB));
    return { write: true, card: { ...currentCardObject(read), evidence_chains: next }, result: (version) => ({ status: "deleted", ...ids, version }) };
  }, ctx.trace);
}
