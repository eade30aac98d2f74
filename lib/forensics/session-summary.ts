/** A session's list row facts (clock, request, size, status), cached by file version. */
import { statSync } from "node:fs";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { sessionEnding } from "@/lib/forensics/status";
import { readSessionRequest } from "@/lib/forensics/session-request";
import { fileStamp } from "@/lib/fs/file-stamp";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { previewLine } from "@/lib/format/one-line";
import type { SessionListItem } from "@/lib/workspace/schema";
import { RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import type { SessionUsage } from "@/lib/usage/session-usage";
import { sessionClock } from "@/lib/workspace/session-clock";
import { sessionUsageIfReady } from "@/lib/workspace/session-usage";
import { getWorkspaceLineIndex, listSubagents, type ResolvedSession } from "@/lib/workspace/sessions";

/** First user message as listed: one line, at most this many characters. */
const FIRST_MESSAGE_CHARS = 300;

/** A list row without the seed 003 risk columns (list-sessions adds those from lib/analysis). */
type SummaryItem = Omit<SessionListItem, "risk_level" | "reset_count" | "machine">;

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
 * Summarises one indexed session for `list_sessions` (seed 004 shape): its clock (`started_at`,
 * `ended_at`, `duration_seconds`: lib/workspace/session-clock, the earliest and latest record
 * timestamp), turn count, the first user message (lib/forensics/session-request: the first real
 * prompt, else Claude Code's title, else the first slash command as typed; one line, first 300
 * chars), subagent count, file size in bytes, and how it ended (`status`,
 * `last_response_preview`: lib/forensics/status, from the last 400 lines). Cached per file size
 * and mtime, so an unchanged session costs one stat. Clock, tokens and cost come from `usage`
 * when the caller has read it (the catalog), else from lib/usage when it is ready (all null
 * until then, as for a big session's risk).
 * @throws the fs error when the copied file cannot be read.
 */
export async function getSessionSummary(ctx: CoreContext, session: ResolvedSession, usage?: Pick<SessionUsage, "totals" | "firstMs" | "lastMs">): Promise<SummaryItem> {
  // On this thread: an unchanged session costs this one stat (a thread-pool stat cost ~60 µs of CPU, issue 25).
  const st = statSync(session.filePath);
  const stamp = `${fileStamp(st)}:${session.row.turns.length}:${session.row.turns[0]?.turn_start_line ?? 0}`;
  const hit = cache.get(session.filePath, stamp);
  // Clock, tokens and cost come from lib/usage each time (its own cache follows subagent files and the price override file).
  const counted = usage === undefined ? await sessionUsageIfReady(ctx, session, RISK_WAIT_MAX_BYTES) : usage;
  const clock = sessionClock(counted);
  const tokens = usageFields(counted);
  if (hit) {
    // "active because recent" expires with the clock, not with the file: recheck only that.
    if (hit.recent) {
      const ending = await sessionEnding(ctx, session.filePath, await getWorkspaceLineIndex(ctx, session.filePath), session.row.source);
      hit.recent = ending.reason === "recent";
      hit.item = { ...hit.item, status: ending.status };
    }
    return { ...hit.item, ...clock, ...tokens };
  }
  const index = await getWorkspaceLineIndex(ctx, session.filePath);
  const { row } = session;
  // One reader for every probe: the request's head windows serve the ending too when the file is small.
  const windows = new LineWindows(session.filePath, index);
  const request = await readSessionRequest(ctx, session, windows);
  const ending = await sessionEnding(ctx, session.filePath, index, row.source, windows);
  const item: SummaryItem = {
    session_ref: row.session_ref,
    source: row.source,
    source_session_id: row.source_session_id,
    ...clock,
    turn_count: row.turns.length,
    first_user_message: request === null ? null : previewLine(request.text, FIRST_MESSAGE_CHARS),
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
