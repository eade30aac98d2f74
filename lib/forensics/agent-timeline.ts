/**
 * `reconstruct_session` rows of a session of an agent read through the source contract (issue 38):
 * each record's row read off its compact record (lib/session-reader/compact-agent, what
 * `read_session_lines` shows), and a row for each of the agent's own events.
 */
import { timelineEvents } from "@/lib/forensics/agent-scan";
import { NO_LINE_TIMES, RUN_START_TIMES_NOTE } from "@/lib/forensics/agent-session";
import type { SessionScan } from "@/lib/forensics/scan";
import type { ReconstructSessionInput } from "@/lib/forensics/schema";
import { oneLine } from "@/lib/format/one-line";
import { HEADLINE_CHARS } from "@/lib/session-reader/headline";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import type { AgentLines, AgentSource } from "@/lib/sources/common/agent-source";

/**
 * What a timeline of an agent session says besides its rows: `not_recorded`, the concepts the
 * agent does not record (its source's `absent`, as each transcript says: `cost`, `subagents`, `per-line times` …, so a
 * missing figure reads as not recorded rather than 0), and `time_note`, set when the records'
 * times are not their own (every row of a run shows the run's start), else null.
 */
export function agentTimelineNotes(agent: AgentSource): { not_recorded: string[]; time_note: string | null } {
  return { not_recorded: [...agent.absent], time_note: agent.absent.includes(NO_LINE_TIMES) ? RUN_START_TIMES_NOTE : null };
}

/**
 * The payload of timeline slot `slot` of an agent session's scan (lib/forensics/agent-scan): for a
 * record, `summary` (its compact summary: the reader's headline with what replay did to it —
 * rewound, replaced), the tool names and result statuses and sizes (`compact`), or its text, tool
 * inputs and result previews (`full`, tool payloads unless `include_tool_payloads` is false);
 * `headline` with `include_headlines`. A user's record's words (a prompt) and a system record's
 * (a system prompt) only with `include_prompts`, else its summary is `User message.` /
 * `<type> record.`; a system record that is an error or carries one of the agent's events (a run
 * starting, a model change) always. For one of the agent's events (the slots after its record's, its kind the
 * event type): `summary` and `headline` `<kind>: <detail>` and `event: {kind, detail}`.
 */
export function agentTimelinePayload(transcript: AgentLines, scan: SessionScan, slot: number, input: ReconstructSessionInput): Record<string, unknown> {
  const line = scan.line[slot]!;
  const record = transcript.record(line);
  if (record === undefined) return { summary: "Line not in the session's records (the file changed since its scan)." };
  let first = slot;
  while (first > 0 && scan.line[first - 1] === line && scan.fileIndex[first - 1] === scan.fileIndex[slot]) first -= 1;
  if (slot > first) {
    const event = timelineEvents(record.events)[slot - first - 1];
    if (event === undefined) return { summary: "Event not in the session's records (the file changed since its scan)." };
    const said = oneLine(`${event.kind}: ${event.detail}`, HEADLINE_CHARS);
    return { summary: said, ...(input.include_headlines ? { headline: said } : {}), event: { kind: event.kind, detail: event.detail } };
  }
  const body = compactAgentBody(transcript, line);
  if (body === null) return { summary: `${record.type} record.` };
  // A system record that is one of the agent's events (a run starting, a model change) or an error is not a prompt.
  const hidden = !input.include_prompts && (record.role === "user" || (record.role === "system" && !record.isError && record.events.length === 0));
  const summary = hidden ? (record.role === "user" ? "User message." : `${record.type} record.`) : body.summary;
  const payload: Record<string, unknown> = { summary, content_kinds: body.content_kinds };
  if (input.include_headlines) payload.headline = hidden ? null : oneLine(body.summary, HEADLINE_CHARS);
  if (input.verbosity === "compact") {
    if (body.tool_uses.length > 0) payload.tools = body.tool_uses.map((u) => u.name);
    if (body.tool_results.length > 0) payload.results = body.tool_results.map((r) => ({ kind: r.kind, status: r.status, bytes: r.raw_bytes }));
    return payload;
  }
  if (body.text_preview !== null && !hidden) payload.text = body.text_preview;
  if (body.tool_uses.length > 0) payload.tool_uses = body.tool_uses.map((u) => (input.include_tool_payloads ? { name: u.name, input: u.input_summary } : { name: u.name }));
  if (body.tool_results.length > 0) {
    payload.tool_results = body.tool_results.map((r) =>
      input.include_tool_payloads ? { kind: r.kind, status: r.status, bytes: r.raw_bytes, preview: r.preview } : { kind: r.kind, status: r.status, bytes: r.raw_bytes },
    );
  }
  payload.truncated = body.truncated;
  return payload;
}
