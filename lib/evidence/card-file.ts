/** An evidence card file on disk: read with its version, created, serialized. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import { toPrettyJson } from "@/lib/fs/atomic-write";
import { pyRepr } from "@/lib/evidence/py-repr";
import { ABSENT_VERSION, CARD_SCHEMA_VERSION, type EvidenceCard, type EvidenceError } from "@/lib/evidence/schema";

/** A card file as read from disk: absent, or its bytes, version and parsed value. */
export type CardRead =
  | { state: "absent"; version: typeof ABSENT_VERSION }
  | { state: "present"; version: string; bytes: Buffer; value: unknown; parseError: string | null };

/** The card version the editor echoes back as `base_version`: sha256 hex of the file bytes. */
export const cardVersion = (bytes: Uint8Array | string): string => createHash("sha256").update(bytes).digest("hex");

/**
 * Reads a card file. Invalid JSON is not thrown: it comes back as `parseError` so that every
 * caller can turn it into a structured rejection (seed 000) or an inspector message (§2.5).
 * @throws the fs error for anything but a missing file.
 */
export async function readCardFile(cardPath: string): Promise<CardRead> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(cardPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "absent", version: ABSENT_VERSION };
    throw error;
  }
  const version = cardVersion(bytes);
  try {
    return { state: "present", version, bytes, value: JSON.parse(bytes.toString("utf8")), parseError: null };
  } catch (error) {
    return { state: "present", version, bytes, value: null, parseError: (error as Error).message };
  }
}

/** A new, empty card for a session (contract §2.4 "Card missing"). */
export const newCard = (projectKey: string, sessionRef: string): EvidenceCard => ({
  schema_version: CARD_SCHEMA_VERSION,
  project_key: projectKey,
  session_ref: sessionRef,
  evidence_chains: [],
});

/** The on-disk text of a card: `JSON.stringify(card, null, 2)` plus a newline (contract §2.1). */
export const serializeCard = (card: Record<string, unknown>): string => toPrettyJson(card);

/** True for a JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One envelope problem: the card field and prompt-diary's inspector message for it (§2.5). */
export type EnvelopeProblem = { field: "schema_version" | "project_key" | "session_ref" | "evidence_chains"; message: string };

/** prompt-diary's envelope checks (§2.5 `inspect_evidence_card`); a non-object card reads as `{}`. */
export function envelopeProblems(value: unknown, projectKey: string, sessionRef: string): EnvelopeProblem[] {
  const card = isJsonObject(value) ? value : {};
  const out: EnvelopeProblem[] = [];
  if (card.schema_version !== CARD_SCHEMA_VERSION) out.push({ field: "schema_version", message: "schema_version must be 1" });
  if (card.project_key !== projectKey) out.push({ field: "project_key", message: `project_key must be ${pyRepr(projectKey)}` });
  if (card.session_ref !== sessionRef) out.push({ field: "session_ref", message: `session_ref must be ${pyRepr(sessionRef)}` });
  if (!Array.isArray(card.evidence_chains)) out.push({ field: "evidence_chains", message: "evidence_chains must be a list" });
  return out;
}

const EXISTING_HINT = "repair or move aside the existing card so that it matches project.json and the session index row";

/**
 * Seed 000: "If the evidence file already exists, the tool validates the existing card" and
 * "Existing evidence cards, when present, match project.json and the session index row".
 * Returns every envelope problem of an existing card as `{path, message, hint}` (path
 * `evidence_card…`), or [] when the card is absent or sound. prompt-diary itself skips this.
 */
export function existingCardErrors(read: CardRead, relPath: string, projectKey: string, sessionRef: string): EvidenceError[] {
  if (read.state === "absent") return [];
  const where = `existing evidence card ${relPath}`;
  if (read.parseError !== null) return [{ path: "evidence_card", message: `${where} is not valid JSON: ${read.parseError}`, hint: EXISTING_HINT }];
  if (!isJsonObject(read.value)) return [{ path: "evidence_card", message: `${where} must contain a JSON object`, hint: EXISTING_HINT }];
  return envelopeProblems(read.value, projectKey, sessionRef).map((p) => ({ path: `evidence_card.${p.field}`, message: `${where}: ${p.message}`, hint: EXISTING_HINT }));
}

/** The `evidence_chains` list of a card value, [] when absent or not a list. */
export const cardChains = (value: unknown): unknown[] => (isJsonObject(value) && Array.isArray(value.evidence_chains) ? value.evidence_chains : []);

/** The `turn_ref` of a stored chain when it is an object with a string turn_ref, else null. */
export const storedTurnRef = (chain: unknown): string | null => (isJsonObject(chain) && typeof chain.turn_ref === "string" ? chain.turn_ref : null);

/**
 * The version of one turn's evidence on a card (issue 12, per-turn conflicts): sha256 hex of
 * the JSON text of every stored chain of `turnRef`, in card order, or "absent" when the card
 * holds none. It changes only when that turn's chain changes, not when another turn's does, so
 * a reviewer's correction survives an agent appending the next turn meanwhile.
 */
export function turnChainVersion(chains: readonly unknown[], turnRef: string): string {
  const mine = chains.filter((c) => storedTurnRef(c) === turnRef);
  return mine.length === 0 ? ABSENT_VERSION : cardVersion(JSON.stringify(mine));
}
