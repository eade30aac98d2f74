// What the catalog keeps of one transcript line: its searchable text, tools, files and errors.

/** Characters of user or agent text kept per line (issue 25: "bounded per record"). */
export const TEXT_CHARS = 8_000;
/** Characters kept of each tool input and each tool result. */
export const TOOL_PART_CHARS = 1_000;

/** The searchable part of one JSONL line; `text` is empty when the line holds nothing to find. */
export type LineFacts = { text: string; tools: string[]; files: string[]; error: boolean };

const FILE_KEYS = ["file_path", "path", "notebook_path"] as const;
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

/**
 * Reads one transcript line (Claude Code or Codex, every era the source formats contract lists)
 * into its searchable text: user and agent text, tool names, tool inputs (bounded) and tool
 * results (bounded); the tools it calls, the files those tools name, and whether a tool result
 * is an error. Records a user reads in the viewer are searchable too (contract §2.6–2.7, §1.6):
 * system records (API errors with status, type and message; hook summaries with their commands and
 * errors; local commands), summaries, queued input, hook progress, attachments, titles; Codex
 * errors, aborted turns and compaction summaries. Channels that repeat text indexed elsewhere
 * (Codex `event_msg` messages, tool progress output, sub-agent mirrors) are left out.
 * A line that is not a JSON object yields empty facts.
 */
export function lineFacts(text: string): LineFacts {
  const facts: LineFacts = { text: "", tools: [], files: [], error: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return facts;
  }
  if (!isObject(value)) return facts;
  const parts: string[] = [];
  // Codex wraps items in {type:"response_item"|"event_msg", payload}; older Codex logs do not.
  const item = isObject(value.payload) && (value.type === "response_item" || value.type === "event_msg") ? value.payload : value;
  if (isObject(value.message)) walkClaude(value.message, parts, facts);
  else if (value.type === "event_msg" && isObject(value.payload)) walkCodexEvent(value.payload, parts);
  else if (value.type === "compacted" && isObject(value.payload)) parts.push(bound(typeof value.payload.message === "string" ? value.payload.message : "", TEXT_CHARS));
  else if (typeof value.type === "string" && CLAUDE_RECORDS.has(value.type)) walkClaudeRecord(value, parts);
  else walkCodex(item, parts, facts);
  facts.text = parts.filter((p) => p !== "").join("\n");
  return facts;
}

function walkClaude(message: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  const content = message.content;
  if (typeof content === "string") {
    parts.push(bound(content, TEXT_CHARS));
    return;
  }
  if (!Array.isArray(content)) return;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(bound(block.text, TEXT_CHARS));
    else if (block.type === "tool_use" && typeof block.name === "string") {
      facts.tools.push(block.name);
      parts.push(block.name, bound(inputText(block.input), TOOL_PART_CHARS));
      addFiles(block.input, facts);
    } else if (block.type === "tool_result") {
      if (block.is_error === true) facts.error = true;
      parts.push(bound(resultText(block.content), TOOL_PART_CHARS));
    }
  }
}

