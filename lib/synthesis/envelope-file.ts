/** The synthesis envelope file on disk: read with its version, created, serialized. */
import { type CardRead, isJsonObject, readCardFile } from "@/lib/evidence/card-file";
import { pyRepr } from "@/lib/evidence/py-repr";
import { toPrettyJson } from "@/lib/fs/atomic-write";
import { turnId, type SourceUserMessages } from "@/lib/synthesis/cards";
import { ENVELOPE_SCHEMA_VERSION, type SynthesisError, type TurnKey } from "@/lib/synthesis/schema";

/** An envelope file as read from disk: absent, or its bytes, sha256 version and parsed value. */
export type EnvelopeRead = CardRead;

/**
 * Reads `project-synthesis.json`. Invalid JSON is not thrown but returned as `parseError`.
 * @throws the fs error for anything but a missing file.
 */
export const readEnvelopeFile = (envelopePath: string): Promise<EnvelopeRead> => readCardFile(envelopePath);

/** The envelope object of a read, or null when absent, not JSON, or not a JSON object. */
export const envelopeObject = (read: EnvelopeRead): Record<string, unknown> | null =>
  read.state === "present" && read.parseError === null && isJsonObject(read.value) ? read.value : null;

/** The on-disk text of an envelope: `JSON.stringify(envelope, null, 2)` plus a newline (§3.1). */
export const serializeEnvelope = (envelope: Record<string, unknown>): string => toPrettyJson(envelope);

/** A new envelope (contract §3.1): copied from project.json, with the one-time source messages. */
export const newEnvelope = (projectKey: string, projectLabel: string, sourceUserMessages: SourceUserMessages[]): Record<string, unknown> => ({
  schema_version: ENVELOPE_SCHEMA_VERSION,
  project_key: projectKey,
  project_label: projectLabel,
  work_items: [],
  source_user_messages: sourceUserMessages,
});

/** One envelope problem: its field and prompt-diary's inspector message (§3.5). */
export type EnvelopeProblem = { field: string; message: string };

/**
 * prompt-diary's envelope checks (`inspect_project_synthesis`, §3.5), in its order:
 * schema_version, project_key, project_label, work_items list, source_user_messages list.
 */
export function envelopeProblems(envelope: Record<string, unknown>, projectKey: string, projectLabel: string): EnvelopeProblem[] {
  const out: EnvelopeProblem[] = [];
  if (envelope.schema_version !== ENVELOPE_SCHEMA_VERSION) out.push({ field: "schema_version", message: "schema_version must be 1" });
  if (envelope.project_key !== projectKey) out.push({ field: "project_key", message: `project_key must be ${pyRepr(projectKey)}` });
  if (envelope.project_label !== projectLabel) out.push({ field: "project_label", message: `project_label must be ${pyRepr(projectLabel)}` });
  if (!Array.isArray(envelope.work_items)) out.push({ field: "work_items", message: "work_items must be a list" });
  if (!Array.isArray(envelope.source_user_messages)) out.push({ field: "source_user_messages", message: "source_user_messages must be a list" });
  return out;
}

const EXISTING_HINT = "repair or move aside the existing project-synthesis.json so that it matches project.json and holds lists of work_items and source_user_messages";

/**
 * Seed 001 "Subsequent writes. The tool validates the existing envelope and appends": every
 * problem of an existing envelope as `{path, message, hint}` (path `project_synthesis…`), or []
 * when it is absent or sound. Checked: valid JSON, the §3.5 envelope fields, and each stored
 * work item being an object. A JSON non-object reads as absent (it is regenerated, as
 * prompt-diary's newest writer does). Stored items are not re-validated (the synthesis page's
 * completeness errors show that), so a later change to a card cannot block all further writes.
 */
export function existingEnvelopeErrors(read: EnvelopeRead, relPath: string, projectKey: string, projectLabel: string): SynthesisError[] {
  if (read.state === "absent") return [];
  const where = `existing project synthesis envelope ${relPath}`;
  if (read.parseError !== null) return [{ path: "project_synthesis", message: `${where} is not valid JSON: ${read.parseError}`, hint: EXISTING_HINT }];
  if (!isJsonObject(read.value)) return [];
  const errors = envelopeProblems(read.value, projectKey, projectLabel).map((p) => ({ path: `project_synthesis.${p.field}`, message: `${where}: ${p.message}`, hint: EXISTING_HINT }));
  const items = Array.isArray(read.value.work_items) ? read.value.work_items : [];
  items.forEach((item, i) => {
    if (!isJsonObject(item)) errors.push({ path: `project_synthesis.work_items[${i}]`, message: `${where}: work_items[${i}] must be a JSON object`, hint: EXISTING_HINT });
  });
  return errors;
}

/** The envelope's `work_items` entries that are objects (prompt-diary's `_existing_work_items`). */
export const storedWorkItems = (envelope: Record<string, unknown> | null): Record<string, unknown>[] =>
  envelope && Array.isArray(envelope.work_items) ? envelope.work_items.filter(isJsonObject) : [];

const asStr = (v: unknown): string => (typeof v === "string" ? v : "");

/** The `covered_turns` of stored items, as read without validation (the write path's coverage). */
export function storedCoveredTurns(item: Record<string, unknown>): TurnKey[] {
  const list = Array.isArray(item.covered_turns) ? item.covered_turns : [];
  return list.map((ref) => (isJsonObject(ref) ? { session_ref: asStr(ref.session_ref), turn_ref: asStr(ref.turn_ref) } : { session_ref: "", turn_ref: "" }));
}

/** Every turn some stored item covers, as {@link turnId}s. */
export const coveredIds = (items: Record<string, unknown>[]): Set<string> =>
  new Set(items.flatMap((item) => storedCoveredTurns(item).map((t) => turnId(t.session_ref, t.turn_ref))));

/** The universe minus the covered turns, in universe (index) order (contract §3.5). */
export const uncoveredTurns = (universe: TurnKey[], covered: Set<string>): TurnKey[] =>
  universe.filter((t) => !covered.has(turnId(t.session_ref, t.turn_ref))).map((t) => ({ session_ref: t.session_ref, turn_ref: t.turn_ref }));

/**
 * The next free `W%04d`: one past the highest ASCII `W\d{4}` ref in use (W0001 when none); past
 * W9999, the lowest unused number. Null when all 9999 refs are taken.
 */
export function nextWorkItemRef(items: Record<string, unknown>[]): string | null {
  const used = new Set(items.map((i) => /^W(\d{4})$/.exec(asStr(i.work_item_ref))?.[1]).filter((n): n is string => n !== undefined).map(Number));
  let next = used.size > 0 ? Math.max(...used) + 1 : 1;
  if (next > 9999) next = Array.from({ length: 9999 }, (_, i) => i + 1).find((n) => !used.has(n)) ?? 0;
  return next > 0 ? `W${String(next).padStart(4, "0")}` : null;
}
