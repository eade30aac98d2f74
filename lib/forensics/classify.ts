/** Transcript lines classified into timeline events, tool calls, results and usage facts for the forensics scan. */
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { isLegacyHeader, normalizeLegacyRecord } from "@/lib/sources/codex/legacy";
import { codexMessageText, codexRecordTimestamp, isCodexTrigger, objectField, stringField } from "@/lib/sources/codex/records";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";

// Scans are stored on disk (lib/forensics/scan-store): a change to what a record classifies as
// (here or in the source classifiers this calls) must bump SCAN_STORE_VERSION there.

/** Who produced a timeline event. */
export type Actor = "user" | "assistant" | "tool" | "system";

/** What the agent did with a tool, by family (issue 9's `about`: read, edit, run, search, web, delegate). */
export const TOOL_FAMILIES = ["read", "edit", "run", "search", "web", "delegate", "other"] as const;
export type ToolFamily = (typeof TOOL_FAMILIES)[number];

/** One tool call found in a record; `id` links it to its result (Claude `tool_use.id`, Codex `call_id`). */
export type ToolCallFact = { id: string | null; name: string; family: ToolFamily; subagentType: string | null };

/** One tool result found in a record; `failed` when the source marks it an error or a non-zero exit. */
export type ToolResultFact = { id: string | null; failed: boolean };

/** Token counts of one model response (tokens); `messageId` dedupes Claude's per-block records. */
export type UsageFact = { messageId: string | null; input: number; output: number; cacheRead: number; cacheCreation: number };

/**
 * What one transcript record says, as far as the forensics tools care. Produced by
 * {@link classifyRecord}; never holds message or tool text beyond `userText`.
 */
export type RecordFacts = {
  timestampMs: number | null;
  /** `user_message`, `assistant_message`, `tool_call`, `tool_result`, `reasoning`, `context`, `api_error`, `system:<subtype>`, `event:<type>`, the record's own type, or `malformed`. */
  eventType: string;
  actor: Actor;
  /** Text of a human message (a trigger by contract §1.7), else null. */
  userText: string | null;
  /** Codex only: the trigger came from an `event_msg` (the response item repeats it). */
  userFromEvent: boolean;
  /** An assistant text reply. */
  assistantReply: boolean;
  toolCalls: ToolCallFact[];
  toolResults: ToolResultFact[];
  apiError: string | null;
  interrupted: boolean;
  compaction: boolean;
  usage: UsageFact | null;
  /** Codex cumulative totals (`token_count` `total_token_usage`); the last one wins. */
  codexTotals: { input: number; output: number; cacheRead: number } | null;
  /** This response's context size, for seed 003's reset detector (lib/analysis): Claude `usage`, Codex `last_token_usage`. */
  contextPoint: { cacheRead: number; cacheCreation: number | null; input: number } | null;
};

// Names of the agents read through the source contract's tools (issue 38: `read_file`,
// `run_shell_command`, `replace`, `grep_search`, `create`, `list` …) are here beside Claude Code's and Codex's.
const FAMILY_BY_NAME: Record<string, ToolFamily> = {
  read: "read",
  read_many_files: "read",
  view: "read",
  notebookread: "read",
  read_file: "read",
  edit: "edit",
  write: "edit",
  multiedit: "edit",
  notebookedit: "edit",
  apply_patch: "edit",
  str_replace_editor: "edit",
  write_file: "edit",
  replace: "edit",
  str_replace: "edit",
  create: "edit",
  bash: "run",
  bashoutput: "run",
  killshell: "run",
  shell: "run",
  shell_command: "run",
  exec_command: "run",
  local_shell: "run",
  local_shell_call: "run",
  write_stdin: "run",
  run_shell_command: "run",
  run_command: "run",
  grep: "search",
  glob: "search",
  ls: "search",
  list_dir: "search",
  search: "search",
  grep_search: "search",
  search_file_content: "search",
  list_directory: "search",
  list: "search",
  webfetch: "web",
  websearch: "web",
  web_search: "web",
  web_search_call: "web",
  web_fetch: "web",
  google_web_search: "web",
  task: "delegate",
  agent: "delegate",
  spawn_agent: "delegate",
};

