// One session's rows rewritten when its file or index row changed.

import { statSync } from "node:fs";
import path from "node:path";

import { isFsError } from "@/lib/catalog/catalog-fault";
import { readRowFacts, type RowFacts } from "@/lib/catalog/row-facts";
import type { CatalogStore, StoredSession } from "@/lib/catalog/store";
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

function turnsSig(row: IndexRow): string {
  return [...row.turns].sort((a, b) => a.turn_start_line - b.turn_start_line).map((t) => `${t.turn_ref}:${t.turn_start_line}:${t.turn_end_line}`).join(",");
}

/**
 * Rewrites one session's rows when its file or index row changed (its lines are {@link fillFullText}'s
 * to index); returns whether anything was written.
 */
export async function refreshSession(ctx: CoreContext, store: CatalogStore, project: LoadedProject, row: IndexRow, ord: number, stored: StoredSession | undefined, early?: Promise<RowFacts | null>, counted?: CountedUsage): Promise<boolean> {
  const machine = sessionMachine(project.dir, row.session_ref);
  // A session's machine is its project's record (issue 39): retagged without reading the session.
  if (stored && stored.machine !== machine) await store.setSessionMachine(stored.id, machine);
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
    await store.setSessionOrd(stored.id, ord);
    // "active because recent" expires with the clock, not with the file: recheck only that.
    if (stored.status_recent === 0 || filePath === null) return false;
    const summary = await getSessionSummary(ctx, { project, row, filePath });
    const recent = mayBeRecent(ctx, summary.status, summary.ended_at);
    return store.setSessionStatus(stored.id, summary.status, recent);
  }
  let id = stored?.id;
  if (stored && !sameIdentity) {
    await store.dropSession(stored.id);
    id = undefined;
  }
  // Else another process made the row between two of this refresh's transactions: its rows stay.
  const sessionId = id ?? (await store.insertSession({ project_key: project.projectKey, session_ref: row.session_ref, ord, source: row.source, source_session_id: row.source_session_id, session_path: row.session_path, turn_count: row.turns.length, machine }));
  await store.replaceTurns(sessionId, row.turns);
  const gone = async () => {
    // A session whose file is gone (or cannot be read) has no lines to find; with no stamp, the next refresh looks again.
    await store.markSessionMissing(sessionId, ord, row.turns.length);
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
  await store.updateSessionFacts(sessionId, {
    ord,
    file_stamp: version,
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
    status_recent: mayBeRecent(ctx, summary.status, summary.ended_at),
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
