/** `reconstruct_session` (seed 004): a session's turns rebuilt from its transcript and tool results. */
import fs from "node:fs/promises";

import type { CoreContext } from "@/lib/context";
import { agentTimelineNotes, agentTimelinePayload } from "@/lib/forensics/agent-timeline";
import { type AuditEvent, type AuditReader, mergeAuditOrder } from "@/lib/forensics/audit-source";
import { ACTORS, scanSession, turnAt, type SessionScan } from "@/lib/forensics/scan";
import { type ForensicsInvalid, type ReconstructSessionInput, type ReconstructSessionResult, type TimelineRow, type TimelineSource } from "@/lib/forensics/schema";
import { type LineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { previewLine } from "@/lib/format/one-line";
import { markdownPlainText } from "@/lib/format/plain-markdown";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { HEADLINE_CHARS, lineHeadline, type ToolCallNames } from "@/lib/session-reader/headline";
import { trimToolResultPreview } from "@/lib/sources/common/trim";
import { readAgentLines } from "@/lib/sources/agent-transcripts";
import { agentSource } from "@/lib/sources/agents";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import type { AgentLines } from "@/lib/sources/common/agent-source";
import { getWorkspaceLineIndex, resolveSession, workspaceLineFacts, type ResolvedSession } from "@/lib/workspace/sessions";

/** Bytes of a persisted tool result read for a `full` preview (head; the size is always given). */
const TOOL_FILE_PREVIEW_BYTES = 2048;

/**
 * `reconstruct_session` (seed 004, adapted to transcripts): one page of the session's merged
 * timeline — main transcript, subagent transcripts, persisted tool results and the audit
 * ledger's entries on the session (from `readAudit`) — in the order of
 * {@link scanSession} (timestamp, then source priority main > subagent > tool_result > audit,
 * then file and physical line; {@link mergeAuditOrder} places the audit entries). Each row
 * is `{index, timestamp, source, file, line, event_type, actor, turn_ref, agent_id, payload}`;
 * `index` is the row's position in the whole timeline, so pages concatenate to the unpaged
 * timeline. `compact` payloads carry kinds, tool names and sizes only; `full` adds bounded text
 * (human and injected prompts only with `include_prompts`) and tool inputs and result previews
 * (unless `include_tool_payloads` is false). Rows are added while the serialized response
 * stays within `max_bytes` (UTF-8 bytes); when a row is cut, `truncated` is true and
 * `next_offset` says where to continue. Optional `source` / `event_type` filter the timeline
 * before paging (`event_count` is then the filtered count). Deterministic: the same call on the
 * same files returns the same bytes.
 * A session of an agent read through the source contract (lib/sources/agents) has a row per
 * record and one per event of the agent's own (a rewind, a run's start or resume, a model
 * change: lib/forensics/agent-timeline), and says what the agent does not record
 * (`not_recorded`) and when its times are not the records' own (`time_note`).
 * Unknown project or session → `{status:"invalid"}` naming the field.
 * @throws the fs error when a session file cannot be read.
 */
export async function reconstructSession(ctx: CoreContext, input: ReconstructSessionInput, readAudit: AuditReader): Promise<ReconstructSessionResult | ForensicsInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const scan = await scanSession(ctx, resolved.session);
  // An agent session's rows are read off the records of the lines on this page only.
  const agent = agentSource(resolved.session.row.source);
  const transcript = agent === null ? null : await readAgentLines(agent.name, resolved.session.filePath, undefined, workspaceLineFacts(ctx));
  const audit = await readAudit(ctx, input.project_key, input.session_ref);
  const selected = filterOrder(scan, audit, input.source, input.event_type);
  const base: ReconstructSessionResult = {
    status: "ok",
    project_key: input.project_key,
    session_ref: input.session_ref,
    event_count: selected.length,
    offset: input.offset,
    returned: 0,
    truncated: false,
    next_offset: null,
    ...(agent === null ? {} : agentTimelineNotes(agent)),
    timeline: [],
  };
  // Worst case for the fixed part: truncated true and a next_offset as long as any index.
  const fixed = byteLength({ ...base, truncated: true, next_offset: selected.length }) + 8;
  let used = fixed;
  const end = Math.min(selected.length, input.offset + input.limit);
  const rows: TimelineRow[] = [];
  let truncated = false;
  for (let pos = input.offset; pos < end; pos++) {
    const ref = selected[pos]!;
    const row = ref < scan.count ? await buildRow(ctx, resolved.session, scan, ref, pos, input, transcript) : auditRow(audit[ref - scan.count]!, pos, input);
    const size = byteLength(row) + (rows.length > 0 ? 1 : 0);
    if (used + size > input.max_bytes) {
      truncated = true;
      break;
    }
    used += size;
    rows.push(row);
  }
  const next = input.offset + rows.length;
  return { ...base, returned: rows.length, truncated, next_offset: next < selected.length ? next : null, timeline: rows };
}

