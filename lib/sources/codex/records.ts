/** Field readers and predicates of Codex records (originators, context, messages). */
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { isSourceContext } from "@/lib/sources/codex/source-context";
import { nonBlankString, pyLstrip } from "@/lib/sources/common/py-compat";

/** `session_meta.payload.originator` of prompt-diary's own report-generation sessions (§1.8 step 2). */
export const CODEX_REPORT_ORIGINATOR = "prompt_diary";
/** Originator of legacy report sessions, excluded only with workspace provenance (§1.8 step 2). */
export const CODEX_LEGACY_SDK_ORIGINATOR = "codex_python_sdk";
/** `session_meta.payload.originator` of Codex sessions driven by Claude Code (excluded as children, §1.8 step 1). */
export const CODEX_CLAUDE_ORIGINATOR = "Claude Code";

/** Source-context prefixes that are reactions: they stay in the previous turn (§1.7). */
const REACTION_PREFIXES = ["<turn_aborted>", "<subagent_notification>"] as const;

/**
 * Python `_string_value`: `obj[key]` when it is a string that is not blank (Python
 * `str.strip()` semantics), else null. Never throws.
 */
export function stringField(obj: JsonObject | null, key: string): string | null {
  return obj === null ? null : nonBlankString(obj[key]);
}

/** `obj[key]` when it is a JSON object, else null. */
export function objectField(obj: JsonObject | null, key: string): JsonObject | null {
  const value = obj?.[key];
  return isJsonObject(value) ? value : null;
}

/**
 * True for "pre-trigger context" (contract §1.7): a source-context prefix other than the two
 * reactions `<turn_aborted>` / `<subagent_notification>`, checked after left-strip.
 */
export function isPreTriggerContext(text: string): boolean {
  const stripped = pyLstrip(text);
  return isSourceContext(text) && !REACTION_PREFIXES.some((prefix) => stripped.startsWith(prefix));
}

/**
 * The "first text" of a `response_item` message payload (contract §1.7): the first
 * `content[]` object item whose `text` is a non-blank string, left-stripped; `""` when there
 * is none (no content, non-list content, or only blank/non-string texts).
 */
export function codexFirstText(payload: JsonObject): string {
  const content = payload.content;
  if (!Array.isArray(content)) return "";
  for (const item of content) {
    const text = isJsonObject(item) ? nonBlankString(item.text) : null;
    if (text !== null) return pyLstrip(text);
  }
  return "";
}

/**
 * Codex human trigger by the record rules alone (contract §1.7); the caller also requires a
 * timestamp and applies the echo merge. An `event_msg` `user_message` whose `message` (a
 * non-blank string, else `""`) is not source context, or a `response_item` `message` of role
 * `user` whose first text is not source context. Everything else is never a trigger.
 */
export function isCodexTrigger(record: JsonObject): boolean {
  const payload = objectField(record, "payload");
  if (payload === null) return false;
  const type = stringField(record, "type");
  if (type === "event_msg" && stringField(payload, "type") === "user_message") {
    return !isSourceContext(stringField(payload, "message") ?? "");
  }
  if (type === "response_item" && stringField(payload, "role") === "user" && stringField(payload, "type") === "message") {
    return !isSourceContext(codexFirstText(payload));
  }
  return false;
}

/**
 * Pre-trigger scaffolding (contract §1.7 turn extent): `turn_context`; `event_msg`
 * `task_started` / `turn_started`; an `event_msg` `user_message` or a `response_item` user
 * `message` whose text is pre-trigger context; any `response_item` of role `developer`.
 * `task_complete` and the reactions are not scaffolding.
 */
export function isCodexScaffolding(record: JsonObject): boolean {
  const type = stringField(record, "type");
  if (type === "turn_context") return true;
  const payload = objectField(record, "payload");
  if (payload === null) return false;
  const payloadType = stringField(payload, "type");
  if (type === "event_msg") {
    if (payloadType === "task_started" || payloadType === "turn_started") return true;
    return payloadType === "user_message" && isPreTriggerContext(stringField(payload, "message") ?? "");
  }
  if (type !== "response_item") return false;
  const role = stringField(payload, "role");
  if (role === "developer") return true;
  return role === "user" && payloadType === "message" && isPreTriggerContext(codexFirstText(payload));
}

