/** `session_overview` (seed 004): about, stats, findings and timeline from a session's scan. */
import type { CoreContext } from "@/lib/context";
import { auditDiagnostics, type AuditReader } from "@/lib/forensics/audit-source";
import { TOOL_FAMILIES, type ToolFamily } from "@/lib/forensics/classify";
import { sessionCounts } from "@/lib/forensics/counts";
import { scanSession, type SessionStats } from "@/lib/forensics/scan";
import { readSessionRequest, type SessionRequest } from "@/lib/forensics/session-request";
import type { ForensicsInvalid, SessionCounts, SessionOverviewDiagnostics, SessionOverviewInput, SessionOverviewResult, SessionOverviewSummary, ToolCounts } from "@/lib/forensics/schema";
import { sessionEnding, type SessionEnding } from "@/lib/forensics/status";
import { formatCount } from "@/lib/format/count";
import { humanDuration } from "@/lib/format/duration";
import { readableUserText } from "@/lib/format/display-text";
import { oneLine } from "@/lib/format/one-line";
import { agentSource } from "@/lib/sources/agents";
import { sessionMachine } from "@/lib/workspace/machines";
import { sessionClock } from "@/lib/workspace/session-clock";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import { getWorkspaceLineIndex, resolveSession } from "@/lib/workspace/sessions";

/** Characters of the first user message quoted in `about`. */
export const ABOUT_QUOTE_CHARS = 140;
/** Errors and warnings listed per page when `limit` is not given (the tool's default). */
export const DEFAULT_FINDINGS_LIMIT = 50;
/** Characters of each `top_user_messages` entry. */
export const TOP_MESSAGE_CHARS = 200;
/** Paths listed in an agent session's `files_touched` (their count is always given). */
export const FILES_TOUCHED_LIMIT = 200;


/**
 * `session_overview` (seed 004, adapted): the human summary first — start, end, a human
 * duration (lib/workspace/session-clock, as every list and page has them), turn count, status
 * ({@link sessionEnding}), the deterministic `about` paragraph ({@link buildAbout}, its request
 * from lib/forensics/session-request), the first human messages, errors (tool errors, API errors, interrupted
 * turns) and warnings (compactions, context resets, truncated lines), each pointing at its file
 * and physical line (paged by `limit`/`offset` on each list, counts exact) — then diagnostics: tokens, tool calls by tool and
 * family, subagents by type, events per source, the files read, and the audit ledger's calls
 * on the session (from `readAudit`, read fresh each time; the forensics reads
 * themselves are left out, so two calls in a row are identical). One streaming pass over the
 * session's files ({@link scanSession}), cached while they are unchanged. A session of an agent
 * read through the source contract (lib/sources/agents) is summed up from its reader's records,
 * and its summary also says what the agent does not record (`not_recorded`: its `absent`, e.g.
 * `subagents`, `cost`, `per-line times`) and its diagnostics list the paths its tool calls name
 * (`files_touched`, the first {@link FILES_TOUCHED_LIMIT} sorted, with their count).
 * Unknown project or session → `{status:"invalid"}` naming the field.
 * @throws the fs error when a session file cannot be read.
 */
