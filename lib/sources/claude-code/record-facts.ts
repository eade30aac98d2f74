/** Claude Code lines as the forensics scan reads them (issue 9): events, tool calls and results, API errors, usage. */
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { SCAN_FIELDS } from "@/lib/sources/claude-code/skim-plans";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { baseFacts, num, toolFamily, type RecordFacts, type ToolCallFact, type ToolResultFact } from "@/lib/sources/common/record-facts";
import { CUT_MARK } from "@/lib/sources/common/skim";
import type { LineFactsReader } from "@/lib/sources/common/source-format";

/**
 * The facts of one parsed Claude Code line. `timestampMs`, when given, is the record's timestamp
 * already parsed (lib/sources/common/skim leaves `timestamp` out of the record it builds). Pure;
 * never throws on content.
 */
export function claudeFacts(record: JsonObject, timestampMs?: number | null): RecordFacts {
  const facts = classifyClaude(record);
  if (timestampMs !== undefined) facts.timestampMs = timestampMs;
  return facts;
}

/**
 * A Claude Code file's lines read in order: each skimmed by {@link SCAN_FIELDS} (unless `skim` is
 * false), and parsed whole when the skim cannot settle it or cut an API error's text. Lines hold
 * no state between them, so any range of a file may be read by its own reader.
 */
export function claudeFactsReader(options: { skim?: boolean } = {}): LineFactsReader {
  return {
    plan: () => (options.skim === false ? null : SCAN_FIELDS),
    skimmed(record, timestampMs) {
      const facts = claudeFacts(record, timestampMs);
      // An API error's text was cut: classify the whole record (rare).
      return facts.apiError !== null && facts.apiError.includes(CUT_MARK) ? null : facts;
    },
    parsed: (record) => claudeFacts(record),
  };
}

function classifyClaude(record: JsonObject): RecordFacts {
  const cls = classifyClaudeRecord(record);
  const ts = cls.timestampMs;
  const type = cls.type ?? "record";
  const message = isJsonObject(record.message) ? record.message : null;
  const content = message?.content;
  if (type === "system") {
    const subtype = typeof record.subtype === "string" ? record.subtype : null;
    const facts = baseFacts(ts, subtype ? `system:${subtype}` : "system", "system");
    facts.compaction = subtype === "compact_boundary";
    if (subtype === "api_error") facts.apiError = typeof record.content === "string" ? record.content : "API error";
    return facts;
  }
  if (type === "user") {
    const results: ToolResultFact[] = [];
    if (Array.isArray(content)) {
      for (const part of content) {
        if (isJsonObject(part) && part.type === "tool_result") results.push({ id: typeof part.tool_use_id === "string" ? part.tool_use_id : null, failed: part.is_error === true });
      }
    }
    if (results.length > 0) {
      const facts = baseFacts(ts, "tool_result", "tool");
      facts.toolResults = results;
      return facts;
    }
    if (record.isCompactSummary === true) {
      const facts = baseFacts(ts, "context", "system");
      facts.compaction = true;
      return facts;
    }
    if (record.isMeta === true) return baseFacts(ts, "context", "system");
    const text = claudeUserText(record);
    const facts = baseFacts(ts, "user_message", "user");
    if (text.trimStart().startsWith("[Request interrupted by user")) {
      facts.interrupted = true;
      facts.eventType = "interruption";
      facts.actor = "system";
      return facts;
    }
    // A subagent transcript starts with its parent's prompt (isSidechain): still the "user" side.
    if (cls.isTrigger || record.isSidechain === true) facts.userText = text;
    return facts;
  }
  if (type === "assistant") {
    const calls: ToolCallFact[] = [];
    let hasText = false;
    let hasThinking = false;
    if (Array.isArray(content)) {
      for (const part of content) {
        if (!isJsonObject(part)) continue;
        if (part.type === "tool_use") {
          const name = typeof part.name === "string" ? part.name : "unknown";
          const input = isJsonObject(part.input) ? part.input : null;
          const command = typeof input?.command === "string" ? input.command : null;
          const subagentType = typeof input?.subagent_type === "string" ? input.subagent_type : null;
          calls.push({ id: typeof part.id === "string" ? part.id : null, name, family: toolFamily(name, command), subagentType });
        } else if (part.type === "text" && typeof part.text === "string" && part.text.trim() !== "") hasText = true;
        else if (part.type === "thinking" || part.type === "redacted_thinking") hasThinking = true;
      }
    } else if (typeof content === "string" && content.trim() !== "") hasText = true;
    const apiError = record.isApiErrorMessage === true || typeof record.error === "string";
    const eventType = apiError ? "api_error" : calls.length > 0 ? "tool_call" : hasText ? "assistant_message" : hasThinking ? "reasoning" : "assistant_message";
    const facts = baseFacts(ts, eventType, "assistant");
    facts.toolCalls = calls;
    facts.assistantReply = hasText && !apiError;
    if (apiError) facts.apiError = apiErrorText(record, content);
    const usage = isJsonObject(message?.usage) ? message.usage : null;
    if (usage) {
      facts.usage = {
        messageId: typeof message?.id === "string" ? message.id : null,
        input: num(usage.input_tokens),
        output: num(usage.output_tokens),
        cacheRead: num(usage.cache_read_input_tokens),
        cacheCreation: num(usage.cache_creation_input_tokens),
      };
      facts.contextPoint = { cacheRead: facts.usage.cacheRead, cacheCreation: facts.usage.cacheCreation, input: facts.usage.input };
    }
    return facts;
  }
  return baseFacts(ts, type, "system");
}

function apiErrorText(record: JsonObject, content: unknown): string {
  if (typeof record.error === "string") return record.error;
  if (Array.isArray(content)) {
    for (const part of content) if (isJsonObject(part) && typeof part.text === "string") return part.text.slice(0, 200);
  }
  return "API error";
}
