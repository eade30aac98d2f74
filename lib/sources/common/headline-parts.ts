/** What every source's headline reader shares (issue 29): a tool call as `Name(main argument)`, the calls seen so far. */
import { diffLines } from "diff";

import { oneLine } from "@/lib/format/one-line";
import type { CompactRecord } from "@/lib/sources/common/compact-record";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";

/** Characters of one headline; longer ones end in `…`. */
export const HEADLINE_CHARS = 200;
/** Characters of a tool argument shown inside `Name(…)`. */
export const ARG_CHARS = 80;

/** What a headline needs of the compact record (the contract's record, untouched). */
export type HeadlineRecord = Pick<CompactRecord, "record_type" | "role" | "text_preview" | "tool_uses" | "tool_results">;

/**
 * Tool calls seen so far in reading order, by `tool_use_id` → the call's headline
 * (`Bash(npm test)`), so that a result line names its call: `Bash(npm test) → exit 1`.
 * Filled by lib/session-reader's `lineHeadline`; one per window or timeline page.
 */
export type ToolCallNames = Map<string, string>;

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

/** `p` relative to `cwd` when it lies inside it, else `p` as written. */
export function relativePath(p: string, cwd: string | null): string {
  if (cwd && p.startsWith(`${cwd}/`)) return p.slice(cwd.length + 1);
  return p;
}
