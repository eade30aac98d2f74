/** What one Gemini CLI message record says: role, visible text, tool calls with their results, usage (agent-formats.md §1, "Messages"). */
import { oneLineHeadline, type AgentRecord, type AgentToolCall, type AgentToolResult, type RecordRole } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { geminiUsage } from "@/lib/sources/gemini-cli/usage";

/** The facts of one message object `{id, timestamp, type, content, displayContent?, ...}`: a record's (the contract's fields) plus what replay needs. */
export type MessageFacts = Pick<AgentRecord, "role" | "text" | "reasoning" | "headline" | "model" | "calls" | "results" | "isError" | "usage"> & {
  /** The message's `type` (`user`, `gemini`, `info`, `error`, `warning`, or an unknown one as written). */
  type: string;
  known: boolean;
  /** A user message a human typed (not the synthetic `<session_context>` one). */
  humanPrompt: boolean;
};

const ROLES: Record<string, RecordRole> = { user: "user", gemini: "assistant", info: "system", error: "system", warning: "system" };
const LABELS: Record<string, string> = { user: "User", gemini: "Gemini", info: "Info", error: "Error", warning: "Warning" };

/** Input keys whose string (or string-list) values are file paths (`calls[].files`). */
const PATH_KEYS = ["file_path", "filePath", "absolute_path", "path", "paths", "file_paths", "dir_path", "notebook_path"];
/** Input keys shown in a call's headline, first present wins. */
const HEADLINE_KEYS = ["command", "file_path", "absolute_path", "path", "dir_path", "pattern", "query", "url", "prompt"];
/** Nested input objects deeper than this are not searched for strings. */
const MAX_DEPTH = 8;

/**
 * Reads one message (agent-formats.md §1): `content` is a string, a part, or a list of parts
 * (`{text}`), `displayContent` likewise; only `gemini` messages carry `model`, `tokens` (see
 * {@link geminiUsage}), `thoughts` (`[{subject, description}]`) and `toolCalls` (`[{id, name,
 * args, result, status, resultDisplay?}]`, `result` a list of `{functionResponse: {id, name,
 * response: {output} | {error}}}` or bare strings). A call with `status: "error"` or an `error`
 * response is a failed result. `info`/`error`/`warning` are system lines; `error` is an error.
 * An unknown `type` keeps its name and text (`known` false). Never throws.
 */
export function messageFacts(message: JsonObject): MessageFacts {
  const type = typeof message.type === "string" && message.type !== "" ? message.type : "message";
  const known = isKnownMessageType(type);
  const content = partsText(message.content);
  const display = partsText(message.displayContent);
  const texts = [content];
  if (display !== "" && display !== content) texts.push(display);
  const calls: AgentToolCall[] = [];
  const results: AgentToolResult[] = [];
  const callHeadlines: string[] = [];
  let thoughtSubject = "";
  const thoughts: string[] = [];
  if (Array.isArray(message.thoughts)) {
    for (const thought of message.thoughts) {
      if (!isJsonObject(thought)) continue;
      const subject = str(thought.subject);
      const description = str(thought.description);
      if (thoughtSubject === "") thoughtSubject = subject || description;
      thoughts.push([subject, description].filter((s) => s !== "").join(": "));
    }
  }
  if (Array.isArray(message.toolCalls)) {
    for (const raw of message.toolCalls) {
      if (!isJsonObject(raw)) continue;
      const read = toolCallFacts(raw);
      calls.push(read.call);
      if (read.result !== null) results.push(read.result);
      texts.push(...read.texts);
      callHeadlines.push(read.headline);
    }
  }
  const usage = geminiUsage(message.tokens, message.model);
  const model = typeof message.model === "string" && message.model !== "" ? message.model : null;
  const label = LABELS[type] ?? type;
  let headline: string;
  if (callHeadlines.length > 0) headline = callHeadlines.join("; ");
  else if (content !== "") headline = `${label}: ${content}`;
  else if (display !== "") headline = `${label}: ${display}`;
  else if (thoughtSubject !== "") headline = `${label} (thinking): ${thoughtSubject}`;
  else headline = `${label}: (no text)`;
  return {
    type,
    known,
    role: ROLES[type] ?? null,
    text: texts.filter((t) => t !== "").join("\n"),
    reasoning: thoughts.filter((t) => t !== "").join("\n"),
    headline: oneLineHeadline(headline),
    model,
    calls,
    results,
    isError: type === "error" || results.some((r) => r.isError),
    usage: usage === null ? [] : [usage],
    humanPrompt: type === "user" && !content.trimStart().startsWith("<session_context>"),
  };
}