/**
 * Timeline refs (scan slots, or `scan.count + i` for `audit[i]`, see {@link mergeAuditOrder})
 * after the optional filters, in order.
 */
function filterOrder(scan: SessionScan, audit: readonly AuditEvent[], source: TimelineSource | undefined, eventType: string | undefined): Uint32Array {
  const merged = mergeAuditOrder(scan, audit);
  if (source === undefined && eventType === undefined) return merged;
  const typeId = eventType === undefined ? -1 : scan.types.indexOf(eventType);
  const out: number[] = [];
  for (const ref of merged) {
    if (ref >= scan.count) {
      const ev = audit[ref - scan.count]!;
      if ((source === undefined || source === "audit") && (eventType === undefined || ev.eventType === eventType)) out.push(ref);
      continue;
    }
    if (eventType !== undefined && scan.typeId[ref] !== typeId) continue;
    if (source !== undefined && scan.files[scan.fileIndex[ref]!]!.kind !== source) continue;
    out.push(ref);
  }
  return Uint32Array.from(out);
}

/**
 * A timeline row of an audit ledger entry: `actor` is the door the call came through; the
 * compact payload names the tool, the receipt and its outcome; `full` adds the client, the
 * input and output hashes, the policy decisions and the files written.
 */
function auditRow(ev: AuditEvent, index: number, input: ReconstructSessionInput): TimelineRow {
  const e = ev.entry;
  const told = e.outcome as { result: unknown; status?: unknown; duration_ms: unknown } | undefined;
  const outcome = e.kind === "tool_call_finished" ? { result: e.result, status: e.status ?? null, duration_ms: e.duration_ms } : told ? { result: told.result, status: told.status ?? null, duration_ms: told.duration_ms } : { result: "running", status: null, duration_ms: null };
  const tool = ev.toolName ?? "unknown tool";
  const summary = e.kind === "tool_call_started" ? `${tool} called via ${ev.door ?? "?"}` : `${tool} finished: ${outcome.result}${outcome.status ? ` (${outcome.status})` : ""}`;
  const payload: Record<string, unknown> = { summary, tool_name: ev.toolName, receipt_id: e.receipt_id, ...outcome };
  if (input.verbosity === "full") {
    if (e.kind === "tool_call_started") {
      Object.assign(payload, { client: e.client ?? null, input_hash: e.input_hash, scope_enforced: e.scope_enforced });
    } else {
      Object.assign(payload, { output_hash: e.output_hash ?? null, policy_decisions: e.policy_decisions, artifacts_written: e.artifacts_written, ...(e.error ? { error: e.error } : {}) });
    }
  }
  return { index, timestamp: e.timestamp, source: "audit", file: ev.file, line: ev.line, event_type: ev.eventType, actor: ev.door ?? "unknown", turn_ref: null, agent_id: null, payload };
}

async function buildRow(ctx: CoreContext, session: ResolvedSession, scan: SessionScan, slot: number, index: number, input: ReconstructSessionInput, transcript: AgentLines | null): Promise<TimelineRow> {
  const file = scan.files[scan.fileIndex[slot]!]!;
  const line = scan.line[slot]!;
  const ts = scan.ts[slot]!;
  const eventType = scan.types[scan.typeId[slot]!]!;
  const actor = ACTORS[scan.actorId[slot]!]!;
  const payload =
    file.kind === "tool_result"
      ? await toolFilePayload(file.path, file.size_bytes, input)
      : transcript !== null && file.kind === "main"
        ? agentTimelinePayload(transcript, scan, slot, input)
        : await recordPayload(ctx, file.path, line, scan.source, actor, input);
  return {
    index,
    timestamp: Number.isNaN(ts) ? null : new Date(ts).toISOString(),
    source: file.kind,
    file: file.relative,
    line,
    event_type: eventType,
    actor,
    turn_ref: file.kind === "main" ? turnAt(session.row.turns, line) : null,
    agent_id: file.kind === "subagent" ? file.id : null,
    payload,
  };
}

