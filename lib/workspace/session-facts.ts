/** A session's header facts read from its first and last lines. */
import { type LineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { asObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import type { SessionFacts } from "@/lib/workspace/schema";

/** Lines read from the start for the header facts; the end is probed for the last timestamp. */
const HEAD_LINES = 200;
const TAIL_LINES = 64;
/** Lines longer than this are skipped while probing (a tool result, not session metadata). */
const PROBE_LINE_CHARS = 256 * 1024;

/**
 * The facts of a transcript's header (issue 12 item 5): the model, the client version, the
 * working directory and git branch, from the first 200 lines (Claude Code: the records'
 * `version`, `cwd`, `gitBranch` and the first assistant `message.model`; Codex: `session_meta`
 * `cli_version`, `cwd`, `git.branch` and `turn_context` `model`), and the start (first
 * timestamp) and duration in whole seconds to the last timestamp of the final 64 lines.
 * Any fact not found is null. @throws the fs error when the file cannot be read.
 */
export async function readSessionFacts(filePath: string, index: LineIndex, source: string): Promise<SessionFacts> {
  const facts: SessionFacts = { model: null, client_version: null, cwd: null, git_branch: null, started_at: null, duration_seconds: null };
  if (index.lineCount === 0) return facts;
  const head = await readLineRange(filePath, index, 1, Math.min(HEAD_LINES, index.lineCount));
  let first: number | null = null;
  for (const { text } of head) {
    if (text.length > PROBE_LINE_CHARS) continue;
    const record = parseJsonObject(text);
    if (record === null) continue;
    first ??= parseAwareTimestamp(record.timestamp);
    if (source === "codex") {
      const payload = asObject(record.payload);
      if (record.type === "session_meta" && payload) {
        facts.client_version ??= nonBlankString(payload.cli_version);
        facts.cwd ??= nonBlankString(payload.cwd);
        facts.git_branch ??= nonBlankString(asObject(payload.git)?.branch);
      }
      if (record.type === "turn_context" && payload) facts.model ??= nonBlankString(payload.model);
    } else {
      facts.client_version ??= nonBlankString(record.version);
      facts.cwd ??= nonBlankString(record.cwd);
      facts.git_branch ??= nonBlankString(record.gitBranch);
      const model = record.type === "assistant" ? nonBlankString(asObject(record.message)?.model) : null;
      if (model && model !== "<synthetic>") facts.model ??= model;
    }
  }
  const tail = await readLineRange(filePath, index, Math.max(1, index.lineCount - TAIL_LINES + 1), index.lineCount);
  let last: number | null = null;
  for (const { text } of tail.reverse()) {
    const stamp = /"timestamp"\s*:\s*"([^"]+)"/.exec(text.slice(0, 4096))?.[1];
    last = stamp ? parseAwareTimestamp(stamp) : null;
    if (last !== null) break;
  }
  if (first !== null) {
    facts.started_at = new Date(first).toISOString();
    if (last !== null) facts.duration_seconds = Math.max(0, Math.round((last - first) / 1000));
  }
  return facts;
}