/** True for the message types Gemini CLI writes (`user`, `gemini`, `info`, `error`, `warning`): others are warned about. */
export function isKnownMessageType(type: string): boolean {
  return type in ROLES;
}

/**
 * The visible text of a `PartListUnion`: a string, a part, or a list of strings and parts; a part's
 * `text`, or a `functionResponse`'s output or error. Other parts (inline data, files) have no text.
 */
export function partsText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(partText).filter((t) => t !== "").join("\n");
  return partText(value);
}

function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (!isJsonObject(part)) return "";
  if (typeof part.text === "string") return part.text;
  if (isJsonObject(part.functionResponse)) return responseText(part.functionResponse.response).text;
  return "";
}

/** A `functionResponse.response`'s text: `output`, else `error` (a failure), else the object as JSON. */
function responseText(response: unknown): { text: string; error: boolean } {
  if (response === undefined || response === null) return { text: "", error: false };
  if (!isJsonObject(response)) return { text: typeof response === "string" ? response : JSON.stringify(response), error: false };
  if (response.output !== undefined) return { text: typeof response.output === "string" ? response.output : JSON.stringify(response.output), error: false };
  if (response.error !== undefined) return { text: typeof response.error === "string" ? response.error : JSON.stringify(response.error), error: true };
  return { text: JSON.stringify(response), error: false };
}

/** One `toolCalls[]` entry: the call, its result when it has one, its searchable words and its headline. */
function toolCallFacts(raw: JsonObject): { call: AgentToolCall; result: AgentToolResult | null; texts: string[]; headline: string } {
  const id = typeof raw.id === "string" && raw.id !== "" ? raw.id : null;
  const name = str(raw.name) || "unknown";
  const input = raw.args ?? null;
  const status = str(raw.status);
  const texts = [name];
  stringValues(input, 0, texts);
  let result: AgentToolResult | null = null;
  if (raw.result !== undefined && raw.result !== null) {
    const parts = Array.isArray(raw.result) ? raw.result : [raw.result];
    let failed = false;
    const outputs: string[] = [];
    for (const part of parts) {
      if (isJsonObject(part) && isJsonObject(part.functionResponse)) {
        const response = responseText(part.functionResponse.response);
        failed ||= response.error;
        if (response.text !== "") outputs.push(response.text);
      } else {
        const text = partText(part);
        if (text !== "") outputs.push(text);
      }
    }
    result = { id, name, output: outputs.join("\n"), isError: failed || status === "error" };
  } else if (status === "error" || status === "cancelled") {
    result = { id, name, output: typeof raw.resultDisplay === "string" ? raw.resultDisplay : "", isError: status === "error" };
  }
  if (result !== null && result.output !== "") texts.push(result.output);
  const display = raw.resultDisplay;
  if (typeof display === "string" && display !== "" && display !== result?.output) texts.push(display);
  else if (isJsonObject(display)) for (const key of ["fileName", "fileDiff"]) if (typeof display[key] === "string" && display[key] !== "") texts.push(display[key]);
  const suffix = status === "error" || result?.isError ? " (error)" : status === "cancelled" ? " (cancelled)" : "";
  return { call: { id, name, input, files: filesOf(input) }, result, texts, headline: `${callLabel(name, input)}${suffix}` };
}

/** `run_shell_command: npm test`, `read_file src/a.ts`, or the bare name. */
function callLabel(name: string, input: unknown): string {
  if (!isJsonObject(input)) return name;
  if (typeof input.command === "string") return `${name}: ${input.command}`;
  for (const key of HEADLINE_KEYS) if (typeof input[key] === "string" && input[key] !== "") return `${name} ${input[key]}`;
  return name;
}

/** File paths named in a call's input: the string and string-list values of {@link PATH_KEYS}, first seen first. */
function filesOf(input: unknown): string[] {
  if (!isJsonObject(input)) return [];
  const files: string[] = [];
  for (const key of PATH_KEYS) {
    const value = input[key];
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (typeof v === "string" && v !== "" && !files.includes(v)) files.push(v);
  }
  return files;
}

/** Appends every string inside a JSON value (object values and list items, nested up to {@link MAX_DEPTH}). */
function stringValues(value: unknown, depth: number, out: string[]): void {
  if (typeof value === "string") {
    if (value !== "") out.push(value);
  } else if (depth < MAX_DEPTH && Array.isArray(value)) {
    for (const item of value) stringValues(item, depth + 1, out);
  } else if (depth < MAX_DEPTH && isJsonObject(value)) {
    for (const item of Object.values(value)) stringValues(item, depth + 1, out);
  }
}

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}