export async function sessionOverview(ctx: CoreContext, input: SessionOverviewInput, readAudit: AuditReader): Promise<SessionOverviewResult | ForensicsInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const session = resolved.session;
  const scan = await scanSession(ctx, session);
  const { stats } = scan;
  const ending = await sessionEnding(ctx, session.filePath, await getWorkspaceLineIndex(ctx, session.filePath), session.row.source);
  const subagentFiles = scan.files.filter((f) => f.kind === "subagent").length;
  const usage = await readSessionUsage(ctx, session);
  const clock = sessionClock(usage);
  const request = await readSessionRequest(ctx, session);
  // What an agent does not record is its source's to say: no transcript is read for it.
  const agent = agentSource(session.row.source);
  const offset = input.offset ?? 0;
  const limit = input.limit ?? DEFAULT_FINDINGS_LIMIT;
  const pageEnd = offset + limit;
  const counts = sessionCounts(stats, session.row.turns.length);
  const summary: SessionOverviewSummary = {
    project_key: input.project_key,
    session_ref: input.session_ref,
    source: session.row.source,
    started_at: clock.started_at,
    ended_at: clock.ended_at,
    duration: clock.duration_seconds === null ? null : humanDuration(clock.duration_seconds),
    duration_seconds: clock.duration_seconds,
    turn_count: session.row.turns.length,
    status: ending.status,
    about: buildAbout(stats, ending, subagentFiles, counts, request),
    // After `about` (seed 004: the summary leads with what the session was about).
    machine: sessionMachine(session.project.dir, input.session_ref),
    counts,
    top_user_messages: stats.userMessages.map((m) => ({ ...m, text: oneLine(readableUserText(m.text), TOP_MESSAGE_CHARS) })),
    errors: stats.errors.slice(offset, pageEnd),
    warnings: stats.warnings.slice(offset, pageEnd),
    error_counts: sortedRecord(stats.errorCounts),
    warning_counts: sortedRecord(stats.warningCounts),
    findings_page: { offset, limit, next_offset: pageEnd < Math.max(stats.errors.length, stats.warnings.length) ? pageEnd : null },
    last_response_preview: ending.last_response_preview,
    ...(agent === null ? {} : { not_recorded: [...agent.absent] }),
  };
  const byTool: Record<string, ToolCounts> = {};
  for (const name of [...stats.byTool.keys()].sort()) {
    const c = stats.byTool.get(name)!;
    byTool[name] = { called: c.called, succeeded: c.succeeded, failed: c.failed };
  }
  const byFamily: Record<string, { called: number; failed: number }> = {};
  for (const fam of TOOL_FAMILIES) {
    const c = stats.families.get(fam);
    if (c) byFamily[fam] = { ...c };
  }
  const audit = await readAudit(ctx, input.project_key, input.session_ref);
  // The scan's stats are cached and shared: the audit count goes on a copy.
  const events = { ...stats.eventsBySource, audit: audit.length };
  const eventTypes = eventTypeCounts(scan.types, scan.typeId);
  for (const ev of audit) eventTypes[ev.eventType] = (eventTypes[ev.eventType] ?? 0) + 1;
  const diagnostics: SessionOverviewDiagnostics = {
    tokens: {
      input_total: usage.totals.input_tokens,
      output_total: usage.totals.output_tokens,
      cache_read_total: usage.totals.cache_read_tokens,
      cache_creation_total: usage.totals.cache_creation_tokens,
      grand_total: usage.totals.total_tokens,
      cost_usd: usage.totals.cost_usd,
      unpriced_models: usage.totals.unpriced_models,
      models: usage.totals.models,
      main: usage.main,
      subagents: usage.subagents,
    },
    tools: { total_calls: stats.toolCalls, failed_calls: stats.toolFailures, by_tool: byTool, by_family: byFamily },
    subagents: { count: subagentFiles, by_type: sortedRecord(stats.subagentTypes) },
    events: { ...events, total: events.main + events.subagent + events.tool_result + events.audit },
    event_types: sortedRecord(new Map(Object.entries(eventTypes))),
    files: scan.files.map((f) => ({ source: f.kind, file: f.relative, size_bytes: f.size_bytes })),
    audit: auditDiagnostics(audit),
    ...(stats.filesTouched === undefined ? {} : { files_touched: { files: stats.filesTouched.slice(0, FILES_TOUCHED_LIMIT), total: stats.filesTouched.length } }),
  };
  return { status: "ok", summary, diagnostics };
}

function eventTypeCounts(types: readonly string[], typeIds: Uint16Array): Record<string, number> {
  const counts = new Map<string, number>();
  const perId = new Array<number>(types.length).fill(0);
  for (let i = 0; i < typeIds.length; i++) perId[typeIds[i]!]! += 1;
  types.forEach((t, i) => counts.set(t, perId[i]!));
  return sortedRecord(counts);
}

function sortedRecord(map: Map<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}

const FAMILY_PHRASE: Record<ToolFamily, (n: number) => string> = {
  read: (n) => `read ${count(n, "file")}`,
  edit: (n) => `made ${count(n, "edit")}`,
  run: (n) => `ran ${count(n, "command")}`,
  search: (n) => `searched the code ${times(n)}`,
  web: (n) => `made ${count(n, "web request")}`,
  delegate: (n) => `delegated ${count(n, "task")} to subagents`,
  other: (n) => `made ${count(n, "other tool call")}`,
};

