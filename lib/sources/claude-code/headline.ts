/** Claude Code lines in one line each (issue 29): tool calls, results by their call, system records, hooks, progress; file edits for a diff. */
import { oneLine } from "@/lib/format/one-line";
import type { FileEdit } from "@/lib/sources/common/compact-record";
import { ARG_CHARS, callHeadline, relativePath, type HeadlineRecord, type ToolCallNames } from "@/lib/sources/common/headline-parts";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";

/** Characters of an edit's old or new text sent for a diff; longer texts are clipped. */
const EDIT_CHARS = 20_000;

/** The file edits of a parsed line's `Edit` / `MultiEdit` / `Write` calls, texts clipped to 20,000 characters (`clipped`). */
export function claudeFileEdits(raw: JsonObject): FileEdit[] {
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

/**
 * The headline of a Claude Code line (`raw` parsed, or null when too big to parse; `text` the raw
 * line) given its compact record: calls as `Name(main argument)` (registered in `calls` by id),
 * results as `<call> → exit 1` / `→ ok`, system records by subtype, summaries, hooks, progress.
 * Null when the record's own text says it all.
 */
export function claudeHeadline(raw: JsonObject | null, text: string, record: HeadlineRecord, calls: ToolCallNames): string | null {
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
