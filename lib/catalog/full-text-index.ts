// The full-text fill: every session's new lines added to the index, and how much of the workspace it covers.

import { statSync } from "node:fs";
import path from "node:path";

import type Database from "better-sqlite3";

import { catalogDb, catalogFile, serialized, withCatalog } from "@/lib/catalog/catalog";
import { isFsError } from "@/lib/catalog/catalog-fault";
import { DOC_KINDS } from "@/lib/catalog/db-schema";
import { deleteDocLines } from "@/lib/catalog/drop-rows";
import { docFormat, type ExtractedLines, LinePrefetch } from "@/lib/catalog/extract-lines";
import { HEAD_BYTES, indexLines } from "@/lib/catalog/index-lines";
import { commitIfDue, stmt, writeTransaction } from "@/lib/catalog/transactions";
import { SqlWhere } from "@/lib/catalog/where";
import type { CoreContext } from "@/lib/context";
import { withFileLock } from "@/lib/fs/file-lock";
import { fileStamp } from "@/lib/fs/file-stamp";
import { loadWorkspace } from "@/lib/workspace/load";
import { sessionFilesAt } from "@/lib/workspace/sessions";

/**
 * Longest a fill keeps its write transaction open (ms): FTS5 writes a segment at every commit and
 * merges them later, so fewer commits are less work; a rows refresh waits at most this long.
 */
const FILL_TX_MAX_MS = 1_000;

/** What a full-text fill did: sessions whose new lines it indexed, and how many lines. */
export type FullTextFillResult = { sessions_indexed: number; lines_indexed: number };

/**
 * Brings the full-text index (`lines_fts` and `line_meta`, per document: a session's transcript,
 * subagent transcripts and persisted tool results) in step with the session rows: every session
 * whose file stamp differs from what was indexed has its documents' new lines indexed (from where
 * each stopped when its file only grew, else from the start).
 * Run after a rows refresh: by the server in the background ({@link requestFullTextFill}, on a
 * worker) and by a one-shot search before it answers. Holds the catalog's cross-process index
 * lock, so two processes never index the same lines. A session dropped or replaced meanwhile by a
 * rows refresh stops being indexed at its next batch (its rows go with it). `extractors`: threads
 * that extract new transcripts' lines a few sessions ahead of this one's writes (default 2; 0: on this thread).
 * @throws AppError io_error when the index lock cannot be taken within 30 s; not_found | parse_error from the workspace loader.
 */
export function fillFullText(ctx: CoreContext, options: { extractors?: number } = {}): Promise<FullTextFillResult> {
  return withCatalog(ctx, () => fillFullTextOnce(ctx, options));
}

function fillFullTextOnce(ctx: CoreContext, options: { extractors?: number }): Promise<FullTextFillResult> {
  return serialized(ctx, () => withIndexLock(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const db = catalogDb(ctx);
    const out: FullTextFillResult = { sessions_indexed: 0, lines_indexed: 0 };
    const prefetch = options.extractors === 0 ? null : new LinePrefetch(HEAD_BYTES, options.extractors);
    try {
      for (const project of ws.projects) {
        const stale = stmt(
          db,
          `SELECT s.id, s.session_path, s.source, coalesce(d.indexed_bytes, 0) AS indexed_bytes FROM sessions s LEFT JOIN search_docs d ON d.session_id = s.id AND d.kind = 0
           WHERE s.project_key = ? AND s.missing = 0 AND s.file_stamp IS NOT NULL AND s.fts_stamp IS NOT s.file_stamp ORDER BY s.ord`,
        ).all(project.projectKey) as { id: number; session_path: string; source: string; indexed_bytes: number }[];
        if (stale.length === 0) continue;
        // Sessions indexed from their first byte have their transcripts extracted on a worker a few sessions ahead.
        const fileOf = (i: number) => path.join(project.dir, stale[i]!.session_path);
        const ahead = (i: number) => {
          if (i < stale.length && stale[i]!.indexed_bytes === 0) prefetch?.want(fileOf(i), docFormat(stale[i]!.source, "main"));
        };
        for (let k = 0; k < (prefetch?.ahead ?? 0); k++) ahead(k);
        await writeTransaction(db, async () => {
          for (const [i, s] of stale.entries()) {
            ahead(i + (prefetch?.ahead ?? 0));
            const file = fileOf(i);
            const st = statSync(file, { throwIfNoEntry: false });
            if (st?.isFile()) {
              let lines: number | null;
              try {
                lines = await indexSessionDocs(db, s.id, s.source, project.dir, file, prefetch?.take(file));
              } catch (error) {
                if (!isFsError(error)) throw error;
                // A file that cannot be read is left for its next version (the search then says
                // it covers everything it can), instead of ending every fill at it.
                ctx.log.warn(`[casefile] full-text index: cannot read ${file}: ${String(error)}`);
                lines = null;
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(fileStamp(st), s.id);
              }
              if (lines !== null) {
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(fileStamp(st), s.id);
                out.sessions_indexed += 1;
                out.lines_indexed += lines;
              }
            }
            prefetch?.drop(file);
            await commitIfDue(db, FILL_TX_MAX_MS);
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
 * Indexes every document of one session (its transcript, then its subagent transcripts and
 * persisted tool results, lib/workspace/sessions' `sessionFilesAt`) whose file changed since it
 * was indexed, each read as its format for the session's `source` (lib/catalog/extract-lines'
 * `docFormat`: an agent session's transcript by the agent's reader), and forgets those that are gone. Returns the lines added, null when the session's
 * row went away meanwhile.
 * @throws the fs error when a file cannot be read.
 */
async function indexSessionDocs(db: Database.Database, sessionId: number, source: string, projectDir: string, mainFile: string, prefetched: Promise<ExtractedLines | null> | undefined): Promise<number | null> {
  const files = await sessionFilesAt(projectDir, mainFile);
  const stored = new Map((stmt(db, "SELECT id, kind, name, stamp FROM search_docs WHERE session_id = ?").all(sessionId) as { id: number; kind: number; name: string; stamp: string | null }[]).map((d) => [`${d.kind}:${d.name}`, d]));
  // A document not stored yet (the stored ones are in `stored`): its row made, its id kept.
  const insert = stmt(db, "INSERT INTO search_docs (session_id, kind, name, rel_path) VALUES (?, ?, ?, ?)");
  let added = 0;
  for (const file of files) {
    const kind = DOC_KINDS.indexOf(file.kind);
    const name = file.id ?? "";
    const key = `${kind}:${name}`;
    const doc = stored.get(key);
    stored.delete(key);
    const st = statSync(file.path, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    const stamp = fileStamp(st);
    if (doc?.stamp === stamp) continue;
    const docId = doc?.id ?? Number(insert.run(sessionId, kind, name, file.relative).lastInsertRowid);
    const lines = await indexLines(db, docId, file.path, docFormat(source, file.kind), file.kind === "main" ? prefetched : undefined);
    if (lines === null) return null;
    stmt(db, "UPDATE search_docs SET stamp = ? WHERE id = ?").run(stamp, docId);
    added += lines;
  }
  // Documents whose files are gone (a subagent transcript removed on a re-prepare).
  for (const doc of stored.values()) {
    deleteDocLines(db, doc.id);
    stmt(db, "DELETE FROM search_docs WHERE id = ?").run(doc.id);
  }
  return added;
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
