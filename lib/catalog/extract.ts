// What the catalog keeps of one transcript line: its whole searchable text, role, time, tools, files and errors.

import type { AgentRecord, AgentSource } from "@/lib/sources/common/agent-source";

/** Who a line speaks for, as the search's `role:` filter names it; `other` for records of the agent's harness. */
export type LineRole = "user" | "assistant" | "tool" | "other";

/** One tool call on a line: its call id (`toolu_…`, Codex `call_id`; "" when none), tool name and the files it names. */
export type ToolCall = { id: string; name: string; files: string[] };

/**
 * The searchable part of one JSONL line. `text` is every word a reader can see of it, whole (no
 * cap: issue 37), "" when it holds nothing to find. `calls` the tool calls it makes, `answers` the
 * call ids whose results it holds (their tools are the line's too: `tool:` finds both sides),
 * `files` the paths its calls name, `error` a failed tool result, API error or failed command,
 * `time` its record time in ms since the epoch (NaN when it has none).
 */
export type LineFacts = { text: string; role: LineRole; calls: ToolCall[]; answers: string[]; files: string[]; error: boolean; time: number };

/**
 * The facts of a line of an agent session (lib/sources/common/agent-source): {@link LineFacts},
 * plus `resultTools`, the tools whose results the line holds as the agent names them (a result
 * without a call id, such as Aider's edit outcome, is filed under its tool that way).
 */
export type AgentLineFacts = LineFacts & { resultTools: string[] };

/**
 * The searchable facts of every physical line of an agent session's document (`lines`, contract
 * §1.6, the unterminated last one too), read by the agent's own reader over all of them: a line's
 * facts may depend on others (a Gemini message replaced by a later line gives up its calls; an
 * OpenCode message, an Aider reply's edit block). One entry per line, `[i]` for line `i + 1`. The
 * index and the search's check of a candidate line both read lines through this, so a line is
 * checked on exactly the text it was indexed by.
 */
export function agentLinesFacts(agent: AgentSource, lines: readonly string[]): AgentLineFacts[] {
  return agent.parseLines(lines, "").records.map(recordFacts);
}

/**
 * One agent record's searchable facts: its text whole and then its reasoning, role (`system` and none read as `other`),
 * calls with their ids ("" when none) and files, the call ids of its results and their tools,
 * the record's error flag, and its time (NaN when none).
 */
export function recordFacts(record: AgentRecord): AgentLineFacts {
  const calls = record.calls.map((c) => ({ id: c.id ?? "", name: c.name, files: c.files }));
  const role = record.role === "user" || record.role === "assistant" || record.role === "tool" ? record.role : "other";
  return {
    text: record.reasoning === "" ? record.text : record.text === "" ? record.reasoning : `${record.text}\n${record.reasoning}`,
    role,
    calls,
    answers: record.results.flatMap((r) => (r.id === null ? [] : [r.id])),
    files: calls.flatMap((c) => c.files),
    error: record.isError,
    time: record.time === null ? Number.NaN : Date.parse(record.time),
    resultTools: record.results.flatMap((r) => (r.name === null ? [] : [r.name])),
  };
}

const FILE_KEYS = ["file_path", "path", "notebook_path"] as const;
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

/** Facts of a line with nothing to find. */
function emptyFacts(): LineFacts {
  return { text: "", role: "other", calls: [], answers: [], files: [], error: false, time: Number.NaN };
}

/**
 * Reads one transcript line (Claude Code or Codex, every era the source formats contract lists)
 * into its searchable text, whole: user and agent text, thinking and reasoning summaries, tool
 * names, tool inputs (their string values) and tool results; the tools it calls, the files those
 * tools name, and whether it records an error. Records a user reads in the viewer are searchable
 * too (contract §2.6–2.7, §1.6): system records (API errors with status, type and message; hook
 * summaries with their commands and errors; local commands), summaries, queued input, hook
 * progress, attachments, titles; Codex errors, aborted turns and compaction summaries. Channels that
 * repeat text indexed elsewhere (Codex `event_msg` messages, contract §1.2; tool progress output,
 * sub-agent mirrors) are left out. A line that is not JSON is its own text; a JSON value that is
 * not an object yields empty facts.
 */
