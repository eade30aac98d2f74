// The full-text fill: every session's new lines added to the index, and how much of the workspace it covers.

import { statSync } from "node:fs";
import path from "node:path";

import { catalogDb, catalogFile, serialized, withCatalog } from "@/lib/catalog/catalog";
import { isFsError } from "@/lib/catalog/catalog-fault";
import { LinePrefetch } from "@/lib/catalog/extract-lines";
import { HEAD_BYTES, indexLines } from "@/lib/catalog/index-lines";
import { commitIfDue, stmt, writeTransaction } from "@/lib/catalog/transactions";
import { SqlWhere } from "@/lib/catalog/where";
import type { CoreContext } from "@/lib/context";
import { withFileLock } from "@/lib/fs/file-lock";
import { fileStamp } from "@/lib/fs/file-stamp";
import { loadWorkspace } from "@/lib/workspace/load";

/** New sessions whose lines are extracted ahead of the one being written ({@link LinePrefetch}). */
const PREFETCH_AHEAD = 2;

/** What a full-text fill did: sessions whose new lines it indexed, and how many lines. */
export type FullTextFillResult = { sessions_indexed: number; lines_indexed: number };

/**
 * Brings the full-text index (`lines_fts`, with each session's tools, files and error count) in
 * step with the session rows: every session whose file stamp differs from what was indexed has
 * its new lines indexed (from where it stopped when the file only grew, else from the start).
 * Run after a rows refresh: by the server in the background ({@link requestFullTextFill}, on a
 * worker) and by a one-shot search before it answers. Holds the catalog's cross-process index
 * lock, so two processes never index the same lines. A session dropped or replaced meanwhile by a
 * rows refresh stops being indexed at its next batch (its rows go with it). `prefetch: false` (a
 * fill already on a background worker): lines are extracted on this thread, not on a worker of its own.
 * @throws AppError io_error when the index lock cannot be taken within 30 s; not_found | parse_error from the workspace loader.
 */
export function fillFullText(ctx: CoreContext, options: { prefetch?: boolean } = {}): Promise<FullTextFillResult> {
  return withCatalog(ctx, () => fillFullTextOnce(ctx, options));
}

function fillFullTextOnce(ctx: CoreContext, options: { prefetch?: boolean }): Promise<FullTextFillResult> {
  return serialized(ctx, () => withIndexLock(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const db = catalogDb(ctx);
    const out: FullTextFillResult = { sessions_indexed: 0, lines_indexed: 0 };
    const prefetch = options.prefetch === false ? null : new LinePrefetch(HEAD_BYTES);
    try {
      for (const project of ws.projects) {
        const stale = stmt(db, "SELECT id, session_path, indexed_bytes FROM sessions WHERE project_key = ? AND missing = 0 AND file_stamp IS NOT NULL AND fts_stamp IS NOT file_stamp ORDER BY ord").all(project.projectKey) as { id: number; session_path: string; indexed_bytes: number }[];
        if (stale.length === 0) continue;
        // Sessions indexed from their first byte have their lines extracted on a worker a few sessions ahead.
        const fileOf = (i: number) => path.join(project.dir, stale[i]!.session_path);
        const ahead = (i: number) => {
          if (i < stale.length && stale[i]!.indexed_bytes === 0) prefetch?.want(fileOf(i));
        };
        for (let k = 0; k < PREFETCH_AHEAD; k++) ahead(k);
        await writeTransaction(db, async () => {
          for (const [i, s] of stale.entries()) {
            ahead(i + PREFETCH_AHEAD);
            const file = fileOf(i);
            const st = statSync(file, { throwIfNoEntry: false });
            if (st?.isFile()) {
              let lines: number | null;
              try {
                lines = await indexLines(db, s.id, file, s.indexed_bytes === 0, prefetch?.take(file));
              } catch (error) {
                if (!isFsError(error)) throw error;
                // A file that cannot be read is left for its next version (the search then says
                // it covers everything it can), instead of ending every fill at it.
                ctx.log.warn(`[casefile] full-text index: cannot read ${file}: ${String(error)}`);
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(fileStamp(st), s.id);
                lines = null;
              }
              if (lines !== null) {
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(fileStamp(st), s.id);
                out.sessions_indexed += 1;
                out.lines_indexed += lines;
              }
            }
            prefetch?.drop(file);
            await commitIfDue(db);
          }
        });
      }
    } finally {
      await prefetch?.close();
    }
    return out;
  }));
}

/**
 * How much of the workspace the full-text index covers: sessions (with a file) whose every line
 * up to their present size is indexed, of all such sessions; `project_key` and `source` narrow both.
 */
export function fullTextCoverage(ctx: CoreContext, filter: { project_key?: string; source?: string } = {}): { sessions_indexed: number; sessions_total: number } {
  const where = new SqlWhere(["missing = 0", "file_stamp IS NOT NULL"]).add("project_key = @project_key", "project_key", filter.project_key || undefined).add("source = @source", "source", filter.source || undefined);
  const row = stmt(catalogDb(ctx), `SELECT count(*) AS total, coalesce(sum(fts_stamp IS file_stamp), 0) AS indexed FROM sessions WHERE ${where.sql}`).get(where.params) as { total: number; indexed: number };
  return { sessions_indexed: row.indexed, sessions_total: row.total };
}

/**
 * Runs `fn` holding the catalog's cross-process lock (`catalog.sqlite.lock`): one process at a
 * time adds lines to the full-text index, so a CLI prepare and the server's watcher never index
 * the same lines twice. Row upserts of the read paths need no lock (they are idempotent).
 * @throws AppError io_error when the lock cannot be taken within 30 s; whatever `fn` throws.
 */
function withIndexLock<T>(ctx: CoreContext, fn: () => Promise<T>): Promise<T> {
  const file = catalogFile(ctx);
  // A catalog in memory is this process's alone.
  return file === null ? fn() : withFileLock(file, () => fn());
}