function walkCodex(item: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  const type = item.type;
  if (type === "message" && Array.isArray(item.content)) {
    for (const c of item.content) if (isObject(c) && typeof c.text === "string") parts.push(bound(c.text, TEXT_CHARS));
  } else if ((type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") && typeof item.name === "string") {
    facts.tools.push(item.name);
    const args = typeof item.arguments === "string" ? item.arguments : typeof item.input === "string" ? item.input : inputText(item.action ?? item.arguments);
    parts.push(item.name, bound(args, TOOL_PART_CHARS));
    let texts = [args];
    try {
      const parsed: unknown = JSON.parse(args);
      addFiles(parsed, facts);
      texts = stringsOf(parsed);
    } catch {
      /* not JSON (a custom tool's raw input): its text is searched for patch headers as it is */
    }
    // apply_patch bodies name their files in `*** Update File: path` headers.
    for (const text of texts) for (const m of text.matchAll(PATCH_FILE)) facts.files.push(m[1]!.trim());
  } else if (type === "function_call_output" || type === "custom_tool_call_output") {
    const output = typeof item.output === "string" ? item.output : inputText(item.output);
    if (/"exit_code"\s*:\s*[1-9]/.test(output) || (isObject(item.output) && item.output.success === false)) facts.error = true;
    parts.push(bound(output, TOOL_PART_CHARS));
  }
}

/** Claude Code record types without a `message` whose text is searched (contract §2.2, §2.6–2.7). */
const CLAUDE_RECORDS = new Set(["system", "summary", "queue-operation", "progress", "attachment", "custom-title", "ai-title", "agent-name", "pr-link", "last-prompt"]);
/** Codex `event_msg` payloads with text found nowhere else in the file (contract §1.6). */
const CODEX_EVENTS = new Set(["error", "stream_error", "turn_aborted", "warning", "plan_update"]);
/** Envelope and bookkeeping keys: ids, paths of the session itself, HTTP headers — nothing a user searches for. */
const SKIPPED_KEYS = new Set(["uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sessionId", "cwd", "version", "gitBranch", "slug", "timestamp", "userType", "isSidechain", "agentId", "requestId", "requestID", "toolUseID", "parentToolUseID", "messageId", "level", "headers", "isMeta", "turn_id", "call_id", "subtype"]);

/** A Claude Code record without a message: its headline words (`API error 529`) and its text leaves. */
function walkClaudeRecord(record: Record<string, unknown>, parts: string[]): void {
  if (record.type === "progress") {
    // Tool output progress repeats the tool's result and sub-agent progress mirrors its own file: only hooks and waits are read.
    const data = isObject(record.data) ? record.data : null;
    if (data && (data.type === "hook_progress" || data.type === "waiting_for_task")) parts.push(bound(textLeaves(data).join("\n"), TOOL_PART_CHARS));
    return;
  }
  if (record.type === "system" && record.subtype === "api_error") {
    const status = isObject(record.error) && typeof record.error.status === "number" ? ` ${record.error.status}` : "";
    parts.push(`API error${status}`);
  }
  parts.push(bound(textLeaves(record).join("\n"), record.type === "summary" || record.type === "queue-operation" ? TEXT_CHARS : TOOL_PART_CHARS));
}

function walkCodexEvent(payload: Record<string, unknown>, parts: string[]): void {
  if (typeof payload.type === "string" && CODEX_EVENTS.has(payload.type)) parts.push(payload.type.replaceAll("_", " "), bound(textLeaves(payload).join("\n"), TOOL_PART_CHARS));
}

/** Every non-blank string in a record, depth first, outside {@link SKIPPED_KEYS} and the record's own `type`. */
function textLeaves(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 6) return out;
  if (typeof value === "string") {
    if (value.trim() !== "") out.push(value);
  } else if (Array.isArray(value)) for (const v of value) textLeaves(v, depth + 1, out);
  else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) if (!SKIPPED_KEYS.has(key) && !(depth === 0 && key === "type")) textLeaves(v, depth + 1, out);
  }
  return out;
}

/** The strings of a parsed value, one level into arrays and objects (a shell command's argv, its fields). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []));
  if (isObject(value)) return Object.values(value).flatMap((v) => stringsOf(Array.isArray(v) ? v : typeof v === "string" ? v : null));
  return [];
}

function addFiles(input: unknown, facts: LineFacts): void {
  if (!isObject(input)) return;
  for (const key of FILE_KEYS) if (typeof input[key] === "string" && input[key] !== "") facts.files.push(input[key]);
}

function inputText(input: unknown): string {
  if (input === undefined || input === null) return "";
  return typeof input === "string" ? input : JSON.stringify(input);
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c) => (isObject(c) && typeof c.text === "string" ? c.text : "")).join("\n");
}

function bound(text: string, chars: number): string {
  return text.length <= chars ? text : text.slice(0, chars);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