export function lineFacts(text: string): LineFacts {
  const facts = emptyFacts();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON (a record cut by a raw U+2028, contract §1.6; a damaged line): the viewer shows it as it is.
    facts.text = text;
    return facts;
  }
  if (!isObject(value)) return facts;
  if (typeof value.timestamp === "string") facts.time = Date.parse(value.timestamp);
  const parts: string[] = [];
  // Codex wraps items in {type:"response_item"|"event_msg", payload}; older Codex logs do not.
  const item = isObject(value.payload) && (value.type === "response_item" || value.type === "event_msg") ? value.payload : value;
  if (isObject(value.message)) walkClaude(value, value.message, parts, facts);
  else if (value.type === "event_msg" && isObject(value.payload)) walkCodexEvent(value.payload, parts, facts);
  else if (value.type === "compacted" && isObject(value.payload)) parts.push(typeof value.payload.message === "string" ? value.payload.message : "");
  else if (typeof value.type === "string" && CLAUDE_RECORDS.has(value.type)) walkClaudeRecord(value, parts, facts);
  else walkCodex(item, parts, facts);
  facts.text = parts.filter((p) => p !== "").join("\n");
  return facts;
}

function walkClaude(record: Record<string, unknown>, message: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  facts.role = record.type === "assistant" || message.role === "assistant" ? "assistant" : "user";
  const content = message.content;
  if (typeof content === "string") {
    parts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  let results = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
    else if (block.type === "thinking" && typeof block.thinking === "string") parts.push(block.thinking);
    else if (block.type === "tool_use" && typeof block.name === "string") {
      const files = filesOf(block.input);
      facts.calls.push({ id: typeof block.id === "string" ? block.id : "", name: block.name, files });
      facts.files.push(...files);
      parts.push(block.name, ...inputLeaves(block.input));
    } else if (block.type === "tool_result") {
      results += 1;
      if (typeof block.tool_use_id === "string") facts.answers.push(block.tool_use_id);
      if (block.is_error === true) facts.error = true;
      parts.push(resultText(block.content));
    }
  }
  if (results > 0 && facts.role === "user") facts.role = "tool";
}

function walkCodex(item: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  const type = item.type;
  if (type === "message" && Array.isArray(item.content)) {
    facts.role = item.role === "assistant" ? "assistant" : item.role === "user" ? "user" : "other";
    for (const c of item.content) if (isObject(c) && typeof c.text === "string") parts.push(c.text);
  } else if (type === "reasoning") {
    facts.role = "assistant";
    for (const list of [item.summary, item.content]) if (Array.isArray(list)) for (const c of list) if (isObject(c) && typeof c.text === "string") parts.push(c.text);
  } else if ((type === "function_call" || type === "custom_tool_call" || type === "local_shell_call") && typeof item.name === "string") {
    facts.role = "assistant";
    const args = typeof item.arguments === "string" ? item.arguments : typeof item.input === "string" ? item.input : null;
    let parsed: unknown = args === null ? (item.action ?? item.arguments) : undefined;
    if (args !== null) {
      try {
        parsed = JSON.parse(args);
      } catch {
        /* not JSON (a custom tool's raw input): its text is searched as it is */
      }
    }
    const files = parsed === undefined ? [] : filesOf(parsed);
    const texts = parsed === undefined ? [args ?? ""] : inputLeaves(parsed);
    // apply_patch bodies name their files in `*** Update File: path` headers.
    for (const text of texts) for (const m of text.matchAll(PATCH_FILE)) files.push(m[1]!.trim());
    facts.calls.push({ id: typeof item.call_id === "string" ? item.call_id : "", name: item.name, files });
    facts.files.push(...files);
    parts.push(item.name, ...texts);
  } else if (type === "function_call_output" || type === "custom_tool_call_output") {
    facts.role = "tool";
    if (typeof item.call_id === "string") facts.answers.push(item.call_id);
    const raw = typeof item.output === "string" ? item.output : null;
    // Newer Codex outputs are a JSON string ({output, metadata}): the reader sees its values, unescaped.
    let parsed: unknown = item.output;
    if (raw !== null && raw.startsWith("{")) {
      try {
        parsed = JSON.parse(raw);
      } catch {
        parsed = raw;
      }
    }
    const output = typeof parsed === "string" ? parsed : inputLeaves(parsed).join("\n");
    const exit = isObject(parsed) && isObject(parsed.metadata) ? parsed.metadata.exit_code : undefined;
    if ((typeof exit === "number" && exit !== 0) || (raw !== null && /"exit_code"\s*:\s*[1-9]/.test(raw)) || /^Exit code: [1-9]/m.test(output) || (isObject(parsed) && parsed.success === false)) facts.error = true;
    parts.push(output);
  }
}

