/** A session's header facts read from its first lines, with its clock. */
import { type LineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { asObject, parseJsonObject } from "@/lib/sources/common/json-object";
import type { SessionClock } from "@/lib/workspace/session-clock";
import type { SessionFacts } from "@/lib/workspace/schema";

/** Lines read from the start for the header facts. */
const HEAD_LINES = 200;
/** Lines longer than this are skipped while probing (a tool result, not session metadata). */
const PROBE_LINE_CHARS = 256 * 1024;

/**
 * The facts of a transcript's header (issue 12 item 5): the model, the client version, the
 * working directory and git branch, from the first 200 lines (Claude Code: the records'
 * `version`, `cwd`, `gitBranch` and the first assistant `message.model`; Codex: `session_meta`
 * `cli_version`, `cwd`, `git.branch` and `turn_context` `model`), and the start and duration in
 * whole seconds of `clock` (lib/workspace/session-clock: the earliest and latest record
 * timestamp, as the session list and `session_overview` have them). Any fact not found is null.
 * A session of an agent read through the source contract (lib/sources/agents) has the first model
 * its records name; its records carry no client version, working directory or branch as such
 * (the contract has none), so those are null.
 * @throws the fs error when the file cannot be read.
 */
export async function readSessionFacts(filePath: string, index: LineIndex, source: string, clock: SessionClock): Promise<SessionFacts> {
  const facts: SessionFacts = { model: null, client_version: null, cwd: null, git_branch: null, started_at: clock.started_at, duration_seconds: clock.duration_seconds };
  if (index.lineCount === 0) return facts;
  const transcript = await readAgentTranscript(source, filePath);
  if (transcript !== null) {
    facts.model = transcript.records.find((r) => r.model !== null && r.model.trim() !== "")?.model ?? null;
    return facts;
  }
  const head = await readLineRange(filePath, index, 1, Math.min(HEAD_LINES, index.lineCount));
  for (const { text } of head) {
    if (text.length > PROBE_LINE_CHARS) continue;
    const record = parseJsonObject(text);
    if (record === null) continue;
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
  return facts;
}
