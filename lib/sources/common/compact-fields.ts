/** The source-derived fields of a compact record, shared by the Claude Code and Codex compactors. */
import { pyDumps } from "@/lib/json/python-json";
import { nonBlankString, pyLstrip } from "@/lib/sources/common/py-compat";
import { type JsonObject } from "@/lib/sources/common/json-object";
import type { CompactRecord, CompactToolResult, CompactToolUse } from "./compact-record";
import { boundedInputSummary, boundedText, trimToolResultPreview, utf8ByteLength } from "./trim";

/** The source-derived part of a compact record: everything but line provenance and echoes. */
export type CompactBody = Omit<CompactRecord, "line" | "raw_bytes" | "raw_sha256" | "duplicate_of">;

/** A body with no content: `content_kinds`, `tool_uses`, `tool_results` empty, no text. */
export function emptyBody(recordType: string, summary: string, role: string | null = null): CompactBody {
  return {
    record_type: recordType,
    role,
    content_kinds: [],
    summary,
    text_preview: null,
    tool_uses: [],
    tool_results: [],
    truncated: false,
  };
}

/**
 * Contract §4.4 "Anything else": `record_type` = the top-level `role`, else `type`, else
 * `"unknown"`; summary `"<record_type> record."`. `null` (malformed / non-object line) gives
 * `"Malformed JSONL line."`. Content is never extracted (seed 000: attachments stay generic).
 */
export function genericBody(record: JsonObject | null): CompactBody {
  if (record === null) return emptyBody("unknown", "Malformed JSONL line.");
  const role = nonBlankString(record.role);
  const recordType = role ?? nonBlankString(record.type) ?? "unknown";
  return emptyBody(recordType, `${recordType} record.`, role);
}

/** `"User message."`, `"Assistant message."` or `"Message."` by role (contract §4.4). */
export function messageSummary(role: string | null): string {
  if (role === "user") return "User message.";
  if (role === "assistant") return "Assistant message.";
  return "Message.";
}

/**
 * Source-generated context treatment (contract §4.4): summary `"Source-generated context."`,
 * or `"Subagent notification."` / `"Turn interruption notification."` when the text starts with
 * `<subagent_notification>` / `<turn_aborted>`; `text_preview` bounded by {@link boundedText}.
 * `truncated` is set only when the preview was actually trimmed (seed 000: "whether any data on
 * this record was trimmed"), as in prompt-diary.
 */
export function asSourceContext(body: CompactBody): CompactBody {
  if (body.text_preview === null) return { ...body, summary: "Source-generated context." };
  const stripped = pyLstrip(body.text_preview);
  let summary = "Source-generated context.";
  if (stripped.startsWith("<subagent_notification>")) summary = "Subagent notification.";
  else if (stripped.startsWith("<turn_aborted>")) summary = "Turn interruption notification.";
  const bounded = boundedText(body.text_preview);
  return { ...body, summary, text_preview: bounded.text, truncated: body.truncated || bounded.truncated };
}

/**
 * Input text of a tool call: a string as-is, `null`/absent as `""`, anything else as Python
 * `json.dumps(..., ensure_ascii=False, sort_keys=True)` (prompt-diary `_json_summary`).
 */
export function toolInputText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  return pyDumps(value, { ensureAscii: false, sortKeys: true });
}

/** One tool use with a bounded `input_summary` ({@link boundedInputSummary}). */
export function buildToolUse(name: string, inputText: string): CompactToolUse {
  const { summary, truncated } = boundedInputSummary(inputText);
  return { name, input_summary: summary, truncated };
}

/** Observable metadata of a tool result; `kind` is `file`, `command`, `tool_result` or `output`. */
export type ToolResultMeta = {
  kind: string;
  status: string | null;
  file_path: string | null;
  command: string | null;
};

/**
 * One tool result: `raw_bytes` = UTF-8 bytes of the untrimmed payload, `preview` trimmed by
 * {@link trimToolResultPreview} (over 1 KiB → head 320 + marker + tail 160).
 */
export function buildToolResult(payload: string, meta: ToolResultMeta): CompactToolResult {
  const bytes = utf8ByteLength(payload);
  const { preview, truncated } = trimToolResultPreview(payload, bytes);
  return { ...meta, preview, raw_bytes: bytes, truncated };
}

/**
 * Text of a list of content items: each object item's `text`, joined by `"\n"`. Blank texts are
 * skipped (prompt-diary `_content_item_texts`); other item types are noted as
 * `[<type> content unavailable]` when `markUnavailable` is set (Codex list outputs, §4.3).
 */
export function contentItemsText(items: unknown[], markUnavailable: boolean): string {
  const texts: string[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) continue;
    const part = item as JsonObject;
    const text = nonBlankString(part.text);
    if (text !== null) texts.push(text);
    else if (markUnavailable && typeof part.type === "string" && part.text === undefined) {
      texts.push(`[${part.type} content unavailable]`);
    }
  }
  return texts.join("\n");
}
