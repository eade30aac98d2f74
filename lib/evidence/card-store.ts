/** The one write path of evidence cards: under the card's lock, read, decide (refuse or change), write atomically. */
import type { CallTrace } from "@/lib/context";
import { type CardRead, cardVersion, isJsonObject, readCardFile, serializeCard } from "@/lib/evidence/card-file";
import { withFileLock } from "@/lib/fs/file-lock";
import { pyRepr } from "@/lib/evidence/py-repr";
import type { EvidenceTarget } from "@/lib/evidence/resolve";
import type { EvidenceConflict, EvidenceError, EvidenceInvalid } from "@/lib/evidence/schema";
import { writeFileAtomic } from "@/lib/fs/atomic-write";

/** What a writer decided after seeing the current card: refuse with a result, or write a card. */
export type CardChange<R> = { write: false; result: R } | { write: true; card: Record<string, unknown>; result: (version: string) => R };

/**
 * Reads the card fresh under the card lock, lets `decide` validate against it, and commits the
 * decided card with an atomic replace (temp, fsync, rename). A refused change writes nothing.
 * A written card is reported to the call's `trace` (the audit ledger's artifacts_written).
 * Returns the decided result; a written one receives the new card version.
 * @throws AppError io_error (lock timeout or lock lost); fs errors from the write.
 */
export function changeCard<R>(target: EvidenceTarget, decide: (read: CardRead) => CardChange<R>, trace?: CallTrace): Promise<R> {
  return withFileLock(target.cardPath, async (lock) => {
    const change = decide(await readCardFile(target.cardPath));
    if (!change.write) return change.result;
    const text = serializeCard(change.card);
    await lock.assertHeld();
    await writeFileAtomic(target.cardPath, text);
    trace?.artifact(target.relPath);
    return change.result(cardVersion(text));
  });
}

/** The card object to extend: the existing one (unknown keys kept), whose envelope was checked. */
export const currentCardObject = (read: CardRead): Record<string, unknown> | null =>
  read.state === "present" && isJsonObject(read.value) ? read.value : null;

/** A refusal carrying the seeds' `invalid` result. */
export const refuse = <R>(result: R): CardChange<R> => ({ write: false, result });

/** `{status:"invalid", errors}`. */
export const invalid = (errors: EvidenceError[]): EvidenceInvalid => ({ status: "invalid", errors });

const shortVersion = (v: string) => (v.length > 12 ? v.slice(0, 12) : v);

/**
 * The refusal of a correction whose base is stale (issue 3; per turn since issue 12): with a
 * `chain` the turn's own chain changed since the reviewer loaded it (path `base_chain_version`);
 * without one the card changed and the correction named no chain version (path `base_version`).
 */
export function conflict(baseVersion: string, currentVersion: string, chain?: { turnRef: string; current: string }): EvidenceConflict {
  const hint = "reload the card, re-apply your edit, and save again";
  if (chain) {
    return {
      status: "conflict",
      errors: [{ path: "base_chain_version", message: `the evidence chain of turn ${pyRepr(chain.turnRef)} changed since you loaded it`, hint }],
      current_version: currentVersion,
      current_chain_version: chain.current,
    };
  }
  return {
    status: "conflict",
    errors: [
      {
        path: "base_version",
        message: `the evidence card changed since you loaded it (loaded version ${shortVersion(baseVersion)}, current version ${shortVersion(currentVersion)})`,
        hint,
      },
    ],
    current_version: currentVersion,
  };
}

/**
 * Casefile's input checks that run before stage A (seed 000: "Input is one evidence chain, not
 * a full session evidence card"). prompt-diary assumes a dict; a JSON door can send anything.
 */
export function chainInputError(chain: unknown): EvidenceError | null {
  if (!isJsonObject(chain)) {
    return {
      path: "evidence_chain",
      message: "evidence_chain must be a JSON object holding one evidence chain",
      hint: "send one chain: {turn_ref, trigger, agent_reactions, outcomes, observed_checks, terminal_state, materiality}",
    };
  }
  if ("evidence_chains" in chain) {
    return {
      path: "evidence_chain",
      message: "evidence_chain must be one evidence chain, not a full session evidence card",
      hint: "send only the chain for the assigned turn_ref; the card is created and extended for you",
    };
  }
  return null;
}

/** The input's top-level fields, whatever was sent (a non-object input reads as `{}`). */
export const inputFields = (input: unknown): Record<string, unknown> => (isJsonObject(input) ? input : {});
