// One session's rows rewritten when its file or index row changed.

import { statSync } from "node:fs";
import path from "node:path";

import { catalogDb } from "@/lib/catalog/catalog";
import { isFsError } from "@/lib/catalog/catalog-fault";
import { clearIndexed, dropSessionRows } from "@/lib/catalog/drop-rows";
import { readRowFacts, type RowFacts } from "@/lib/catalog/row-facts";
import { atomically, stmt } from "@/lib/catalog/transactions";
import type { CoreContext } from "@/lib/context";
import { getSessionSummary } from "@/lib/forensics/session-summary";
import { ACTIVE_WINDOW_MS } from "@/lib/forensics/status";
import { fileStamp } from "@/lib/fs/file-stamp";
import { resolveInside } from "@/lib/fs/paths";
import type { LoadedProject } from "@/lib/workspace/load";
import { sessionMachine } from "@/lib/workspace/machines";
import type { IndexRow } from "@/lib/workspace/schema";
import type { CountedUsage } from "@/lib/workspace/session-usage";
import type { ResolvedSession } from "@/lib/workspace/sessions";

/** A session's stored row as a refresh compares it: identity, machine, file stamp, turns (`ref:start:end`, by start line) and whether its status may be "active because recent". */
export type StoredSession = { id: number; session_ref: string; source_session_id: string; session_path: string; turns_sig: string | null; file_stamp: string | null; status_recent: number; machine: string | null };

function turnsSig(row: IndexRow): string {
  return [...row.turns].sort((a, b) => a.turn_start_line - b.turn_start_line).map((t) => `${t.turn_ref}:${t.turn_start_line}:${t.turn_end_line}`).join(",");
}

/**
 * Rewrites one session's rows when its file or index row changed (its lines are {@link fillFullText}'s
 * to index); returns whether anything was written.
 */
