/** Codex records compacted for `read_session_lines` (contract §4.4). */
import { asSourceContext, buildToolResult, buildToolUse, contentItemsText, emptyBody, genericBody, messageSummary, toolInputText, type CompactBody } from "@/lib/sources/common/compact-fields";
import { isSourceContext } from "@/lib/sources/codex/source-context";
import { pyDumps } from "@/lib/json/python-json";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";

/**
 * Compacts one parsed Codex rollout record (contract §4.4 classic):
 * - `event_msg` → `record_type` `"event_msg:<payload.type>"`; `user_message` / `agent_message`
 *   are messages, the rest `"<record_type> record."`;
 * - `response_item` → `"response_item:<payload.type>"`: `message`, `function_call` /
 *   `custom_tool_call`, `*_output`, `reasoning`; the rest `"<record_type> record."`;
 * - anything else (`session_meta`, `turn_context`, legacy bare items) → generic record.
 */
export function compactCodexRecord(record: JsonObject): CompactBody {
  const type = nonBlankString(record.type);
  const payload = asObject(record.payload);
  if (type === "event_msg" && payload !== null) return eventMessage(payload);
  if (type === "response_item" && payload !== null) return responseItem(payload);
  return genericBody(record);
}

function eventMessage(payload: JsonObject): CompactBody {
  const payloadType = nonBlankString(payload.type) ?? "event";
  const recordType = `event_msg:${payloadType}`;
  if (payloadType === "user_message") return textMessage(recordType, "user", "User message.", payload.message);
  if (payloadType === "agent_message") return textMessage(recordType, "assistant", "Agent message.", payload.message);
  return emptyBody(recordType, `${recordType} record.`);
}

function textMessage(recordType: string, role: string, summary: string, message: unknown): CompactBody {
  const text = nonBlankString(message);
  const body: CompactBody = {
    ...emptyBody(recordType, summary, role),
    content_kinds: text === null ? [] : ["text"],
    text_preview: text,
  };
  return role === "user" && text !== null && isSourceContext(text) ? asSourceContext(body) : body;
}

function responseItem(payload: JsonObject): CompactBody {
  const payloadType = nonBlankString(payload.type) ?? "item";
  const recordType = `response_item:${payloadType}`;
  switch (payloadType) {
    case "message":
      return responseMessage(recordType, payload);
    case "function_call":
      return toolCall(recordType, payload.name, payload.arguments);
    case "custom_tool_call":
      return toolCall(recordType, payload.name, payload.input);
    case "function_call_output":
    case "custom_tool_call_output":
      return toolOutput(recordType, payload.output);
    case "reasoning":
      // Seed 000: reasoning is omitted entirely and marks the record trimmed.
      return { ...emptyBody(recordType, "Assistant reasoning omitted."), content_kinds: ["thinking"], truncated: true };
    default:
      return emptyBody(recordType, `${recordType} record.`);
  }
}

function responseMessage(recordType: string, payload: JsonObject): CompactBody {
  const role = nonBlankString(payload.role);
  const text = messageText(payload.content);
  const body: CompactBody = {
    ...emptyBody(recordType, messageSummary(role), role),
    content_kinds: text === null ? [] : ["text"],
    text_preview: text,
  };
  const injected =
    role === "developer" || role === "system" || (role === "user" && text !== null && isSourceContext(text));
  return injected ? asSourceContext(body) : body;
}

/** Every string `text` of the content items, blank ones included, joined by `"\n"`. */
function messageText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const item of content) {
    const text = asObject(item)?.text;
    if (typeof text === "string") texts.push(text);
  }
  return texts.length > 0 ? texts.join("\n") : null;
}

function toolCall(recordType: string, nameValue: unknown, input: unknown): CompactBody {
  const name = nonBlankString(nameValue) ?? "unknown";
  // A blank argument string reads as no input, like prompt-diary's `_string(...) or ""`.
  const inputText = typeof input === "string" && nonBlankString(input) === null ? "" : toolInputText(input);
  const use = buildToolUse(name, inputText);
  return {
    ...emptyBody(recordType, `Tool call: ${name}.`),
    content_kinds: ["tool_use"],
    tool_uses: [use],
    truncated: use.truncated,
  };
}

function toolOutput(recordType: string, output: unknown): CompactBody {
  const result = buildToolResult(outputText(output), { kind: "output", status: null, file_path: null, command: null });
  return {
    ...emptyBody(recordType, "Tool result."),
    content_kinds: ["tool_result"],
    tool_results: [result],
    truncated: result.truncated,
  };
}

/**
 * Tool output payload: a string as-is; a list of content items as their texts joined by `"\n"`
 * (non-text items as `[<type> content unavailable]`, contract §4.3); `null` as `""`; any other
 * value as its JSON text so structured outputs stay visible.
 */
function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return contentItemsText(output, true);
  if (output === null || output === undefined) return "";
  return pyDumps(output, { ensureAscii: false, sortKeys: true });
}
