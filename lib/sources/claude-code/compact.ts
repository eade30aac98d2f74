/** Claude Code records compacted for `read_session_lines` (contract §4.4). */
import { asSourceContext, buildToolResult, buildToolUse, contentItemsText, emptyBody, genericBody, messageSummary, toolInputText, type CompactBody, type ToolResultMeta } from "@/lib/sources/common/compact-fields";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import type { CompactToolResult, CompactToolUse } from "@/lib/sources/common/compact-record";

/** Content kinds in the order prompt-diary reports them when first seen. */
type ContentKind = "text" | "tool_use" | "tool_result" | "thinking";

type Parts = {
  kinds: ContentKind[];
  texts: string[];
  toolUses: CompactToolUse[];
  toolResults: CompactToolResult[];
  truncated: boolean;
};

/**
 * Compacts one parsed Claude Code record (contract §4.4 classic):
 * - `user` / `assistant`: message record (text kept whole, thinking omitted, tool data bounded);
 *   `isMeta` / `isCompactSummary` user records get the bounded source-context treatment;
 * - `system`: `record_type` `"system:<subtype>"` (or `"system"`), summary `"<record_type> record."`;
 * - anything else (`attachment`, `progress`, `file-history-snapshot`, ...): generic record.
 */
export function compactClaudeRecord(record: JsonObject): CompactBody {
  const type = nonBlankString(record.type);
  if (type === "user" || type === "assistant") return claudeMessage(type, record);
  if (type === "system") {
    const subtype = nonBlankString(record.subtype);
    const recordType = subtype === null ? "system" : `system:${subtype}`;
    return emptyBody(recordType, `${recordType} record.`);
  }
  return genericBody(record);
}

function claudeMessage(recordType: string, record: JsonObject): CompactBody {
  const message = asObject(record.message);
  const role = message === null ? null : nonBlankString(message.role);
  const parts = contentParts(message?.content, resultMeta(asObject(record.toolUseResult)));
  const text = parts.texts.length > 0 ? parts.texts.join("\n") : null;
  const body: CompactBody = {
    record_type: recordType,
    role,
    content_kinds: [...parts.kinds],
    summary: summaryOf(role, parts, text),
    text_preview: text,
    tool_uses: parts.toolUses,
    tool_results: parts.toolResults,
    truncated: parts.truncated,
  };
  const injected = record.isMeta === true || record.isCompactSummary === true;
  return role === "user" && injected ? asSourceContext(body) : body;
}

function summaryOf(role: string | null, parts: Parts, text: string | null): string {
  if (parts.toolResults.length > 0 && text === null) return "Tool result.";
  if (parts.kinds.length === 1 && parts.kinds[0] === "thinking") return "Assistant reasoning omitted.";
  return messageSummary(role);
}

function contentParts(content: unknown, meta: ToolResultMeta): Parts {
  const parts: Parts = { kinds: [], texts: [], toolUses: [], toolResults: [], truncated: false };
  if (typeof content === "string") {
    addKind(parts, "text");
    parts.texts.push(content);
    return parts;
  }
  if (!Array.isArray(content)) return parts;
  for (const item of content) {
    const part = asObject(item);
    if (part !== null) addPart(parts, part, meta);
  }
  return parts;
}

function addPart(parts: Parts, part: JsonObject, meta: ToolResultMeta): void {
  switch (nonBlankString(part.type)) {
    case "text":
      // Blank text parts are kept: they preserve paragraph boundaries ("First\n\n \nLast").
      if (typeof part.text === "string") {
        addKind(parts, "text");
        parts.texts.push(part.text);
      }
      return;
    case "tool_use": {
      addKind(parts, "tool_use");
      const use = buildToolUse(nonBlankString(part.name) ?? "unknown", toolInputText(part.input));
      parts.toolUses.push(use);
      parts.truncated ||= use.truncated;
      return;
    }
    case "tool_result": {
      addKind(parts, "tool_result");
      const status = part.is_error === true ? "failed" : meta.status;
      const result = buildToolResult(resultPayload(part.content), { ...meta, status });
      parts.toolResults.push(result);
      parts.truncated ||= result.truncated;
      return;
    }
    case "thinking":
    case "redacted_thinking":
      // Seed 000: reasoning is omitted entirely, never shown, and always marks the record trimmed.
      addKind(parts, "thinking");
      parts.truncated = true;
      return;
    default:
      return;
  }
}

function addKind(parts: Parts, kind: ContentKind): void {
  if (!parts.kinds.includes(kind)) parts.kinds.push(kind);
}

/** Tool-result payload: string content as-is, or the non-blank `text` of its items. */
function resultPayload(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? contentItemsText(content, false) : "";
}

/**
 * Metadata from the record-level `toolUseResult` (contract §4.4): `kind` `"file"` when
 * `filePath` / `file.filePath` is present, else `"command"` when `command` is, else
 * `"tool_result"`; `status` from `toolUseResult.status`.
 */
function resultMeta(toolUseResult: JsonObject | null): ToolResultMeta {
  if (toolUseResult === null) return { kind: "tool_result", status: null, file_path: null, command: null };
  const filePath =
    nonBlankString(toolUseResult.filePath) ?? nonBlankString(asObject(toolUseResult.file)?.filePath);
  const command = nonBlankString(toolUseResult.command);
  const kind = filePath !== null ? "file" : command !== null ? "command" : "tool_result";
  return { kind, status: nonBlankString(toolUseResult.status), file_path: filePath, command };
}
