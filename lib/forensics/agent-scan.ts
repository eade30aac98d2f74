/**
 * The forensics scan of a session of an agent read through the source contract (issue 38), from
 * the records its reader gives: the same events, stats and findings lib/forensics/scan builds
 * from Claude Code and Codex lines.
 */
import { agentContextResets } from "@/lib/analysis/agent-analysis";
import { filesTouched, isAgentReply, promptText } from "@/lib/forensics/agent-session";
import { toolFamily } from "@/lib/forensics/classify";
import { MAX_KEPT_FINDINGS, type Finding } from "@/lib/forensics/schema";
import { ACTORS } from "@/lib/forensics/scan-map";
import { emptyStats, MAX_USER_MESSAGES, type SessionScan, type SessionStats } from "@/lib/forensics/scan-types";
import { oneLine } from "@/lib/format/one-line";
import type { AgentEvent, AgentTranscript } from "@/lib/sources/common/agent-source";
import type { SessionFile } from "@/lib/workspace/sessions";

/**
 * Agent events that get a timeline row of their own, after their record's row: the event is its
 * `event_type`, so a rewind, a resume or a model change can be picked out like any event.
 * `metadata` is left out: its line's own row (a `$set`) already says what was set.
 */
const TIMELINE_EVENT_KINDS: ReadonlySet<AgentEvent["kind"]> = new Set(["rewind", "rewound", "replaced", "replacement", "run_start", "resume", "shutdown", "model_change"]);

/** The events of a record that get a timeline row of their own, in the record's order. */
export function timelineEvents(events: readonly AgentEvent[]): AgentEvent[] {
  return events.filter((e) => TIMELINE_EVENT_KINDS.has(e.kind));
}

const ERROR_MESSAGE_CHARS = 200;

/**
 * The scan of an agent session whose main transcript is `files[0]` (the agent's workspace file;
 * an agent has no subagent or tool-result files): one event per record (its `type`, its role as
 * the actor, `system` when it has none), then one per {@link timelineEvents} event of it (the
 * event's kind as its type), in timeline order: by time, a record without one taking the time of
 * the record before it, then by line (an event right after its record). Stats: the prompts
 * (each trigger's text, lib/forensics/agent-session), replies, tool calls by name and family
 * (lib/forensics/classify, shell calls by their `command`), each result matched to its call by
 * id (or, without ids, to the oldest unanswered call of its name); findings: failed results
 * (`tool_error`), other error records (`error`), the reader's warnings (`source_warning`) and
 * context resets over the usage on the lines (`context_reset`, lib/analysis/agent-analysis).
 */
