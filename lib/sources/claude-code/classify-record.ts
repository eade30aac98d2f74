/** Claude Code records classified as human triggers or excluded, with the reason (contract §1.7). */
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";

/** Why a record is not a Claude Code human trigger; checked in this order (contract §1.7). */
export type ClaudeTriggerExclusion =
  | "not_object" // the line is not a JSON object
  | "not_user" // top-level `type` is not "user"
  | "not_user_role" // `message` is not an object with `role: "user"`
  | "tool_source" // `sourceToolAssistantUUID` is a non-blank string (a tool result, ≥ 2.1)
  | "sidechain" // `isSidechain: true`
  | "meta" // `isMeta: true` (slash-command expansions, caveats, hook context)
  | "compact_summary" // `isCompactSummary: true`
  | "tool_result_only"; // `message.content` is a non-empty list of only tool_result parts

/** The classification of one parsed JSONL value. */
export type ClaudeRecordClass = {
  /** True when the value is a JSON object (anything else is a malformed line). */
  isObject: boolean;
  /** Top-level `type` when it is a string, else null. */
  type: string | null;
  /** Top-level `timestamp` as epoch ms when it is ISO 8601 with a timezone, else null. */
  timestampMs: number | null;
  /** `isSidechain === true` on this record. */
  isSidechain: boolean;
  /** Human trigger by the record rules alone; a trigger without a timestamp starts no turn. */
  isTrigger: boolean;
  /** The first failed trigger rule, or null for a trigger. */
  exclusion: ClaudeTriggerExclusion | null;
};

/**
 * Classifies one parsed Claude Code JSONL value (the result of `JSON.parse` on a line).
 *
 * A human trigger needs all of (contract §1.7): `type == "user"` and `message.role == "user"`;
 * `sourceToolAssistantUUID` absent or not a non-blank string; `isSidechain`, `isMeta` and
 * `isCompactSummary` not `true`; and `message.content` not a non-empty list made only of
 * `{type:"tool_result"}` parts (plain string content and mixed lists are triggers). There is no
 * content-prefix filtering. Unknown record types are simply non-triggers. `timestampMs`, when
 * given, is the record's timestamp already parsed (the skim leaves `timestamp` out of the record).
 * Pure; never throws.
 */
export function classifyClaudeRecord(value: unknown, timestampMs?: number | null): ClaudeRecordClass {
  if (!isJsonObject(value)) {
    return { isObject: false, type: null, timestampMs: null, isSidechain: false, isTrigger: false, exclusion: "not_object" };
  }
  const exclusion = triggerExclusion(value);
  return {
    isObject: true,
    type: typeof value.type === "string" ? value.type : null,
    timestampMs: timestampMs === undefined ? parseAwareTimestamp(value.timestamp) : timestampMs,
    isSidechain: value.isSidechain === true,
    isTrigger: exclusion === null,
    exclusion,
  };
}

function triggerExclusion(record: JsonObject): ClaudeTriggerExclusion | null {
  if (record.type !== "user") return "not_user";
  const message = record.message;
  if (!isJsonObject(message) || message.role !== "user") return "not_user_role";
  if (isNonBlankString(record.sourceToolAssistantUUID)) return "tool_source";
  if (record.isSidechain === true) return "sidechain";
  if (record.isMeta === true) return "meta";
  if (record.isCompactSummary === true) return "compact_summary";
  if (isToolResultOnly(message.content)) return "tool_result_only";
  return null;
}

function isToolResultOnly(content: unknown): boolean {
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((part: unknown) => isJsonObject(part) && part.type === "tool_result")
  );
}

/**
 * The human-readable text of a user message: string content as is, or the `text` of every
 * `{type:"text"}` part joined with `\n`. Other parts (images, tool results) contribute nothing.
 */
export function claudeUserText(record: unknown): string {
  if (!isJsonObject(record) || !isJsonObject(record.message)) return "";
  const content = record.message.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part: unknown): part is JsonObject => isJsonObject(part) && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("\n");
}

function isNonBlankString(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}