/**
 * A Codex record's timestamp, epoch ms (contract §1.7): the top-level `timestamp` (ISO 8601
 * with a zone); for `session_meta`, `payload.timestamp` when the top-level one is missing or
 * invalid. Null when neither is a valid aware timestamp.
 */
export function codexRecordTimestamp(record: JsonObject): number | null {
  const own = parseAwareTimestamp(stringField(record, "timestamp"));
  if (own !== null || stringField(record, "type") !== "session_meta") return own;
  return parseAwareTimestamp(stringField(objectField(record, "payload"), "timestamp"));
}

/**
 * Why a `session_meta` payload marks a child (subagent) session, or null (contract §1.8 step
 * 1): `thread_source == "subagent"`, `originator == "Claude Code"`, or `source.subagent` a
 * string or an object (`source` null, a string, `{other}` or `{subagent: null}` are roots).
 */
export function codexSubagentReason(payload: JsonObject): string | null {
  if (stringField(payload, "thread_source") === "subagent") return 'Codex subagent session (session_meta thread_source "subagent")';
  if (stringField(payload, "originator") === CODEX_CLAUDE_ORIGINATOR) return 'Codex session driven by Claude Code (session_meta originator "Claude Code")';
  const subagent = objectField(payload, "source")?.subagent;
  if (typeof subagent === "string" || isJsonObject(subagent)) return "Codex subagent session (session_meta source.subagent)";
  return null;
}

/**
 * Text of a Codex user message for display (first user message): an `event_msg`
 * `user_message`'s string `message`, or every string `text` of a `response_item` message's
 * content joined by `\n`. Empty when there is none.
 */
export function codexMessageText(record: JsonObject): string {
  const payload = objectField(record, "payload");
  if (payload === null) return "";
  if (stringField(record, "type") === "event_msg") return typeof payload.message === "string" ? payload.message : "";
  if (!Array.isArray(payload.content)) return "";
  return payload.content
    .map((item: unknown) => (isJsonObject(item) && typeof item.text === "string" ? item.text : null))
    .filter((text): text is string => text !== null)
    .join("\n");
}

/** What the analysis asks of every record (lib/sources/codex/analyze-core), computed together: see {@link codexRecordFacts}. */
export type CodexRecordFacts = { readonly kind: string; readonly trigger: boolean; readonly scaffolding: boolean };

/**
 * The record's audit kind ({@link codexRecordKind}), and whether it is a trigger by the record
 * rules ({@link isCodexTrigger}) and pre-trigger scaffolding ({@link isCodexScaffolding}): for a
 * record many lines share (lib/sources/codex/range-records), computed once for all of them.
 */
export function codexRecordFacts(record: JsonObject): CodexRecordFacts {
  return { kind: codexRecordKind(record), trigger: isCodexTrigger(record), scaffolding: isCodexScaffolding(record) };
}

/**
 * A compact kind for audit counters: `event_msg:<payload.type>` / `response_item:<payload.type>`,
 * else the top-level `type`, else `"(none)"`.
 */
export function codexRecordKind(record: JsonObject): string {
  const type = typeof record.type === "string" ? record.type : null;
  if (type === null) return "(none)";
  const payloadType = objectField(record, "payload")?.type;
  if ((type !== "event_msg" && type !== "response_item") || typeof payloadType !== "string") return type;
  // The same few kinds on every line: one string each, not a new key built and hashed per line;
  // at most KINDS_KEPT remembered per envelope type.
  const kinds = type === "event_msg" ? EVENT_KINDS : ITEM_KINDS;
  const known = kinds.get(payloadType);
  if (known !== undefined) return known;
  const kind = `${type}:${payloadType}`;
  if (kinds.size < KINDS_KEPT) kinds.set(payloadType, kind);
  return kind;
}

const KINDS_KEPT = 256;
const EVENT_KINDS = new Map<string, string>();
const ITEM_KINDS = new Map<string, string>();
