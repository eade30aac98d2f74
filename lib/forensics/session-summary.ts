/** A session's list row facts (first and last time, size, status), cached by file version. */
import { statSync } from "node:fs";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { sessionEnding } from "@/lib/forensics/status";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { readableUserText } from "@/lib/format/display-text";
import { previewLine } from "@/lib/format/one-line";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import type { SessionListItem } from "@/lib/workspace/schema";
import { RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import type { SessionUsage } from "@/lib/usage/session-usage";
import { sessionUsageIfReady } from "@/lib/workspace/session-usage";
import { getWorkspaceLineIndex, listSubagents, type ResolvedSession } from "@/lib/workspace/sessions";

/** How many lines from each end are probed for the first and last timestamp. */
const PROBE_LINES = 64;
/** First user message as listed: one line, at most this many characters. */
const FIRST_MESSAGE_CHARS = 300;

/** A list row without the seed 003 risk columns (list-sessions adds those from lib/analysis). */
type SummaryItem = Omit<SessionListItem, "risk_level" | "reset_count">;

/**
 * Bytes of list rows kept in memory (issue 13 §4), counted as two bytes a character of their
 * strings plus 400 for the rest: a row is at most ~1.5 KB, so this keeps ~5,000 sessions' rows.
 */
export const SUMMARY_MEMORY_BYTES = 8 << 20;
const cache = stampedCache<{ item: SummaryItem; recent: boolean }>("forensics:session-summary", SUMMARY_MEMORY_BYTES);
function itemBytes(item: SummaryItem): number {
  let chars = 0;
  for (const v of Object.values(item)) if (typeof v === "string") chars += v.length;
  return 400 + 2 * chars;
}

/**
 * Summarises one indexed session for `list_sessions` (seed 004 shape): first and last record
 * timestamps (ISO, from up to 64 lines at each end, read through the line index), duration in
 * whole seconds, turn count, the first user message (the compact text of the first turn's
 * trigger line as a person reads it — a slash command as typed, `/wsd:init --custom` — first
 * 300 chars), subagent count, file size in bytes, and how it ended
 * (`status`, `last_response_preview`: lib/forensics/status, from the last 400 lines). Cached per file
 * size and mtime, so an unchanged session costs one stat. Tokens and cost come from `usage`
 * when the caller has read it (the catalog), else from lib/usage when it is ready.
 * @throws the fs error when the copied file cannot be read.
 */
export async function getSessionSummary(ctx: CoreContext, session: ResolvedSession, usage?: Pick<SessionUsage, "totals">): Promise<SummaryItem> {
  // On this thread: an unchanged session costs this one stat (a thread-pool stat cost ~60 µs of CPU, issue 25).
  const st = statSync(session.filePath);
  const stamp = `${st.size}:${st.mtimeMs}:${session.row.turns.length}:${session.row.turns[0]?.turn_start_line ?? 0}`;
  const hit = cache.get(session.filePath, stamp);
  // Tokens and cost come from lib/usage each time (its own cache follows subagent files and the price override file).
  const tokens = usageFields(usage === undefined ? await sessionUsageIfReady(ctx, session, RISK_WAIT_MAX_BYTES) : usage);
  if (hit) {
    // "active because recent" expires with the clock, not with the file: recheck only that.
    if (hit.recent) {
      const ending = await sessionEnding(ctx, session.filePath, await getWorkspaceLineIndex(ctx, session.filePath), session.row.source);
      hit.recent = ending.reason === "recent";
      hit.item = { ...hit.item, status: ending.status };
    }
    return { ...hit.item, ...tokens };
  }
  const index = await getWorkspaceLineIndex(ctx, session.filePath);
  const { row } = session;
  // One reader for every probe: the head's and the tail's windows serve the first message and the ending too.
  const windows = new LineWindows(session.filePath, index);
  let startedAt: number | null = null;
  let endedAt: number | null = null;
  for (let line = 1; line <= Math.min(PROBE_LINES, index.lineCount) && startedAt === null; line++) startedAt = timestampOf(await windows.line(line, "end"));
  for (let line = index.lineCount; line >= Math.max(1, index.lineCount - PROBE_LINES + 1) && endedAt === null; line--) endedAt = timestampOf(await windows.line(line, "start"));
  const firstTurn = row.turns[0];
  let firstMessage: string | null = null;
  if (firstTurn && firstTurn.turn_start_line <= index.lineCount) {
    const text = (await windows.line(firstTurn.turn_start_line, "end")).toString("utf8");
    const preview = buildCompactRecord({ line: firstTurn.turn_start_line, text, source: row.source }).text_preview;
    firstMessage = previewLine(preview === null ? null : readableUserText(preview), FIRST_MESSAGE_CHARS);
  }
  const ending = await sessionEnding(ctx, session.filePath, index, row.source, windows);
  const item: SummaryItem = {
    session_ref: row.session_ref,
    source: row.source,
    source_session_id: row.source_session_id,
    started_at: startedAt === null ? null : new Date(startedAt).toISOString(),
    ended_at: endedAt === null ? null : new Date(endedAt).toISOString(),
    duration_seconds: startedAt !== null && endedAt !== null ? Math.max(0, Math.round((endedAt - startedAt) / 1000)) : null,
    turn_count: row.turns.length,
    first_user_message: firstMessage,
    subagent_count: (await listSubagents(session)).length,
    size_bytes: st.size,
    ...tokens,
    status: ending.status,
    last_response_preview: ending.last_response_preview,
  };
  cache.set(session.filePath, stamp, { item, recent: ending.reason === "recent" }, itemBytes(item) + 2 * (stamp.length + session.filePath.length));
  return item;
}

function usageFields(usage: Pick<SessionUsage, "totals"> | null): Pick<SummaryItem, "output_tokens" | "total_tokens" | "cost_usd"> {
  if (usage === null) return { output_tokens: null, total_tokens: null, cost_usd: null };
  const { totals } = usage;
  if (totals.requests === 0) return { output_tokens: null, total_tokens: null, cost_usd: null };
  return { output_tokens: totals.output_tokens, total_tokens: totals.total_tokens, cost_usd: totals.cost_usd };
}

const TIMESTAMP = Buffer.from('"timestamp"');

/**
 * The first valid aware `"timestamp": "…"` of a line's text, epoch ms. Only the bytes from the
 * first `"timestamp"` on are decoded: no match starts before them (ASCII bytes never sit inside
 * a decoded multi-byte character), and a Claude Code record carries its own near its end.
 */
function timestampOf(bytes: Buffer): number | null {
  const at = bytes.indexOf(TIMESTAMP);
  if (at === -1) return null;
  const match = /"timestamp"\s*:\s*"([^"]+)"/.exec(bytes.toString("utf8", at));
  return match ? parseAwareTimestamp(match[1]) : null;
}