const READ_COMMANDS = new Set(["cat", "sed", "head", "tail", "nl", "less", "more", "bat", "wc"]);
const SEARCH_COMMANDS = new Set(["rg", "grep", "find", "ls", "fd", "tree", "git grep"]);

/**
 * The family of a tool by name (case-insensitive); shell tools are refined by the first word of
 * their command (`cat`/`sed`/`head`… read, `rg`/`grep`/`find`/`ls`… search), so Codex's single
 * shell tool still tells reading from running. Unknown tools (MCP tools, todo lists) are `other`.
 */
export function toolFamily(name: string, command: string | null = null): ToolFamily {
  let family = familyByName.get(name);
  if (family === undefined) {
    family = FAMILY_BY_NAME[name.toLowerCase()] ?? "other";
    if (familyByName.size < 4096) familyByName.set(name, family);
  }
  if (family !== "run" || command === null) return family;
  // The first whitespace-separated word of the trimmed command (as `trim().split(/\s+/)[0]`,
  // without splitting a long command), less any directory.
  const first = /^\S*/.exec(command.trimStart())![0].replace(/^.*\//, "");
  if (READ_COMMANDS.has(first)) return "read";
  if (SEARCH_COMMANDS.has(first)) return "search";
  return "run";
}

/** {@link toolFamily}'s family of each tool name seen (a transcript names a handful of tools). */
const familyByName = new Map<string, ToolFamily>();

// Shared by every record without calls or results (most lines): the facts' lists are replaced,
// never pushed to, so two frozen empties spare two allocations per line.
const NO_CALLS = Object.freeze([]) as unknown as ToolCallFact[];
const NO_RESULTS = Object.freeze([]) as unknown as ToolResultFact[];

function baseFacts(timestampMs: number | null, eventType: string, actor: Actor): RecordFacts {
  return {
    timestampMs,
    eventType,
    actor,
    userText: null,
    userFromEvent: false,
    assistantReply: false,
    toolCalls: NO_CALLS,
    toolResults: NO_RESULTS,
    apiError: null,
    interrupted: false,
    compaction: false,
    usage: null,
    codexTotals: null,
    contextPoint: null,
  };
}

/** Facts of a line that is not a JSON object. */
export const MALFORMED_FACTS: RecordFacts = Object.freeze(baseFacts(null, "malformed", "system")) as RecordFacts;

/**
 * Classifies one parsed record of a transcript. `source` is the index row's source
 * (`claude-code` or `codex`; anything else gets generic facts). For Codex, `legacy` carries the
 * legacy header timestamp when the file is in the legacy format (source-formats §1.2), so bare
 * items are normalized first. `timestampMs`, when given, is the record's timestamp already
 * parsed (lib/sources/common/skim leaves `timestamp` out of the record it builds). Pure; never throws
 * on content.
 */
export function classifyRecord(record: JsonObject, source: string, legacy: { headerTimestamp: unknown } | null = null, timestampMs?: number | null): RecordFacts {
  if (source === "codex") {
    const normalized = isJsonObject(record.payload) ? record : normalizeLegacyRecord(record, legacy?.headerTimestamp ?? record.timestamp, isLegacyHeader(record));
    const facts = classifyCodex(normalized);
    if (timestampMs !== undefined) facts.timestampMs = timestampMs;
    return facts;
  }
  if (source === "claude-code") {
    const facts = classifyClaude(record);
    if (timestampMs !== undefined) facts.timestampMs = timestampMs;
    return facts;
  }
  const type = typeof record.type === "string" ? record.type : "record";
  return baseFacts(parseAwareTimestamp(record.timestamp), type, "system");
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

function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