async function recordPayload(ctx: CoreContext, filePath: string, line: number, source: string, actor: string, input: ReconstructSessionInput): Promise<Record<string, unknown>> {
  const index = await getWorkspaceLineIndex(ctx, filePath);
  const [text] = await readLineRange(filePath, index, line, line);
  const record = buildCompactRecord({ line, text: text?.text ?? "", source });
  const promptSide = actor === "user" || actor === "system";
  const payload: Record<string, unknown> = { summary: record.summary, content_kinds: record.content_kinds, raw_bytes: record.raw_bytes };
  if (input.include_headlines) {
    // What the line did in one line; an agent's own text stands for itself, a prompt only with include_prompts.
    // Shown as plain text on one line: Markdown marks (`**login**`) would show as typed (issue 29).
    const said = record.text_preview !== null && (!promptSide || input.include_prompts) ? previewLine(markdownPlainText(record.text_preview), HEADLINE_CHARS) : null;
    const calls = record.tool_results.length > 0 ? await callsBefore(filePath, index, line, source) : new Map<string, string>();
    payload.headline = lineHeadline(text?.text ?? "", source, record, calls) ?? said;
  }
  if (input.verbosity === "compact") {
    if (record.tool_uses.length > 0) payload.tools = record.tool_uses.map((u) => u.name);
    if (record.tool_results.length > 0) payload.results = record.tool_results.map((r) => ({ kind: r.kind, status: r.status, bytes: r.raw_bytes }));
    return payload;
  }
  if (record.text_preview !== null && (!promptSide || input.include_prompts)) payload.text = record.text_preview;
  if (record.tool_uses.length > 0) payload.tool_uses = record.tool_uses.map((u) => (input.include_tool_payloads ? { name: u.name, input: u.input_summary } : { name: u.name }));
  if (record.tool_results.length > 0) {
    payload.tool_results = record.tool_results.map((r) =>
      input.include_tool_payloads ? { kind: r.kind, status: r.status, bytes: r.raw_bytes, preview: r.preview } : { kind: r.kind, status: r.status, bytes: r.raw_bytes },
    );
  }
  payload.truncated = record.truncated;
  return payload;
}

/** Lines before a result searched for the calls it answers (they are almost always the lines just before). */
const CALL_LOOKBACK_LINES = 12;

/**
 * The calls of the lines just before `line` of one transcript, by id, so a result row names its
 * call whatever page it is on (a page-independent row: pages concatenate to the whole timeline).
 */
async function callsBefore(filePath: string, index: LineIndex, line: number, source: string): Promise<ToolCallNames> {
  const calls: ToolCallNames = new Map();
  const marker = transcriptFormat(source)?.callMarker;
  if (line <= 1 || marker === undefined) return calls;
  for (const prev of await readLineRange(filePath, index, Math.max(1, line - CALL_LOOKBACK_LINES), line - 1)) {
    if (!prev.text.includes(marker)) continue;
    lineHeadline(prev.text, source, buildCompactRecord({ line: prev.line, text: prev.text, source }), calls);
  }
  return calls;
}

async function toolFilePayload(filePath: string, size: number, input: ReconstructSessionInput): Promise<Record<string, unknown>> {
  const payload: Record<string, unknown> = { summary: "Persisted tool result.", bytes: size };
  if (input.verbosity === "compact" || !input.include_tool_payloads) return payload;
  const handle = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(Math.min(size, TOOL_FILE_PREVIEW_BYTES));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead).toString("utf8");
    const { preview, truncated } = trimToolResultPreview(head);
    payload.preview = preview;
    payload.truncated = truncated || size > bytesRead;
  } finally {
    await handle.close();
  }
  return payload;
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}