export async function refreshSession(ctx: CoreContext, project: LoadedProject, row: IndexRow, ord: number, stored: StoredSession | undefined, early?: Promise<RowFacts | null>, counted?: CountedUsage): Promise<boolean> {
  const db = catalogDb(ctx);
  const machine = sessionMachine(project.dir, row.session_ref);
  // A session's machine is its project's record (issue 39): retagged without reading the session.
  if (stored && stored.machine !== machine) stmt(db, "UPDATE sessions SET machine = ? WHERE id = ?").run(machine, stored.id);
  // One stat decides whether anything moved; the realpath containment check runs when it did.
  const st = statSync(path.join(project.dir, row.session_path), { throwIfNoEntry: false });
  let version = st?.isFile() ? fileStamp(st) : null;
  const unmoved = stored && stored.source_session_id === row.source_session_id && stored.session_path === row.session_path && stored.file_stamp === version && version !== null;
  let filePath: string | null = unmoved ? path.join(project.dir, row.session_path) : null;
  // Facts read ahead come with the path they resolved (the same containment check) for this row's path.
  const ready = (await early) ?? null;
  const readyHere = ready !== null && ready.sessionPath === row.session_path;
  if (!unmoved) {
    try {
      filePath = readyHere ? ready.filePath : await resolveInside(project.dir, row.session_path);
    } catch {
      filePath = null;
      version = null;
    }
  }
  const sameIdentity = stored && stored.source_session_id === row.source_session_id && stored.session_path === row.session_path;
  const sameTurns = stored && (stored.turns_sig ?? "") === turnsSig(row);
  const rowsFresh = sameIdentity && sameTurns && stored.file_stamp === version && version !== null;
  if (rowsFresh) {
    stmt(db, "UPDATE sessions SET ord = ? WHERE id = ? AND ord != ?").run(ord, stored.id, ord);
    // "active because recent" expires with the clock, not with the file: recheck only that.
    if (stored.status_recent === 0 || filePath === null) return false;
    const summary = await getSessionSummary(ctx, { project, row, filePath });
    const recent = mayBeRecent(ctx, summary.status, summary.ended_at);
    const changed = stmt(db, "UPDATE sessions SET status = ?, status_recent = ? WHERE id = ? AND (status IS NOT ? OR status_recent != ?)").run(summary.status, recent, stored.id, summary.status, recent).changes;
    return changed > 0;
  }
  let id = stored?.id;
  if (stored && !sameIdentity) {
    atomically(db, () => {
      dropSessionRows(db, stored.id);
      stmt(db, "DELETE FROM sessions WHERE id = ?").run(stored.id);
    });
    id = undefined;
  }
  if (id === undefined) {
    const made = stmt(db, "INSERT OR IGNORE INTO sessions (project_key, session_ref, ord, source, source_session_id, session_path, turn_count, machine) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(project.projectKey, row.session_ref, ord, row.source, row.source_session_id, row.session_path, row.turns.length, machine);
    // Else another process made the row between two of this refresh's transactions: its rows stay.
    id = made.changes === 1 ? Number(made.lastInsertRowid) : (stmt(db, "SELECT id FROM sessions WHERE project_key = ? AND session_ref = ?").get(project.projectKey, row.session_ref) as { id: number }).id;
  }
  const sessionId = id;
  atomically(db, () => {
    stmt(db, "DELETE FROM turns WHERE session_id = ?").run(sessionId);
    const insert = stmt(db, "INSERT INTO turns (session_id, turn_ref, turn_start_line, turn_end_line) VALUES (?, ?, ?, ?)");
    for (const t of row.turns) insert.run(sessionId, t.turn_ref, t.turn_start_line, t.turn_end_line);
  });
  const gone = () => {
    // A session whose file is gone (or cannot be read) has no lines to find; with no stamp, the next refresh looks again.
    atomically(db, () => clearIndexed(db, sessionId));
    stmt(db, 
      "UPDATE sessions SET ord = ?, file_stamp = NULL, missing = 1, started_at = NULL, ended_at = NULL, duration_seconds = NULL, turn_count = ?, first_user_message = NULL, subagent_count = 0, size_bytes = 0, output_tokens = NULL, total_tokens = NULL, cost_usd = NULL, usage_buckets = NULL, usage_last_ms = NULL, usage_stamp = NULL, status = NULL, status_recent = 0, last_response_preview = NULL, risk_level = NULL, reset_count = NULL, risk_stamp = NULL WHERE id = ?",
    ).run(ord, row.turns.length, sessionId);
    return true;
  };
  if (version === null || filePath === null) return gone();
  const session: ResolvedSession = { project, row, filePath };
  let facts: Pick<RowFacts, "summary" | "tokens">;
  try {
    // Facts read ahead serve when they were read from this file at this version.
    facts = readyHere && ready.filePath === filePath && ready.fileStamp === version ? ready : await readRowFacts(ctx, session, counted);
  } catch (error) {
    if (!isFsError(error)) throw error;
    // One file that cannot be read must not stop the whole refresh (prepare, the watcher).
    ctx.log.warn(`[casefile] catalog: cannot read ${filePath}: ${String(error)}`);
    return gone();
  }
  const { summary, tokens } = facts;
  stmt(db, 
    `UPDATE sessions SET ord = @ord, file_stamp = @stamp, missing = 0, started_at = @started_at, ended_at = @ended_at, duration_seconds = @duration_seconds,
       turn_count = @turn_count, first_user_message = @first_user_message, subagent_count = @subagent_count, size_bytes = @size_bytes,
       output_tokens = @output_tokens, total_tokens = @total_tokens, cost_usd = @cost_usd, usage_buckets = @usage_buckets, usage_last_ms = @usage_last_ms,
       usage_stamp = @usage_stamp, status = @status, status_recent = @recent, last_response_preview = @last_response_preview
     WHERE id = @id`,
  ).run({
    id: sessionId,
    ord,
    stamp: version,
    started_at: summary.started_at,
    ended_at: summary.ended_at,
    duration_seconds: summary.duration_seconds,
    turn_count: summary.turn_count,
    first_user_message: summary.first_user_message,
    subagent_count: summary.subagent_count,
    size_bytes: summary.size_bytes,
    output_tokens: tokens.output_tokens,
    total_tokens: tokens.total_tokens,
    cost_usd: tokens.cost_usd,
    usage_buckets: tokens.usage_buckets,
    usage_last_ms: tokens.usage_last_ms,
    usage_stamp: tokens.usage_stamp,
    status: summary.status,
    // "active because recent" expires with the clock: such a row is looked at again on the next read.
    recent: mayBeRecent(ctx, summary.status, summary.ended_at),
    last_response_preview: summary.last_response_preview,
  });
  return true;
}

/**
 * 1 when an `active` status may be "active because recent" (lib/forensics/status: the last record
 * within 10 minutes of now; no timestamp: the mtime), so it is rechecked on later reads; else 0.
 */
function mayBeRecent(ctx: CoreContext, status: string | null, endedAt: string | null): number {
  if (status !== "active") return 0;
  if (endedAt === null) return 1;
  return Math.abs(ctx.now().getTime() - Date.parse(endedAt)) < ACTIVE_WINDOW_MS + 60_000 ? 1 : 0;
}
