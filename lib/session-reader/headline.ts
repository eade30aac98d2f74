/** One line saying what a transcript line did (issue 29): `Read(src/auth.ts)`, `Bash(npm test) → exit 1`, an API error, a hook. */
import { oneLine } from "@/lib/format/one-line";
import { HEADLINE_CHARS, type HeadlineRecord, type ToolCallNames } from "@/lib/sources/common/headline-parts";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { lineHeadlines } from "@/lib/sources/headlines";
import type { FileEdit } from "./schema";

export { HEADLINE_CHARS, type HeadlineRecord, type ToolCallNames } from "@/lib/sources/common/headline-parts";

/** Lines over this size are not parsed for a headline (a 50 MB tool result): the compact record alone is used. */
const PARSE_LIMIT_CHARS = 2 << 20;

/**
 * The headline of one physical line (`text`, the raw JSONL line) of a Claude Code or Codex
 * transcript, given its compact record: tool calls as `Name(main argument)` (`Edit(path, +12 −3)`
 * counts changed lines), results as `<call> → exit 1` / `→ ok`, system records by subtype
 * (`API error 529 overloaded_error (retry 2/10)`), a summary's text, a hook's name and outcome,
 * progress output, each by the source's headlines (lib/sources/headlines). Null when the record's own
 * text says it all (a plain message), and for a source without a JSONL format. Never throws.
 * `calls` links results to calls across lines (Claude `tool_use_id`, Codex `call_id`).
 */
export function lineHeadline(text: string, source: string, record: HeadlineRecord, calls: ToolCallNames = new Map()): string | null {
  return lineView(text, source, record, calls).headline;
}

/**
 * {@link lineHeadline} and the file edits of the line's `Edit` / `MultiEdit` / `Write` calls
 * (Claude Code), parsed once. `edits` is empty for every other line.
 */
export function lineView(text: string, source: string, record: HeadlineRecord, calls: ToolCallNames = new Map()): { headline: string | null; edits: FileEdit[] } {
  const format = lineHeadlines(source);
  if (format === null) return { headline: null, edits: [] };
  // A plain message or a tool result says what it did without a parse (issue 13: bulk lines stay unparsed).
  const message = record.record_type === "user" || record.record_type === "assistant";
  const needsParse = format.parsesMessages || record.tool_uses.length > 0 || (!message && record.tool_results.length === 0);
  if (message && !needsParse && record.tool_results.length === 0) return { headline: null, edits: [] };
  const raw = !needsParse || text.length > PARSE_LIMIT_CHARS ? null : parseJsonObject(text);
  const line = format.of(raw, text, record, calls);
  return { headline: line === null ? null : oneLine(line, HEADLINE_CHARS), edits: raw === null ? [] : format.edits(raw) };
}
