/** The viewer's extras of a Claude Code line (issue 12): slash commands, summaries, system and progress text, snapshots. */
import { readableUserText, slashCommandText } from "@/lib/format/display-text";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { clipDetail, CONVERSATION, type LineExtras } from "@/lib/sources/common/viewer-detail";

/**
 * The group, slash command and detail of one parsed Claude Code line: a user message's command,
 * a summary's title, a system record's content or subtype text, progress output, a snapshot's
 * tracked files, a queue operation; an unknown type is a system line.
 */
export function claudeExtras(record: JsonObject): LineExtras {
  const type = nonBlankString(record.type);
  switch (type) {
    case "user": {
      const content = asObject(record.message)?.content;
      const command = typeof content === "string" ? slashCommandText(content) : null;
      return { group: "conversation", command, detail: null };
    }
    case "assistant":
      return CONVERSATION;
    case "summary":
      return { group: "system", command: null, detail: clipDetail(nonBlankString(record.summary)) };
    case "system":
      return { group: "system", command: typeof record.content === "string" ? slashCommandText(record.content) : null, detail: clipDetail(systemText(record)) };
    case "progress":
      return { group: "progress", command: null, detail: clipDetail(progressText(asObject(record.data))) };
    case "file-history-snapshot": {
      const backups = asObject(asObject(record.snapshot)?.trackedFileBackups);
      const files = backups ? Object.keys(backups) : [];
      return { group: "snapshot", command: null, detail: files.length ? `Tracked files: ${files.join(", ")}` : "No tracked file changes." };
    }
    case "queue-operation":
      return { group: "system", command: null, detail: clipDetail([nonBlankString(record.operation), typeof record.content === "string" ? record.content : null].filter(Boolean).join(": ")) };
    default:
      return { group: type === null ? "conversation" : "system", command: null, detail: null };
  }
}

function systemText(record: JsonObject): string | null {
  if (typeof record.content === "string" && record.content.trim() !== "") return readableUserText(record.content);
  const subtype = nonBlankString(record.subtype);
  if (subtype === "turn_duration" && typeof record.durationMs === "number") return `Turn took ${formatMs(record.durationMs)}.`;
  if (subtype === "stop_hook_summary" && Array.isArray(record.hookInfos)) {
    const commands = record.hookInfos.map((h) => nonBlankString(asObject(h)?.command)).filter((c): c is string => c !== null);
    const errors = Array.isArray(record.hookErrors) ? record.hookErrors.length : 0;
    return `Stop hooks ran: ${commands.join("; ") || "none"}${errors ? ` (${errors} error${errors === 1 ? "" : "s"})` : ""}.`;
  }
  return null;
}

function progressText(data: JsonObject | null): string | null {
  if (data === null) return null;
  const type = nonBlankString(data.type);
  if (type === "hook_progress") return [nonBlankString(data.hookName) ?? nonBlankString(data.hookEvent), nonBlankString(data.command)].filter(Boolean).join(": ");
  if (type === "bash_progress") return typeof data.output === "string" ? data.output : typeof data.fullOutput === "string" ? data.fullOutput : null;
  if (type === "waiting_for_task") return nonBlankString(data.taskDescription) ? `Waiting for: ${String(data.taskDescription)}` : null;
  if (type === "agent_progress") {
    const message = asObject(asObject(data.message)?.message);
    const content = message?.content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((c) => nonBlankString(asObject(c)?.text)).filter(Boolean).join("\n") || null;
  }
  return type;
}

function formatMs(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}