// `error` and `source_warning` are found in agent sessions (lib/forensics/agent-scan): an error
// record other than a failed tool result, and a line the agent's reader could not read.
const ERROR_WORDS: Record<string, string> = { tool_error: "failed tool call", api_error: "API error", interrupted: "interrupted turn", error: "error message" };
const WARNING_WORDS: Record<string, string> = { compaction: "context compaction", context_reset: "context reset", truncated_line: "truncated line", source_warning: "reader warning" };

/**
 * The `about` paragraph (seed 004: deterministic, template-based, no LLM): what the user asked
 * (`request`, lib/forensics/session-request: the first real prompt, or a slash command as typed;
 * quoted, ≤ 140 chars) and how many more messages they sent, or Claude Code's title when no
 * prompt was typed; what the agent did by tool family, most-used first (ties in
 * {@link TOOL_FAMILIES} order, `other` last), with failures; attached subagents; errors and
 * warnings by kind; and how the session ended. Sessions with no user message, no tool calls, or
 * only subagent work get their own sentences.
 */
export function buildAbout(stats: SessionStats, ending: SessionEnding, subagentFiles: number, counts: SessionCounts, request: SessionRequest | null): string {
  const parts: string[] = [];
  const first = request !== null;
  if (request?.kind === "summary") {
    parts.push(`No prompt was typed; Claude Code titled the session "${oneLine(request.text, ABOUT_QUOTE_CHARS)}".`);
  } else if (request !== null) {
    // Prompts only: a `/context` and its output are not messages the user sent (issue 36).
    const more = stats.userPromptCount - 1;
    parts.push(`User asked: "${oneLine(request.text, ABOUT_QUOTE_CHARS)}"${more > 0 ? ` and sent ${count(more, "more message")}` : ""}.`);
  } else if (stats.eventsBySource.subagent > 0) {
    parts.push(`The main transcript has no user message; the work happened in ${count(subagentFiles, "subagent transcript")}.`);
  } else if (stats.eventsBySource.main === 0) {
    parts.push("The transcript has no records.");
  } else {
    parts.push("No user message was recorded.");
  }
  const families = TOOL_FAMILIES.map((fam, i) => ({ fam, i, c: counts.by_family[fam] })).filter((x) => x.c && x.c.called > 0);
  // "other" (todo lists, MCP tools) says least about the work: always last.
  families.sort((a, b) => Number(a.fam === "other") - Number(b.fam === "other") || b.c!.called - a.c!.called || a.i - b.i);
  if (families.length > 0) {
    const phrases = families.map(({ fam, c }) => `${FAMILY_PHRASE[fam](c!.called)}${c!.failed > 0 ? ` (${formatCount(c!.failed)} failed)` : ""}`);
    parts.push(`The agent ${joinList(phrases)}.`);
  } else if (stats.mainReplies > 0) {
    parts.push("The agent answered without using tools.");
  } else if (first) {
    parts.push("The agent made no tool calls and gave no reply.");
  }
  if (subagentFiles > 0 && first) parts.push(`${cap(count(subagentFiles, "subagent transcript"))} ${subagentFiles === 1 ? "is" : "are"} attached.`);
  const errors = describeCounts(stats.errorCounts, ERROR_WORDS);
  if (errors) parts.push(`${cap(errors)}.`);
  const warnings = describeCounts(stats.warningCounts, WARNING_WORDS);
  if (warnings) parts.push(`${cap(warnings)}.`);
  parts.push(endingSentence(ending));
  return parts.join(" ");
}

function endingSentence(ending: SessionEnding): string {
  switch (ending.reason) {
    case "recent":
      return "Session is still active (its last record is from the last 10 minutes).";
    case "reply":
      return "Session ended cleanly with an agent reply.";
    case "interrupted":
      return "Session ended with the user interrupting the last turn.";
    case "error":
      return "Session ended on an error.";
    case "user_exit":
      return "Session ended with the user's /exit before an agent reply.";
    default:
      return "Session ended without a final agent reply.";
  }
}

function describeCounts(counts: Map<string, number>, words: Record<string, string>): string | null {
  const phrases = Object.keys(words)
    .filter((k) => (counts.get(k) ?? 0) > 0)
    .map((k) => count(counts.get(k)!, words[k]!));
  return phrases.length > 0 ? joinList(phrases) : null;
}

function count(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? "" : "s"}`;
}

function times(n: number): string {
  return n === 1 ? "once" : n === 2 ? "twice" : `${formatCount(n)} times`;
}

function joinList(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