export function agentScan(files: SessionFile[], transcript: AgentTranscript, source: string): SessionScan {
  const main = files[0]!;
  const stats = emptyStats();
  const ts: number[] = [];
  const lines: number[] = [];
  const typeIds: number[] = [];
  const actorIds: number[] = [];
  const types: string[] = [];
  const typeIndex = new Map<string, number>();
  const push = (time: number, line: number, type: string, actor: number) => {
    let id = typeIndex.get(type);
    if (id === undefined) {
      id = types.push(type) - 1;
      typeIndex.set(type, id);
    }
    ts.push(time);
    lines.push(line);
    typeIds.push(id);
    actorIds.push(actor);
  };
  const finding = (list: "errors" | "warnings", type: string, message: string, line: number, time: number) =>
    addFinding(stats, list, { type, message, source: "main", file: main.relative, line, timestamp: Number.isNaN(time) ? null : new Date(time).toISOString() });

  const pending = new Map<string, string>();
  const unanswered = new Map<string, number>();
  const { records } = transcript;
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const time = r.time === null ? NaN : Date.parse(r.time);
    push(time, r.line, r.type, ACTORS.indexOf(r.role ?? "system"));
    for (const e of timelineEvents(r.events)) push(time, r.line, e.kind, ACTORS.indexOf("system"));
    if (r.trigger) {
      stats.userPromptCount += 1;
      if (stats.userMessages.length < MAX_USER_MESSAGES) stats.userMessages.push({ text: promptText(transcript, r) ?? "", file: main.relative, line: r.line });
    }
    if (isAgentReply(r)) stats.mainReplies += 1;
    for (const call of r.calls) {
      const family = toolFamily(call.name, commandOf(call.input));
      stats.toolCalls += 1;
      const counts = stats.byTool.get(call.name) ?? { called: 0, succeeded: 0, failed: 0, family };
      counts.called += 1;
      stats.byTool.set(call.name, counts);
      const fam = stats.families.get(family) ?? { called: 0, failed: 0 };
      fam.called += 1;
      stats.families.set(family, fam);
      if (call.id !== null) pending.set(call.id, call.name);
      else unanswered.set(call.name, (unanswered.get(call.name) ?? 0) + 1);
    }
    let failedResult = false;
    for (const result of r.results) {
      let name: string | undefined;
      if (result.id !== null && pending.has(result.id)) {
        name = pending.get(result.id);
        pending.delete(result.id);
      } else if (result.id === null && result.name !== null && (unanswered.get(result.name) ?? 0) > 0) {
        name = result.name;
        unanswered.set(name, unanswered.get(name)! - 1);
      }
      const counts = name === undefined ? undefined : stats.byTool.get(name);
      if (counts) {
        if (result.isError) counts.failed += 1;
        else counts.succeeded += 1;
      }
      if (!result.isError) continue;
      failedResult = true;
      stats.toolFailures += 1;
      if (counts) stats.families.get(counts.family)!.failed += 1;
      finding("errors", "tool_error", `${name ?? result.name ?? "tool"} failed`, r.line, time);
    }
    if (r.isError && !failedResult) finding("errors", "error", oneLine(r.headline || r.text || r.type, ERROR_MESSAGE_CHARS), r.line, time);
  }
  for (const w of transcript.warnings) {
    const m = /^lines? (\d+)/.exec(w.where);
    finding("warnings", "source_warning", oneLine(w.problem, ERROR_MESSAGE_CHARS), m ? Number(m[1]) : 1, NaN);
  }
  for (const reset of agentContextResets(transcript)) {
    finding("warnings", "context_reset", `context reset: cached context fell from ${reset.from_tokens} to ${reset.to_tokens} tokens (${reset.position_percent}% into the session)`, reset.session_line, NaN);
  }
  stats.warnings.sort((a, b) => a.line - b.line);
  stats.filesTouched = filesTouched(transcript);
  const n = ts.length;
  stats.eventsBySource.main = n;
  const sortKey = new Float64Array(n);
  let prev = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    if (!Number.isNaN(ts[k]!)) prev = ts[k]!;
    sortKey[k] = prev;
  }
  const order = Uint32Array.from({ length: n }, (_, k) => k).sort((a, b) => sortKey[a]! - sortKey[b]! || a - b);
  return {
    source,
    files,
    count: n,
    ts: Float64Array.from(ts),
    fileIndex: new Uint32Array(n),
    line: Uint32Array.from(lines),
    typeId: Uint16Array.from(typeIds),
    actorId: Uint8Array.from(actorIds),
    types,
    order,
    sortKey,
    stats,
  };
}

/** The shell command a call's input names (`command`, `cmd`), for {@link toolFamily}; null when none. */
function commandOf(input: unknown): string | null {
  if (typeof input !== "object" || input === null) return null;
  const o = input as Record<string, unknown>;
  const command = o.command ?? o.cmd;
  return typeof command === "string" ? command : null;
}

function addFinding(stats: SessionStats, list: "errors" | "warnings", f: Finding): void {
  const counts = list === "errors" ? stats.errorCounts : stats.warningCounts;
  counts.set(f.type, (counts.get(f.type) ?? 0) + 1);
  if (stats[list].length < MAX_KEPT_FINDINGS) stats[list].push(f);
}