/** Claude Code record types without a `message` whose text is searched (contract §2.2, §2.6–2.7). */
const CLAUDE_RECORDS = new Set(["system", "summary", "queue-operation", "progress", "attachment", "custom-title", "ai-title", "agent-name", "pr-link", "last-prompt"]);
/** Codex `event_msg` payloads with text found nowhere else in the file (contract §1.6). */
const CODEX_EVENTS = new Set(["error", "stream_error", "turn_aborted", "warning", "plan_update"]);
/** Envelope and bookkeeping keys: ids, paths of the session itself, HTTP headers — nothing a user searches for. */
const SKIPPED_KEYS = new Set(["uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sessionId", "cwd", "version", "gitBranch", "slug", "timestamp", "userType", "isSidechain", "agentId", "requestId", "requestID", "toolUseID", "parentToolUseID", "messageId", "level", "headers", "isMeta", "turn_id", "call_id", "subtype"]);

/** A Claude Code record without a message: its headline words (`API error 529`) and its text leaves. */
function walkClaudeRecord(record: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  if (record.type === "progress") {
    // Tool output progress repeats the tool's result and sub-agent progress mirrors its own file: only hooks and waits are read.
    const data = isObject(record.data) ? record.data : null;
    if (data && (data.type === "hook_progress" || data.type === "waiting_for_task")) parts.push(textLeaves(data).join("\n"));
    return;
  }
  if (record.type === "queue-operation") facts.role = "user";
  if (record.type === "system" && record.subtype === "api_error") {
    const status = isObject(record.error) && typeof record.error.status === "number" ? ` ${record.error.status}` : "";
    parts.push(`API error${status}`);
    facts.error = true;
  }
  parts.push(textLeaves(record).join("\n"));
}

function walkCodexEvent(payload: Record<string, unknown>, parts: string[], facts: LineFacts): void {
  if (typeof payload.type !== "string" || !CODEX_EVENTS.has(payload.type)) return;
  if (payload.type === "error" || payload.type === "stream_error") facts.error = true;
  parts.push(payload.type.replaceAll("_", " "), textLeaves(payload).join("\n"));
}

/** Every non-blank string of a record, depth first, outside {@link SKIPPED_KEYS} and the record's own `type` (its counters and sizes are bookkeeping). */
function textLeaves(value: unknown): string[] {
  return leaves(value, 0, [], SKIPPED_KEYS, false);
}

/** Every non-blank string and number of a tool's input or output (a line limit, a port), whatever its keys. */
function inputLeaves(value: unknown): string[] {
  return leaves(value, 1, [], NO_KEYS, true);
}

const NO_KEYS = new Set<string>();

function leaves(value: unknown, depth: number, out: string[], skipped: Set<string>, numbers: boolean): string[] {
  if (depth > 24) return out;
  if (typeof value === "string") {
    if (value.trim() !== "") out.push(value);
  } else if (numbers && typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) leaves(v, depth + 1, out, skipped, numbers);
  else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) if (!skipped.has(key) && !(depth === 0 && key === "type")) leaves(v, depth + 1, out, skipped, numbers);
  }
  return out;
}

function filesOf(input: unknown): string[] {
  if (!isObject(input)) return [];
  return FILE_KEYS.flatMap((key) => (typeof input[key] === "string" && input[key] !== "" ? [input[key]] : []));
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c) => (isObject(c) && typeof c.text === "string" ? c.text : "")).join("\n");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
