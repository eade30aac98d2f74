/**
 * Agent sessions (issue 38) compacted for `read_session_lines` and the viewer: each line's compact
 * record is read off its record in the whole file's replay (lib/sources/agent-transcripts), never
 * from the line alone, so what replay learns later (a rewind, a replacement) marks earlier lines.
 */
import { buildToolResult, buildToolUse, emptyBody, toolInputText, type CompactBody } from "@/lib/sources/common/compact-fields";
import { agentLines, type AgentEvent, type AgentLines, type AgentRecord, type AgentSession, type AgentToolCall } from "@/lib/sources/common/agent-source";
import { isJsonObject } from "@/lib/sources/common/json-object";
import type { CompactToolResult } from "./schema";
import { boundedText } from "@/lib/sources/common/trim";

/**
 * The compact body of physical line `line` of an agent session, from its replayed transcript or
 * its lines read as the transcript reads them (lib/sources/agent-transcripts `readAgentLines`:
 * the same body either way); null when it has no such line (the file changed between the two reads).
 * - `record_type`, `role`: the reader's; `content_kinds`: `text`, `tool_use`, `tool_result`, `thinking` as present;
 * - reasoning (the record's `reasoning`) is omitted entirely, as seed 000's compact policy has it:
 *   `thinking` among the kinds, `truncated` set, and a record holding nothing else reads
 *   `Assistant reasoning omitted.`;
 * - `summary`: the record's headline, after the marks of what replay did to it: `Rewound by the
 *   user (line N): …` (a message a rewind dropped; N the line that rewound), `Replaced by line N: …`
 *   (an older version of a message), `Replaces line N: …`, and on the rewind's own line `Rewind by
 *   the user: <what it dropped>`; a record without a headline reads `<record_type> record.`;
 * - `text_preview`: the words on the line a person reads, without its tool calls' and results'
 *   words (those are `tool_uses` / `tool_results`): a human prompt's line holds the whole prompt
 *   (with the user lines that carry its words after it), messages are kept whole, as Claude Code's
 *   and Codex's are, and anything else is bounded (head 320 + tail 160 bytes, lib/session-reader/trim);
 * - `tool_uses`: each call's name and bounded input; `tool_results`: each result's bounded output,
 *   `status` `error` or `ok`, `file_path` the first file its call names and `command` its shell
 *   command (calls found by id anywhere in the session, else on the same line by name), `kind`
 *   `command`, `file` or `tool_result` accordingly.
 */
export function compactAgentBody(session: AgentSession, line: number): CompactBody | null {
  const transcript = agentLines(session);
  const record = transcript.record(line);
  if (record === undefined || record.line !== line) return null;
  const inputs = record.calls.map((call) => toolInputText(call.input));
  const text = previewOf(transcript, record, inputs);
  const uses = record.calls.map((call, i) => buildToolUse(call.name, inputs[i]!));
  const results = record.results.map((result, i) => {
    const call = callOf(transcript, record, result.id, result.name, i);
    return buildToolResult(result.output, resultMeta(call, result.isError));
  });
  const kinds: string[] = [];
  if (text.preview !== null) kinds.push("text");
  if (uses.length > 0) kinds.push("tool_use");
  if (results.length > 0) kinds.push("tool_result");
  // Seed 000's compact policy: reasoning is omitted entirely and marks the record trimmed.
  const thinking = record.reasoning !== "";
  if (thinking) kinds.push("thinking");
  const onlyThinking = thinking && kinds.length === 1;
  return {
    ...emptyBody(record.type, summaryOf(transcript, record, onlyThinking ? REASONING_OMITTED : undefined), record.role),
    content_kinds: kinds,
    text_preview: text.preview,
    tool_uses: uses,
    tool_results: results,
    truncated: thinking || text.truncated || uses.some((u) => u.truncated) || results.some((r) => r.truncated),
  };
}

/** The summary of a record holding nothing but reasoning (seed 000, as Claude Code's thinking reads). */
const REASONING_OMITTED = "Assistant reasoning omitted.";

/** Marks first (in the order replay added them), then the headline (or `headline` given); the rewind's line says what it dropped. */
function summaryOf(transcript: AgentLines, record: AgentRecord, given?: string): string {
  const headline = given ?? (record.headline.trim() === "" ? `${record.type} record.` : record.headline);
  const marks: string[] = [];
  let rewind: AgentEvent | null = null;
  for (const event of record.events) {
    if (event.kind === "rewind") rewind ??= event;
    else if (event.kind === "rewound") {
      const at = lineNamed(event.detail) ?? transcript.firstRewindLine();
      marks.push(at === null ? "Rewound by the user" : `Rewound by the user (line ${at})`);
    } else if (event.kind === "replaced") {
      const at = lineNamed(event.detail);
      marks.push(at === null ? `Replaced (${event.detail})` : `Replaced by line ${at}`);
    } else if (event.kind === "replacement") {
      const at = lineNamed(event.detail);
      marks.push(at === null ? `Replaces (${event.detail})` : `Replaces line ${at}`);
    }
  }
  const prefix = marks.length === 0 ? "" : `${marks.join("; ")}: `;
  if (rewind === null) return prefix + headline;
  // A rewind's headline usually restates what it dropped; otherwise (a session's revert) it follows.
  const said = `Rewind by the user: ${rewind.detail}`;
  return prefix + (headline.includes(rewind.detail) ? said : `${said} — ${headline}`);
}

/** The line an event's detail names (`… replaced by line 9`, `… on line 14`), else null. */
function lineNamed(detail: string): number | null {
  const all = [...detail.matchAll(/\bline (\d+)\b/g)];
  return all.length === 0 ? null : Number(all[all.length - 1]![1]);
}

type Preview = { preview: string | null; truncated: boolean };

