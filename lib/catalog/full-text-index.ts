// The full-text fill: every session's new lines added to the index, and how much of the workspace it covers.

import { statSync } from "node:fs";
import path from "node:path";

import { serialized, withCatalog } from "@/lib/catalog/catalog";
import { isFsError } from "@/lib/catalog/catalog-fault";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { DOC_KINDS } from "@/lib/catalog/db-schema";
import { docFormat, type ExtractedLines, LinePrefetch } from "@/lib/catalog/extract-lines";
import { HEAD_BYTES, indexLines } from "@/lib/catalog/index-lines";
import type { CatalogStore, FullTextCoverage } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";
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
  // The catalog's cross-process index lock: one process at a time adds lines to the index, so a
  // CLI prepare and the server's watcher never index the same lines twice.
  return serialized(ctx, () => catalogStore(ctx).withIndexLock(async () => {
    const ws = await loadWorkspace(ctx);
    const store = catalogStore(ctx);
    const out: FullTextFillResult = { sessions_indexed: 0, lines_indexed: 0 };
    const prefetch = options.extractors === 0 ? null : new LinePrefetch(HEAD_BYTES, options.extractors);
    try {
      for (const project of ws.projects) {
        const stale = await store.staleFullText(project.projectKey);
        if (stale.length === 0) continue;
        // Sessions indexed from their first byte have their transcripts extracted on a worker a few sessions ahead.
        const fileOf = (i: number) => path.join(project.dir, stale[i]!.session_path);
        const ahead = (i: number) => {
          if (i < stale.length && stale[i]!.indexed_bytes === 0) prefetch?.want(fileOf(i), docFormat(stale[i]!.source, "main"));
        };
        for (let k = 0; k < (prefetch?.ahead ?? 0); k++) ahead(k);
        await store.write(async (tx) => {
          for (const [i, s] of stale.entries()) {
            ahead(i + (prefetch?.ahead ?? 0));
            const file = fileOf(i);
            const st = statSync(file, { throwIfNoEntry: false });
            if (st?.isFile()) {
              let lines: number | null;
              try {
                lines = await indexSessionDocs(tx, s.id, s.source, project.dir, file, prefetch?.take(file));
              } catch (error) {
                if (!isFsError(error)) throw error;
                // A file that cannot be read is left for its next version (the search then says
                // it covers everything it can), instead of ending every fill at it.
                ctx.log.warn(`[casefile] full-text index: cannot read ${file}: ${String(error)}`);
                lines = null;
                await tx.setFtsStamp(s.id, fileStamp(st));
              }
              if (lines !== null) {
                await tx.setFtsStamp(s.id, fileStamp(st));
                out.sessions_indexed += 1;
                out.lines_indexed += lines;
              }
            }
            prefetch?.drop(file);
            await tx.commitIfDue(FILL_TX_MAX_MS);
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
async function indexSessionDocs(store: CatalogStore, sessionId: number, source: string, projectDir: string, mainFile: string, prefetched: Promise<ExtractedLines | null> | undefined): Promise<number | null> {
  const files = await sessionFilesAt(projectDir, mainFile);
  const stored = new Map((await store.searchDocs(sessionId)).map((d) => [`${d.kind}:${d.name}`, d]));
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
    // A document not stored yet (the stored ones are in `stored`): its row made, its id kept.
    const docId = doc?.id ?? (await store.addSearchDoc(sessionId, kind, name, file.relative));
    const lines = await indexLines(store, docId, file.path, docFormat(source, file.kind), file.kind === "main" ? prefetched : undefined);
    if (lines === null) return null;
    await store.setDocStamp(docId, stamp);
    added += lines;
  }
  // Documents whose files are gone (a subagent transcript removed on a re-prepare).
  for (const doc of stored.values()) await store.dropSearchDoc(doc.id);
  return added;
}

/**
 * How much of the workspace the full-text index covers: sessions (with a file) whose every line
 * up to their present size is indexed, of all such sessions; `project_key`, `source` and `machine` narrow both.
 */
export function fullTextCoverage(ctx: CoreContext, filter: { project_key?: string; source?: string; machine?: string } = {}): Promise<FullTextCoverage> {
  return catalogStore(ctx).fullTextCoverage(filter);
}
