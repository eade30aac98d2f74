/** The two Codex rollout line formats and legacy records normalised to envelopes. */
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { isPreTriggerContext, codexFirstText, objectField, stringField } from "@/lib/sources/codex/records";

/**
 * The two Codex rollout line formats (source-formats §1.2): `envelope` (current: every line is
 * `{timestamp, type, payload}`) and `legacy` (≈ May–Sept 2025, CLI < 0.3x: a bare header line
 * `{id, timestamp, instructions, git}`, `{"record_type":"state"}` markers and bare
 * Responses-API items without envelope or timestamps).
 */
export type CodexFormat = "envelope" | "legacy";

const ENVELOPE_KINDS = new Set(["session_meta", "response_item", "event_msg", "turn_context", "compacted"]);

/**
 * True for a legacy session header: a JSON object with a string `id` and a `timestamp`, and
 * neither `type` nor `payload` (source-formats §1.2 detection rule). Only the first JSON-object
 * line of a file is tested.
 */
export function isLegacyHeader(record: JsonObject): boolean {
  return typeof record.id === "string" && record.timestamp !== undefined && record.type === undefined && record.payload === undefined;
}

/**
 * Rewrites one legacy record into the envelope shape so that the envelope rules apply
 * unchanged. A Casefile extension: prompt-diary finds no trigger in legacy files (their items
 * have no `payload`) and never indexes them.
 * - the header becomes `{type:"session_meta", timestamp, payload: header}` (its `id` is the
 *   session id; it has no `cwd` or `originator`);
 * - a bare item with a string `type` that is not an envelope kind becomes
 *   `{type:"response_item", timestamp, payload: item}`;
 * - anything else (`{"record_type":"state"}`) keeps its fields.
 * Legacy lines carry no timestamps: each record without its own `timestamp` inherits
 * `headerTimestamp` (the session start), so every legacy turn is dated at the session start.
 */
export function normalizeLegacyRecord(record: JsonObject, headerTimestamp: unknown, isHeader: boolean): JsonObject {
  const timestamp = record.timestamp ?? headerTimestamp;
  if (isHeader) return { type: "session_meta", timestamp, payload: record };
  if (typeof record.type === "string" && !ENVELOPE_KINDS.has(record.type) && !isJsonObject(record.payload)) {
    return { type: "response_item", timestamp, payload: record };
  }
  return { ...record, timestamp };
}

const CWD_TAG = /<cwd>\s*([^<]*?)\s*<\/cwd>/;

/**
 * The `<cwd>` of a legacy `<environment_context>` user message (normalized record), or null.
 * Legacy headers carry no `cwd`, so this is the legacy project-root fallback (a Casefile
 * extension of contract §1.3).
 */
export function legacyEnvironmentCwd(record: JsonObject): string | null {
  const payload = objectField(record, "payload");
  if (payload === null || stringField(payload, "role") !== "user" || stringField(payload, "type") !== "message") return null;
  const text = codexFirstText(payload);
  if (!text.startsWith("<environment_context>") || !isPreTriggerContext(text)) return null;
  const match = CWD_TAG.exec(text);
  return match?.[1] ? match[1] : null;
}
