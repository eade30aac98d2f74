/** One line saying what a transcript line did (issue 29): `Read(src/auth.ts)`, `Bash(npm test) → exit 1`, an API error, a hook. */
import { diffLines } from "diff";

import { oneLine } from "@/lib/format/one-line";
import { asObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import type { CompactRecord, FileEdit } from "./schema";

/** Characters of one headline; longer ones end in `…`. */
export const HEADLINE_CHARS = 200;
/** Lines over this size are not parsed for a headline (a 50 MB tool result): the compact record alone is used. */
const PARSE_LIMIT_CHARS = 2 << 20;
/** Characters of a tool argument shown inside `Name(…)`. */
const ARG_CHARS = 80;

/** What a headline needs of the compact record (the contract's record, untouched). */
export type HeadlineRecord = Pick<CompactRecord, "record_type" | "role" | "text_preview" | "tool_uses" | "tool_results">;

/**
 * Tool calls seen so far in reading order, by `tool_use_id` → the call's headline
 * (`Bash(npm test)`), so that a result line names its call: `Bash(npm test) → exit 1`.
 * Filled by {@link lineHeadline}; one per window or timeline page.
 */
export type ToolCallNames = Map<string, string>;

/**
 * The headline of one physical line (`text`, the raw JSONL line) of a Claude Code or Codex
 * transcript, given its compact record: tool calls as `Name(main argument)` (`Edit(path, +12 −3)`
 * counts changed lines), results as `<call> → exit 1` / `→ ok`, system records by subtype
 * (`API error 529 overloaded_error (retry 2/10)`), a summary's text, a hook's name and outcome,
 * progress output. Null when the record's own text says it all (a plain message). Never throws.
 * `calls` links results to calls across lines (Claude `tool_use_id`, Codex `call_id`).
 */
export function lineHeadline(text: string, source: string, record: HeadlineRecord, calls: ToolCallNames = new Map()): string | null {
  return lineView(text, source, record, calls).headline;
}

/** Characters of an edit's old or new text sent for a diff; longer texts are clipped. */
const EDIT_CHARS = 20_000;

/**
 * {@link lineHeadline} and the file edits of the line's `Edit` / `MultiEdit` / `Write` calls
 * (Claude Code), parsed once. `edits` is empty for every other line.
 */
export function lineView(text: string, source: string, record: HeadlineRecord, calls: ToolCallNames = new Map()): { headline: string | null; edits: FileEdit[] } {
  // A plain message or a tool result says what it did without a parse (issue 13: bulk lines stay unparsed).
  const message = record.record_type === "user" || record.record_type === "assistant";
  const needsParse = source === "codex" || record.tool_uses.length > 0 || (!message && record.tool_results.length === 0);
  if (source !== "codex" && message && !needsParse && record.tool_results.length === 0) return { headline: null, edits: [] };
  const raw = !needsParse || text.length > PARSE_LIMIT_CHARS ? null : parseJsonObject(text);
  const line = source === "codex" ? codexHeadline(raw, record, calls) : claudeHeadline(raw, text, record, calls);
  return { headline: line === null ? null : oneLine(line, HEADLINE_CHARS), edits: source === "codex" || raw === null ? [] : fileEdits(raw) };
}

function fileEdits(raw: JsonObject): FileEdit[] {
  const content = asObject(raw.message)?.content;
  if (!Array.isArray(content)) return [];
  const out: FileEdit[] = [];
  const clip = (t: unknown) => (typeof t === "string" ? t.slice(0, EDIT_CHARS) : "");
  const long = (t: unknown) => typeof t === "string" && t.length > EDIT_CHARS;
  for (const item of content) {
    const part = asObject(item);
    if (part?.type !== "tool_use") continue;
    const tool = nonBlankString(part.name);
    const input = asObject(part.input) ?? {};
    const filePath = nonBlankString(input.file_path) ?? "";
    if (tool === "Edit") out.push({ tool, file_path: filePath, old_string: clip(input.old_string), new_string: clip(input.new_string), clipped: long(input.old_string) || long(input.new_string) });
    else if (tool === "Write") out.push({ tool, file_path: filePath, old_string: "", new_string: clip(input.content), clipped: long(input.content) });
    else if (tool === "MultiEdit" && Array.isArray(input.edits)) {
      for (const edit of input.edits) {
        const e = asObject(edit) ?? {};
        out.push({ tool, file_path: filePath, old_string: clip(e.old_string), new_string: clip(e.new_string), clipped: long(e.old_string) || long(e.new_string) });
      }
    }
  }
  return out;
}

function claudeHeadline(raw: JsonObject | null, text: string, record: HeadlineRecord, calls: ToolCallNames): string | null {
  const type = raw ? nonBlankString(raw.type) : null;
  const cwd = raw ? nonBlankString(raw.cwd) : null;
  if (record.tool_uses.length > 0) {
    const content = asObject(raw?.message)?.content;
    const uses = Array.isArray(content) ? content.map(asObject).filter((p): p is JsonObject => p?.type === "tool_use") : [];
    if (uses.length === 0) return record.tool_uses.map((u) => `${u.name}(${argFromSummary(u.input_summary)})`).join(" · ");
    return uses
      .map((use) => {
        const head = callHeadline(nonBlankString(use.name) ?? "unknown", asObject(use.input) ?? {}, cwd);
        const id = nonBlankString(use.id);
        if (id) calls.set(id, head);
        return head;
      })
      .join(" · ");
  }
  if (record.tool_results.length > 0) {
    // The id precedes the (possibly huge) content: a head search finds it without a parse.
    const ids = [...text.slice(0, 4096).matchAll(/"tool_use_id"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!);
    return record.tool_results
      .map((result, i) => {
        const call = ids[i] ? calls.get(ids[i]!) : undefined;
        // A known call already names its path.
        return `${call ?? "Result"} → ${resultOutcome(result.status, result.preview, call ? null : result.file_path, cwd)}`;
      })
      .join(" · ");
  }
  if (raw === null) return null;
  switch (type) {
    case "system":
      return systemHeadline(raw);
    case "summary":
      return nonBlankString(raw.summary) ? `Summary: ${String(raw.summary)}` : null;
    case "progress":
      return progressHeadline(asObject(raw.data));
    case "attachment":
      return attachmentHeadline(asObject(raw.attachment));
    case "file-history-snapshot": {
      const backups = asObject(asObject(raw.snapshot)?.trackedFileBackups);
      const n = backups ? Object.keys(backups).length : 0;
      return `File snapshot: ${n} tracked file${n === 1 ? "" : "s"}`;
    }
    case "queue-operation":
      return [`Queue ${nonBlankString(raw.operation) ?? "operation"}`, typeof raw.content === "string" ? raw.content : null].filter(Boolean).join(": ");
    default:
      return null;
  }
}

/** `Name(main argument)` of one tool call; Edit/MultiEdit/Write add changed-line counts. */
export function callHeadline(name: string, input: JsonObject, cwd: string | null = null): string {
  const str = (key: string) => nonBlankString(input[key]);
  const path = (key: string) => (str(key) ? relativePath(str(key)!, cwd) : null);
  switch (name) {
    case "Read":
    case "NotebookRead":
      return `${name}(${path("file_path") ?? path("notebook_path") ?? ""})`;
    case "Edit": {
      const { added, removed } = changedLines(str("old_string") ?? "", str("new_string") ?? "");
      return `Edit(${path("file_path") ?? ""}, +${added} −${removed})`;
    }
    case "MultiEdit": {
      let added = 0;
      let removed = 0;
      for (const edit of Array.isArray(input.edits) ? input.edits : []) {
        const e = asObject(edit);
        const counts = changedLines(nonBlankString(e?.old_string) ?? "", nonBlankString(e?.new_string) ?? "");
        added += counts.added;
        removed += counts.removed;
      }
      return `MultiEdit(${path("file_path") ?? ""}, +${added} −${removed})`;
    }
    case "Write":
      return `Write(${path("file_path") ?? ""}, +${lineCount(typeof input.content === "string" ? input.content : "")})`;
    case "Bash":
      return `Bash(${oneLine(str("command") ?? "", ARG_CHARS)})`;
    case "Grep":
    case "Glob":
      return `${name}(${oneLine(str("pattern") ?? "", ARG_CHARS)}${str("path") ? `, ${relativePath(str("path")!, cwd)}` : ""})`;
    case "Task":
    case "Agent":
      return `${name}(${oneLine(str("description") ?? str("subagent_type") ?? "", ARG_CHARS)})`;
    case "TodoWrite":
      return `TodoWrite(${Array.isArray(input.todos) ? input.todos.length : 0} todos)`;
    default: {
      // The first short string argument says most (url, query, skill, command…).
      const first = Object.values(input).find((v): v is string => typeof v === "string" && v.trim() !== "");
      return `${name}(${first ? oneLine(first, ARG_CHARS) : ""})`;
    }
  }
}

/** Lines added and removed between two texts (a line diff, as a unified diff counts them). */
export function changedLines(before: string, after: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return { added, removed };
}

function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

function relativePath(p: string, cwd: string | null): string {
  if (cwd && p.startsWith(`${cwd}/`)) return p.slice(cwd.length + 1);
  return p;
}

/** A call's main argument read from its bounded compact input (`{"file_path":"…"}`), for lines too big to parse. */
function argFromSummary(summary: string): string {
  const m = /"(?:file_path|command|pattern|path|description|url|query)"\s*:\s*"((?:[^"\\]|\\.){0,200})/.exec(summary);
  return m ? oneLine(m[1]!.replace(/\\n/g, " ").replace(/\\"/g, '"'), ARG_CHARS) : "";
}

/** `exit 1`, `error: …`, `ok · 12 lines`, from a result's status and preview head. */
function resultOutcome(status: string | null, preview: string | null, filePath: string | null, cwd: string | null): string {
  const head = preview ?? "";
  const exit = /^(?:Error: )?Exit code:? (\d+)/.exec(head.trimStart());
  if (exit) return `exit ${exit[1]}`;
  const failed = status !== null && /fail|error|denied|cancel/i.test(status);
  if (failed) return `error: ${oneLine(head.replace(/<\/?tool_use_error>/g, ""), 120) || status}`;
  const lines = head === "" ? 0 : head.split("\n").length;
  const where = filePath ? `${relativePath(filePath, cwd)} · ` : "";
  return `${where}ok${lines > 0 ? ` · ${oneLine(head, 80)}` : ""}`;
}

function systemHeadline(raw: JsonObject): string | null {
  const subtype = nonBlankString(raw.subtype);
  if (subtype === "api_error") {
    const error = asObject(raw.error);
    const inner = asObject(error?.error);
    const type = nonBlankString(asObject(inner?.error)?.type) ?? nonBlankString(inner?.type) ?? nonBlankString(error?.type);
    const status = typeof error?.status === "number" ? String(error.status) : null;
    const attempt = typeof raw.retryAttempt === "number" ? raw.retryAttempt : null;
    const max = typeof raw.maxRetries === "number" ? raw.maxRetries : null;
    const message = nonBlankString(asObject(inner?.error)?.message) ?? nonBlankString(error?.message);
    const retry = attempt !== null ? ` (retry ${attempt}${max !== null ? `/${max}` : ""})` : "";
    return `API error${status ? ` ${status}` : ""}${type ? ` ${type}` : ""}${retry}${message && message.toLowerCase() !== type?.replace(/_error$/, "") ? `: ${message}` : ""}`;
  }
  if (subtype === "stop_hook_summary") {
    const n = Array.isArray(raw.hookInfos) ? raw.hookInfos.length : 0;
    const errors = Array.isArray(raw.hookErrors) ? raw.hookErrors.length : 0;
    const outcome = raw.preventedContinuation === true ? "prevented continuation" : errors > 0 ? `${errors} error${errors === 1 ? "" : "s"}` : "ok";
    return `Stop hooks: ${n} ran → ${outcome}`;
  }
  if (subtype === "turn_duration" && typeof raw.durationMs === "number") return `Turn took ${(raw.durationMs / 1000).toFixed(1)} s`;
  if (subtype === "compact_boundary") {
    const meta = asObject(raw.compactMetadata);
    const trigger = nonBlankString(meta?.trigger);
    return `Conversation compacted${trigger ? ` (${trigger})` : ""}`;
  }
  const content = typeof raw.content === "string" ? raw.content.replace(/<[^>]+>/g, " ") : null;
  return `${subtype ?? "system"}${content && content.trim() ? `: ${content}` : ""}`;
}

function progressHeadline(data: JsonObject | null): string | null {
  if (data === null) return null;
  const type = nonBlankString(data.type);
  if (type === "hook_progress") {
    const name = nonBlankString(data.hookName) ?? nonBlankString(data.hookEvent) ?? "hook";
    return `Hook ${name} → running ${nonBlankString(data.command) ?? ""}`;
  }
  if (type === "bash_progress") {
    const out = typeof data.output === "string" ? data.output.trim().split("\n").at(-1) ?? "" : "";
    return `Bash progress${out ? `: ${out}` : ""}`;
  }
  if (type === "waiting_for_task") return `Waiting for task${nonBlankString(data.taskDescription) ? `: ${String(data.taskDescription)}` : ""}`;
  if (type === "agent_progress") return "Subagent progress";
  return type;
}

function attachmentHeadline(attachment: JsonObject | null): string | null {
  if (attachment === null) return null;
  const type = nonBlankString(attachment.type) ?? "attachment";
  if (type.startsWith("hook_")) {
    const name = nonBlankString(attachment.hookName) ?? nonBlankString(attachment.hookEvent) ?? "hook";
    const outcome = type.replace(/^hook_/, "").replace(/_/g, " ");
    const exit = typeof attachment.exitCode === "number" ? ` (exit ${attachment.exitCode})` : "";
    return `Hook ${name} → ${outcome}${exit}`;
  }
  return `Attachment: ${type}`;
}

function codexHeadline(raw: JsonObject | null, record: HeadlineRecord, calls: ToolCallNames): string | null {
  const payload = asObject(raw?.payload);
  const ptype = nonBlankString(payload?.type);
  if ((ptype === "function_call" || ptype === "custom_tool_call") && payload) {
    const name = nonBlankString(payload.name) ?? "tool";
    const args = typeof payload.arguments === "string" ? parseJsonObject(payload.arguments) : null;
    const head = args ? codexCall(name, args) : `${name}(${oneLine(typeof payload.input === "string" ? payload.input : "", ARG_CHARS)})`;
    const id = nonBlankString(payload.call_id);
    if (id) calls.set(id, head);
    return head;
  }
  if ((ptype === "function_call_output" || ptype === "custom_tool_call_output") && payload) {
    const id = nonBlankString(payload.call_id);
    const call = (id && calls.get(id)) || "Result";
    const preview = record.tool_results[0]?.preview ?? "";
    const exit = /(?:Exit code|exit_code)"?:?\s*(\d+)/.exec(preview.slice(0, 400));
    return `${call} → ${exit ? `exit ${exit[1]}` : "ok"}`;
  }
  if (record.tool_results.length > 0) {
    const r = record.tool_results[0]!;
    return `${r.command ? `exec(${oneLine(r.command, ARG_CHARS)})` : r.kind} → ${r.status ?? "done"}`;
  }
  if (record.record_type.startsWith("event_msg") && ptype && !/message|reasoning/.test(ptype)) return ptype.replace(/_/g, " ");
  return null;
}

function codexCall(name: string, args: JsonObject): string {
  const cmd = args.cmd ?? args.command;
  if (typeof cmd === "string") return `${name}(${oneLine(cmd, ARG_CHARS)})`;
  if (Array.isArray(cmd)) return `${name}(${oneLine(cmd.map(String).join(" "), ARG_CHARS)})`;
  return callHeadline(name, args);
}