function previewOf(transcript: AgentLines, record: AgentRecord, inputs: readonly string[]): Preview {
  if (record.trigger) {
    const prompt = promptText(transcript, record);
    if (prompt !== null) return { preview: prompt, truncated: false };
  }
  const text = visibleText(record, inputs);
  if (text === null) return { preview: null, truncated: false };
  if (record.role === "user" || record.role === "assistant") return { preview: text, truncated: false };
  const bounded = boundedText(text);
  return { preview: bounded.text, truncated: bounded.truncated };
}

/**
 * The prompt a trigger line starts: its words and those of the user lines right after it (up to a
 * line of another role or the next prompt). Lines that continue the prompt with the trigger's own
 * record type (a prompt written over several lines) add to its words; lines of another type (a
 * message line whose words are its parts, on the lines after it) carry the prompt alone, and the
 * trigger's own text (a title the agent gave the message) is left out.
 */
function promptText(transcript: AgentLines, record: AgentRecord): string | null {
  const followers: AgentRecord[] = [];
  for (let line = record.line + 1; line <= transcript.lineCount; line++) {
    const next = transcript.record(line)!;
    if (next.role !== "user" || next.trigger) break;
    followers.push(next);
  }
  const ownType = followers.length === 0 || followers[0]!.type === record.type;
  const texts = [...(ownType ? [record] : []), ...followers].map((r) => visibleText(r)).filter((t): t is string => t !== null);
  return texts.length === 0 ? null : texts.join("\n");
}

/**
 * The record's words without those of its tool calls and results: readers write a tool's words
 * after the message's, its name first, so the text is cut at the first line naming one of them;
 * a text left with no word that its calls' names and inputs and its results' outputs do not
 * already show (`Applied edit to a.py edit` beside that result) is dropped. Null when nothing
 * but blanks remains. `inputs`: the calls' {@link toolInputText}s when the caller has them.
 */
function visibleText(record: AgentRecord, inputs?: readonly string[]): string | null {
  let text = record.text;
  if (record.calls.length === 0 && record.results.length === 0) return text.trim() === "" ? null : text;
  const names = new Set([...record.calls.map((c) => c.name), ...record.results.map((r) => r.name).filter((n): n is string => n !== null)]);
  text = textBeforeName(text, names);
  if (text.trim() === "") return null;
  const told = [...(inputs ?? record.calls.map((call) => toolInputText(call.input))), ...record.results.map((result) => result.output)];
  return shownElsewhere(text, names, told) ? null : text;
}

/**
 * `text` up to the line before its first line that is one of `names` (all of it when none is),
 * as `lines.slice(0, cut).join("\n")` of its `\n` lines, without splitting a long text (a tool's
 * output may be megabytes) into lines.
 */
function textBeforeName(text: string, names: ReadonlySet<string>): string {
  const lengths = new Set<number>();
  for (const name of names) lengths.add(name.length);
  for (let start = 0; ; ) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    if (lengths.has(end - start) && names.has(text.slice(start, end))) return start === 0 ? "" : text.slice(0, start - 1);
    if (nl === -1) return text;
    start = nl + 1;
  }
}

/**
 * Whether every word of `text` is one of `names` or a word of a `told` text (words: {@link words}).
 * A word that no told text holds even inside a longer word is not among them, which `includes`
 * tells without splitting the told texts (a large tool output) into words; they are split only
 * when every word passes that test, or when the test has read more than a few times their length.
 */
function shownElsewhere(text: string, names: ReadonlySet<string>, told: readonly string[]): boolean {
  let budget = PRECHECK_READS * told.reduce((n, t) => n + t.length, 0) + PRECHECK_MIN_CHARS;
  const own: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    own.push(word);
    if (names.has(word) || budget <= 0) continue;
    let found = false;
    for (const t of told) {
      const at = t.indexOf(word);
      if (at === -1) {
        budget -= t.length;
        continue;
      }
      budget -= at + word.length;
      found = true;
      break;
    }
    if (!found) return false;
  }
  const shown = new Set<string>(names);
  for (const t of told) for (const word of words(t)) shown.add(word);
  return own.every((w) => shown.has(w));
}

/** How many times the told texts' length {@link shownElsewhere}'s `includes` test may read (past {@link PRECHECK_MIN_CHARS}) before it splits them into words. */
const PRECHECK_READS = 4;
const PRECHECK_MIN_CHARS = 1 << 16;

/** A word: a run of characters between the separators {@link words} splits at. */
const WORD = /[^\s"{},:[\]]+/g;

function words(text: string): string[] {
  return text.split(/[\s"{},:[\]]+/).filter((w) => w !== "");
}

/** A result's call: the session's first call with its id (a result on a later line, Copilot's tool completions, finds its call), else one on its line. */
function callOf(transcript: AgentLines, record: AgentRecord, id: string | null, name: string | null, at: number): AgentToolCall | null {
  if (id !== null) {
    const call = transcript.firstCall(id);
    if (call !== undefined) return call;
  }
  const same = record.calls[at];
  if (same !== undefined && (name === null || same.name === name)) return same;
  return record.calls.find((c) => c.name === name) ?? null;
}

function resultMeta(call: AgentToolCall | null, isError: boolean): Omit<CompactToolResult, "preview" | "raw_bytes" | "truncated"> {
  const input = call !== null && isJsonObject(call.input) ? call.input : null;
  const shell = input === null ? null : [input.command, input.cmd].find((v): v is string => typeof v === "string" && v.trim() !== "") ?? null;
  const filePath = call?.files[0] ?? null;
  return {
    kind: shell !== null ? "command" : filePath !== null ? "file" : "tool_result",
    status: isError ? "error" : "ok",
    file_path: filePath,
    command: shell,
  };
}
