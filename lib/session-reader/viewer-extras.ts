/** What the viewer shows beside a record: detail text clipped for display. */
import { agentLines, type AgentRecord, type AgentSession } from "@/lib/sources/common/agent-source";
import { asObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { CONVERSATION } from "@/lib/sources/common/viewer-detail";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import type { CompactRecord, FileEdit, RecordGroup, ViewerExtras } from "./schema";

/** Lines over this size are not parsed for extras: a head regex finds the timestamp and type. */
const PARSE_LIMIT_BYTES = 2 << 20;

/**
 * The viewer's extras of one physical line, read by the format of `source` (the index row's
 * source; lib/sources/formats): a source without a JSONL format gets the line's timestamp as a
 * conversation line. Never throws on line content: a malformed line is a conversation line without extras.
 */
export function viewerExtras(text: string, source: string): ViewerExtras {
  if (text.length > PARSE_LIMIT_BYTES) return headExtras(text);
  const record = parseJsonObject(text);
  if (record === null) return { timestamp: null, group: "conversation", command: null, detail: null, headline: null, edits: [] };
  const timestamp = nonBlankString(record.timestamp);
  const base = transcriptFormat(source)?.viewer.extras(record) ?? CONVERSATION;
  return { timestamp, ...base, headline: null, edits: [] };
}

function headExtras(text: string): ViewerExtras {
  const head = text.slice(0, 4096);
  const timestamp = /"timestamp"\s*:\s*"([^"]+)"/.exec(head)?.[1] ?? null;
  const type = /"type"\s*:\s*"([^"]+)"/.exec(head)?.[1];
  const group: RecordGroup = type === "progress" ? "progress" : type === "file-history-snapshot" ? "snapshot" : type === "system" ? "system" : "conversation";
  return { timestamp, group, command: null, detail: null, headline: null, edits: [] };
}

/** Bytes at a line's end searched for a Claude Code record's own timestamp (written after its message). */
const TAIL_BYTES = 2048;

/**
 * The viewer's extras of one line in compact mode, without parsing the lines that carry a
 * session's bulk (issue 13: a window's cost must not grow with the bytes it does not show):
 * the lines the source's format calls bulk (Claude `assistant` records and tool results, Codex
 * `response_item`s) are conversation lines with no command or detail, whose timestamp is found
 * where the format writes it: at the line's end (Claude, after the message) or head (Codex).
 * Every other line gets {@link viewerExtras}.
 */
export function compactViewerExtras(text: string, source: string, record: Pick<CompactRecord, "record_type" | "tool_results">): ViewerExtras {
  const format = transcriptFormat(source)?.viewer;
  if (format === undefined || !format.bulkLine(record)) return viewerExtras(text, source);
  const head = format.timestampAt === "head";
  const region = head ? text.slice(0, 512) : text.slice(-TAIL_BYTES);
  const matches = [...region.matchAll(/"timestamp"\s*:\s*"([^"]+)"/g)];
  const match = head ? matches[0] : matches.at(-1);
  return { timestamp: match?.[1] ?? null, group: "conversation", command: null, detail: null, headline: null, edits: [] };
}

/**
 * The viewer's extras of line `line` of an agent session (issue 38), from the whole file's replay
 * (lib/sources/agent-transcripts: its transcript, or its lines read as the transcript reads them) rather than the raw line: the record's time, its filter group
 * ({@link agentRecordGroup}), `message` for a prompt or reply with text, and `textLine` when the
 * session's lines are text (`textLines`: a Markdown history, not JSONL). In compact mode
 * (`compact` given), a line with tool calls or results has its compact summary as headline (what
 * it ran, with its rewound / replaced marks), and its calls' file edits for a diff
 * ({@link agentEdits}); a message shows its summary and text as they are.
 */
export function agentViewerExtras(transcript: AgentSession, line: number, textLines: boolean, compact: Pick<CompactRecord, "summary" | "text_preview"> | null = null): ViewerExtras {
  const record = agentLines(transcript).record(line);
  const extras: ViewerExtras = { timestamp: null, group: "conversation", command: null, detail: null, headline: null, edits: [] };
  if (textLines) extras.textLine = true;
  if (record === undefined || record.line !== line) return extras;
  extras.timestamp = record.time;
  extras.group = agentRecordGroup(record);
  const tools = record.calls.length > 0 || record.results.length > 0;
  if (compact !== null && tools) extras.headline = compact.summary;
  if (compact !== null) extras.edits = agentEdits(record);
  if (compact !== null && compact.text_preview !== null && (record.role === "user" || record.role === "assistant")) extras.message = true;
  return extras;
}

/**
 * The viewer's filter group of an agent record: `system` for the agent's own records (session
 * start, settings, notices), `conversation` for prompts, messages, tool calls and results, and
 * `progress` for markers that carry nothing to read (a turn or step starting or ending, a blank line).
 */
export function agentRecordGroup(record: AgentRecord): RecordGroup {
  if (record.role === "system") return "system";
  const empty = record.text.trim() === "" && record.calls.length === 0 && record.results.length === 0 && record.events.length === 0;
  return empty && !record.trigger && !record.isError ? "progress" : "conversation";
}

/** Characters of an edit's old or new text sent for a diff; longer texts are clipped (as Claude Code's edits are). */
const EDIT_CHARS = 20_000;

/**
 * The file edits an agent record's calls ask for, told by their input's shape whatever the tool's
 * name: a path (`file_path`, `filePath`, `path`) with an old and a new text (`old_string` /
 * `oldString` / `old_str` and their `new` forms) is an edit; a path with a whole text (`content`,
 * `file_text`) and no old text writes the file.
 */
export function agentEdits(record: AgentRecord): FileEdit[] {
  const out: FileEdit[] = [];
  const clip = (t: string) => t.slice(0, EDIT_CHARS);
  for (const call of record.calls) {
    const input = asObject(call.input);
    if (input === null) continue;
    const text = (...keys: string[]) => keys.map((k) => input[k]).find((v): v is string => typeof v === "string") ?? null;
    const filePath = text("file_path", "filePath", "path");
    if (filePath === null) continue;
    const before = text("old_string", "oldString", "old_str");
    const after = before === null ? text("content", "file_text") : text("new_string", "newString", "new_str");
    if (after === null) continue;
    out.push({ tool: call.name, file_path: filePath, old_string: clip(before ?? ""), new_string: clip(after), clipped: (before ?? "").length > EDIT_CHARS || after.length > EDIT_CHARS });
  }
  return out;
}
