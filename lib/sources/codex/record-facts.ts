/** Codex rollout lines as the forensics scan reads them (issue 9): events, tool calls and outputs, errors, token counts. */
import { isLegacyHeader, normalizeLegacyRecord } from "@/lib/sources/codex/legacy";
import { codexMessageText, codexRecordTimestamp, isCodexTrigger, objectField, stringField } from "@/lib/sources/codex/records";
import { CODEX_SCAN_FIELDS, codexScanSuffices } from "@/lib/sources/codex/skim-plan";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { baseFacts, num, toolFamily, type RecordFacts } from "@/lib/sources/common/record-facts";
import type { LineFactsReader } from "@/lib/sources/common/source-format";

/**
 * The facts of one parsed Codex line. `legacy` carries the legacy header's timestamp when the
 * file is in the legacy format (source-formats §1.2), so bare items are normalized first;
 * `timestampMs`, when given, is the record's timestamp already parsed (by the skim). Pure; never
 * throws on content.
 */
export function codexFacts(record: JsonObject, legacy: { headerTimestamp: unknown } | null = null, timestampMs?: number | null): RecordFacts {
  const normalized = isJsonObject(record.payload) ? record : normalizeLegacyRecord(record, legacy?.headerTimestamp ?? record.timestamp, isLegacyHeader(record));
  const facts = classifyCodex(normalized);
  if (timestampMs !== undefined) facts.timestampMs = timestampMs;
  return facts;
}

/**
 * A Codex file's lines read in order from its first: once the first object said the file is not
 * in the legacy format (whose bare items are rewritten from the whole record), lines are skimmed
 * by {@link CODEX_SCAN_FIELDS} (unless `skim` is false) and parsed whole only when the classifier
 * reads more ({@link codexScanSuffices}).
 */
export function codexFactsReader(options: { skim?: boolean } = {}): LineFactsReader {
  let firstObject = true;
  let legacy: { headerTimestamp: unknown } | null = null;
  return {
    plan: () => (options.skim !== false && !firstObject && legacy === null ? CODEX_SCAN_FIELDS : null),
    skimmed: (record, timestampMs) => (codexScanSuffices(record) ? codexFacts(record, null, timestampMs) : null),
    parsed(record) {
      if (firstObject && isLegacyHeader(record)) legacy = { headerTimestamp: record.timestamp };
      firstObject = false;
      return codexFacts(record, legacy);
    },
  };
}

function classifyCodex(record: JsonObject): RecordFacts {
  const ts = codexRecordTimestamp(record);
  const type = stringField(record, "type") ?? "record";
  const payload = objectField(record, "payload");
  const payloadType = stringField(payload, "type");
  if (type === "compacted") {
    const facts = baseFacts(ts, "compacted", "system");
    facts.compaction = true;
    return facts;
  }
  if (type === "event_msg") {
    const facts = baseFacts(ts, `event:${payloadType ?? "unknown"}`, "system");
    if (payloadType === "user_message") {
      if (isCodexTrigger(record)) {
        facts.userText = codexMessageText(record);
        facts.userFromEvent = true;
      }
    } else if (payloadType === "error" || payloadType === "stream_error") facts.apiError = stringField(payload, "message") ?? "API error";
    else if (payloadType === "turn_aborted") facts.interrupted = true;
    else if (payloadType === "context_compacted") facts.compaction = true;
    else if (payloadType === "agent_message") {
      facts.actor = "assistant";
      facts.assistantReply = (stringField(payload, "message") ?? "").trim() !== "";
    }
    else if (payloadType === "token_count") {
      const total = objectField(objectField(payload, "info"), "total_token_usage");
      if (total) facts.codexTotals = { input: num(total.input_tokens), output: num(total.output_tokens), cacheRead: num(total.cached_input_tokens) };
      const last = objectField(objectField(payload, "info"), "last_token_usage");
      if (last) {
        const cached = num(last.cached_input_tokens);
        // Codex's input count includes cached input (same reading as lib/analysis/scan-codex).
        facts.contextPoint = { cacheRead: cached, cacheCreation: null, input: Math.max(0, num(last.input_tokens) - cached) };
      }
    }
    return facts;
  }
  if (type !== "response_item" || payload === null) return baseFacts(ts, type, "system");
  const role = stringField(payload, "role");
  switch (payloadType) {
    case "message": {
      if (role === "assistant") {
        const facts = baseFacts(ts, "assistant_message", "assistant");
        facts.assistantReply = codexMessageText(record).trim() !== "";
        return facts;
      }
      if (role === "user" && isCodexTrigger(record)) {
        const facts = baseFacts(ts, "user_message", "user");
        facts.userText = codexMessageText(record);
        return facts;
      }
      const facts = baseFacts(ts, "context", "system");
      facts.interrupted = role === "user" && codexMessageText(record).trimStart().startsWith("<turn_aborted>");
      return facts;
    }
    case "reasoning":
      return baseFacts(ts, "reasoning", "assistant");
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call":
    case "web_search_call": {
      const name = stringField(payload, "name") ?? payloadType;
      const facts = baseFacts(ts, "tool_call", "assistant");
      facts.toolCalls = [{ id: stringField(payload, "call_id") ?? stringField(payload, "id"), name, family: toolFamily(name, codexCommand(payload)), subagentType: null }];
      return facts;
    }
    case "function_call_output":
    case "custom_tool_call_output": {
      const facts = baseFacts(ts, "tool_result", "tool");
      facts.toolResults = [{ id: stringField(payload, "call_id"), failed: codexOutputFailed(payload.output) }];
      return facts;
    }
    default:
      return baseFacts(ts, payloadType ? `response:${payloadType}` : "response_item", role === "assistant" ? "assistant" : "system");
  }
}

/** The shell command of a Codex tool call (`arguments.cmd`, or the last word of `arguments.command`). */
function codexCommand(payload: JsonObject): string | null {
  const raw = payload.arguments ?? payload.input ?? payload.action;
  let args: unknown = raw;
  if (typeof raw === "string") {
    try {
      args = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!isJsonObject(args)) return null;
  if (typeof args.cmd === "string") return args.cmd;
  if (typeof args.command === "string") return args.command;
  if (Array.isArray(args.command)) {
    const last = args.command[args.command.length - 1];
    return typeof last === "string" ? last : null;
  }
  return null;
}

const EXIT_CODE = /(?:Process exited with code|Exit code:?)\s*(-?\d+)/;

/** A Codex tool output failed: `success: false`, `metadata.exit_code ≠ 0`, or a printed non-zero exit code. */
function codexOutputFailed(output: unknown): boolean {
  if (isJsonObject(output)) {
    if (output.success === false) return true;
    return typeof output.content === "string" ? codexOutputFailed(output.content) : false;
  }
  if (typeof output !== "string") return false;
  if (output.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(output);
      if (isJsonObject(parsed) && isJsonObject(parsed.metadata) && typeof parsed.metadata.exit_code === "number") return parsed.metadata.exit_code !== 0;
    } catch {
      /* plain text */
    }
  }
  const match = EXIT_CODE.exec(output.slice(0, 400));
  return match ? Number(match[1]) !== 0 : false;
}
