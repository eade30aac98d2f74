/** A session's header facts read from its first lines, with its clock. */
import { type LineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { readAgentLines, type LineFactsStore } from "@/lib/sources/agent-transcripts";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import type { SessionClock } from "@/lib/workspace/session-clock";
import type { SessionFacts } from "@/lib/workspace/schema";

/** Lines read from the start for the header facts. */
const HEAD_LINES = 200;
/** Lines longer than this are skipped while probing (a tool result, not session metadata). */
const PROBE_LINE_CHARS = 256 * 1024;

/**
 * The facts of a transcript's header (issue 12 item 5): the model, the client version, the
 * working directory and git branch, from the first 200 lines, each read by the source's format
 * (lib/sources/formats `headFacts`: Claude Code's records' `version`, `cwd`, `gitBranch` and first
 * assistant `message.model`; Codex's `session_meta` and `turn_context`), and the start and duration in
 * whole seconds of `clock` (lib/workspace/session-clock: the earliest and latest record
 * timestamp, as the session list and `session_overview` have them). Any fact not found is null.
 * A session of an agent read through the source contract (lib/sources/agents) has the first model
 * its records name; its records carry no client version, working directory or branch as such
 * (the contract has none), so those are null.
 * @throws the fs error when the file cannot be read.
 */
export async function readSessionFacts(filePath: string, index: LineIndex, source: string, clock: SessionClock, store?: LineFactsStore): Promise<SessionFacts> {
  const facts: SessionFacts = { model: null, client_version: null, cwd: null, git_branch: null, started_at: clock.started_at, duration_seconds: clock.duration_seconds };
  if (index.lineCount === 0) return facts;
  // An agent session's records are read from the first on, until one names a model.
  const lines = await readAgentLines(source, filePath, undefined, store);
  if (lines !== null) {
    for (let line = 1; line <= lines.lineCount && facts.model === null; line++) {
      const model = lines.record(line)!.model;
      if (model !== null && model.trim() !== "") facts.model = model;
    }
    return facts;
  }
  const headFacts = transcriptFormat(source)?.headFacts;
  if (headFacts === undefined) return facts;
  const head = await readLineRange(filePath, index, 1, Math.min(HEAD_LINES, index.lineCount));
  for (const { text } of head) {
    if (text.length > PROBE_LINE_CHARS) continue;
    const record = parseJsonObject(text);
    if (record !== null) headFacts(record, facts);
  }
  return facts;
}
