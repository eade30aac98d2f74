/**
 * Agent sessions (issue 38) compacted for `read_session_lines` and the viewer: each line's compact
 * record is read off its record in the whole file's replay (lib/sources/agent-transcripts), never
 * from the line alone, so what replay learns later (a rewind, a replacement) marks earlier lines.
 */
import { buildToolResult, buildToolUse, emptyBody, toolInputText, type CompactBody } from "@/lib/sources/common/compact-fields";
import type { AgentEvent, AgentRecord, AgentToolCall, AgentTranscript } from "@/lib/sources/common/agent-source";
import { isJsonObject } from "@/lib/sources/common/json-object";
import type { CompactToolResult } from "./schema";
import { boundedText } from "@/lib/sources/common/trim";

/**
 * The compact body of physical line `line` of an agent session, from its replayed transcript
 * (null when the transcript has no such line: the file changed between the two reads).
 * - `record_type`, `role`: the reader's; `content_kinds`: `text`, `tool_use`, `tool_result` as present;
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
export function compactAgentBody(transcript: AgentTranscript, line: number): CompactBody | null {
  const record = transcript.records[line - 1];
  if (record === undefined || record.line !== line) return null;
  const text = previewOf(transcript, record);
  const uses = record.calls.map((call) => buildToolUse(call.name, toolInputText(call.input)));
  const results = record.results.map((result, i) => {
    const call = callOf(transcript, record, result.id, result.name, i);
    return buildToolResult(result.output, resultMeta(call, result.isError));
  });
  const kinds: string[] = [];
  if (text.preview !== null) kinds.push("text");
  if (uses.length > 0) kinds.push("tool_use");
  if (results.length > 0) kinds.push("tool_result");
  return {
    ...emptyBody(record.type, summaryOf(transcript, record), record.role),
    content_kinds: kinds,
    text_preview: text.preview,
    tool_uses: uses,
    tool_results: results,
    truncated: text.truncated || uses.some((u) => u.truncated) || results.some((r) => r.truncated),
  };
}

/** Marks first (in the order replay added them), then the headline; the rewind's line says what it dropped. */
function summaryOf(transcript: AgentTranscript, record: AgentRecord): string {
  const headline = record.headline.trim() === "" ? `${record.type} record.` : record.headline;
  const marks: string[] = [];
  let rewind: AgentEvent | null = null;
  for (const event of record.events) {
    if (event.kind === "rewind") rewind ??= event;
    else if (event.kind === "rewound") {
      const at = lineNamed(event.detail) ?? firstRewindLine(transcript);
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

/** The first line holding a rewind, per transcript: the rewind that undid a line whose mark names none (a session's revert). */
const rewindLines = new WeakMap<AgentTranscript, number | null>();

function firstRewindLine(transcript: AgentTranscript): number | null {
  let line = rewindLines.get(transcript);
  if (line === undefined) {
    line = transcript.records.find((r) => r.events.some((e) => e.kind === "rewind"))?.line ?? null;
    rewindLines.set(transcript, line);
  }
  return line;
}

/** The line an event's detail names (`… replaced by line 9`, `… on line 14`), else null. */
function lineNamed(detail: string): number | null {
  const all = [...detail.matchAll(/\bline (\d+)\b/g)];
  return all.length === 0 ? null : Number(all[all.length - 1]![1]);
}

type Preview = { preview: string | null; truncated: boolean };

function previewOf(transcript: AgentTranscript, record: AgentRecord): Preview {
  if (record.trigger) {
    const prompt = promptText(transcript, record);
    if (prompt !== null) return { preview: prompt, truncated: false };
  }
  const text = visibleText(record);
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
function promptText(transcript: AgentTranscript, record: AgentRecord): string | null {
  const followers: AgentRecord[] = [];
  for (let i = record.line; i < transcript.records.length; i++) {
    const next = transcript.records[i]!;
    if (next.role !== "user" || next.trigger) break;
    followers.push(next);
  }
  const ownType = followers.length === 0 || followers[0]!.type === record.type;
  const texts = [...(ownType ? [record] : []), ...followers].map(visibleText).filter((t): t is string => t !== null);
  return texts.length === 0 ? null : texts.join("\n");
}

/**
 * The record's words without those of its tool calls and results: readers write a tool's words
 * after the message's, its name first, so the text is cut at the first line naming one of them;
 * a text left with no word that its calls' names and inputs and its results' outputs do not
 * already show (`Applied edit to a.py edit` beside that result) is dropped. Null when nothing
 * but blanks remains.
 */
function visibleText(record: AgentRecord): string | null {
  let text = record.text;
  if (record.calls.length === 0 && record.results.length === 0) return text.trim() === "" ? null : text;
  const names = new Set([...record.calls.map((c) => c.name), ...record.results.map((r) => r.name).filter((n): n is string => n !== null)]);
  const lines = text.split("\n");
  const cut = lines.findIndex((l) => names.has(l));
  if (cut !== -1) text = lines.slice(0, cut).join("\n");
  if (text.trim() === "") return null;
  // A word that no call's input and no result's output holds even inside a longer word is not
  // shown by them: the text stays, without splitting them all into words (a large tool output).
  const told = [...record.calls.map((call) => toolInputText(call.input)), ...record.results.map((result) => result.output)];
  const own = words(text);
  if (own.slice(0, PRECHECK_WORDS).some((w) => !names.has(w) && !told.some((t) => t.includes(w)))) return text;
  const shown = new Set<string>(names);
  for (const t of told) for (const word of words(t)) shown.add(word);
  return own.every((w) => shown.has(w)) ? null : text;
}

/** Words of a text looked for in its calls and results before they are split into words (see {@link visibleText}). */
const PRECHECK_WORDS = 8;

function words(text: string): string[] {
  return text.split(/[\s"{},:[\]]+/).filter((w) => w !== "");
}

/** Calls by id, per transcript: a result on a later line (Copilot's tool completions) finds its call. */
const callIndex = new WeakMap<AgentTranscript, Map<string, AgentToolCall>>();

function callOf(transcript: AgentTranscript, record: AgentRecord, id: string | null, name: string | null, at: number): AgentToolCall | null {
  if (id !== null) {
    let byId = callIndex.get(transcript);
    if (byId === undefined) {
      byId = new Map();
      for (const r of transcript.records) for (const c of r.calls) if (c.id !== null && !byId.has(c.id)) byId.set(c.id, c);
      callIndex.set(transcript, byId);
    }
    const call = byId.get(id);
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
