// The rows refresh: the catalog's projects, sessions and turns brought in step with the workspace files.

import path from "node:path";

import { serialized, whileSyncing, withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { coverageStamp, projectIndexStamp, refreshCoverage, upsertProject } from "@/lib/catalog/project-row";
import { fillCatalogRisk } from "@/lib/catalog/refresh-risk";
import { refreshSession } from "@/lib/catalog/refresh-session";
import { ROW_FACTS_MIN_SESSIONS, RowFactsAhead } from "@/lib/catalog/row-facts";
import type { CatalogStore } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";
import { fileStampOf } from "@/lib/fs/file-stamp";
import { type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import type { PlanProgress } from "@/lib/workspace/prepare-plan";
import type { IndexRow } from "@/lib/workspace/schema";
import type { CountedUsages } from "@/lib/workspace/session-usage";

/** What a refresh did: projects seen, sessions whose rows were (re)written. */
export type CatalogRefresh = { projects: number; sessions_updated: number };

/**
 * Brings the whole catalog's rows in step with the workspace files (prepare, start-up sync, the
 * watcher): projects whose index moved are re-read, and every session whose file changed (size,
 * mtime) has its row rewritten; unchanged sessions cost one stat. Projects gone from the
 * workspace are dropped. The full-text index is {@link fillFullText}'s (`afterRows` is called
 * once the rows are written: the server starts its fill there). With `risk` (the server's
 * watcher, in the background), seed 003 risk is filled in for every session whose stored risk is
 * older than its file, so a project page never waits on it (list_sessions computes it otherwise).
 * `counted`: the usage the prepare just run counted of the sessions it copied, taken instead of
 * reading their transcripts again (issue 25).
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export async function refreshCatalog(ctx: CoreContext, options: { risk?: boolean; afterRows?: () => void; onProgress?: PlanProgress; counted?: CountedUsages } = {}): Promise<CatalogRefresh> {
  const done = await withCatalog(ctx, () => refreshCatalogOnce(ctx, options));
  options.afterRows?.();
  if (options.risk) await fillCatalogRisk(ctx);
  return done;
}

function refreshCatalogOnce(ctx: CoreContext, options: { onProgress?: PlanProgress; counted?: CountedUsages }): Promise<CatalogRefresh> {
  return whileSyncing(ctx, () => refreshWhole(ctx, options.onProgress, options.counted));
}

/** `onProgress(done, total, label)`: sessions looked at of the workspace's, the project's label; `counted` as {@link refreshCatalog}'s. */
function refreshWhole(ctx: CoreContext, onProgress?: PlanProgress, counted?: CountedUsages): Promise<CatalogRefresh> {
  return serialized(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const out: CatalogRefresh = { projects: ws.projects.length, sessions_updated: 0 };
    const store = catalogStore(ctx);
    const keep = new Set(ws.projects.map((p) => p.projectKey));
    for (const row of await store.projectStamps()) {
      if (!keep.has(row.project_key)) await store.dropProject(row.project_key);
    }
    const total = ws.projects.reduce((n, p) => n + p.rows.length, 0);
    let done = 0;
    // One read-ahead of row facts for the whole workspace, in the order the rows are written.
    const storedStamps = new Map((await store.sessionStamps()).map((r) => [`${r.project_key}\u0000${r.session_ref}`, r.file_stamp]));
    const moved = ws.projects.flatMap((p) => movedRows(p, (ref) => storedStamps.get(`${p.projectKey}\u0000${ref}`)).map((row) => ({ project: p, row, counted: counted?.take(p.projectKey, row.session_ref) })));
    const ahead = moved.length >= ROW_FACTS_MIN_SESSIONS ? new RowFactsAhead(ctx.workspaceRoot, moved) : null;
    try {
      for (const [ord, project] of ws.projects.entries()) {
        const tick = onProgress ? () => onProgress(++done, total, project.projectLabel) : undefined;
        out.sessions_updated += await refreshProject(ctx, project, ord, tick, ahead ?? undefined, ahead ? undefined : counted);
      }
    } finally {
      await ahead?.close();
    }
    return out;
  });
}

/**
 * Brings one project's rows in step in few write transactions (refreshes of a workspace run one
 * at a time: {@link serialized}), committed every 200 ms ({@link commitIfDue}): a
 * commit per session and per statement was a third of the CPU of cataloguing many small
 * sessions (issue 25). What was committed is consistent: a session's progress is written after
 * its rows, and rows of an interrupted session are deleted when it is indexed again.
 */
export async function refreshProject(ctx: CoreContext, project: LoadedProject, ord: number, tick?: () => void, ahead?: RowFactsAhead, counted?: CountedUsages): Promise<number> {
  const store = catalogStore(ctx);
  const rows = (tx: CatalogStore) => refreshProjectRows(ctx, tx, project, ord, tick, ahead, counted);
  if (store.writing()) return rows(store);
  // Nothing to write: no wait for the write lock, which a full-text fill holds most of the time
  // (a project page read during a first start's fill waited 0.1–0.3 s for it here).
  if (await inStep(store, project, ord)) return 0;
  return store.write(rows);
}

/**
 * Whether the project's rows are in step with its files, read without a write transaction: its
 * row written for this index and order, its coverage for this stamp, a row for each session and
 * none more, no session file moved, and no status that the clock may change ("active" while recent).
 */
async function inStep(store: CatalogStore, project: LoadedProject, ord: number): Promise<boolean> {
  const indexStamp = projectIndexStamp(project);
  const known = await store.projectStamp(project.projectKey);
  if (!known || known.index_stamp !== indexStamp || known.ord !== ord || known.coverage_stamp !== coverageStamp(project, indexStamp)) return false;
  const stored = await store.sessionStamps(project.projectKey);
  if (stored.length !== project.rows.length || stored.some((s) => s.status_recent !== 0)) return false;
  const byRef = new Map(stored.map((s) => [s.session_ref, s.file_stamp]));
  return project.rows.every((row) => byRef.has(row.session_ref)) && movedRows(project, (ref) => byRef.get(ref)).length === 0;
}

/**
 * The project's rows whose file is new to the catalog or moved (size, mtime) since its row was
 * written: their row facts will be read. `storedStamp(ref)` is the stored file stamp (undefined: no row).
 */
function movedRows(project: LoadedProject, storedStamp: (sessionRef: string) => string | null | undefined): IndexRow[] {
  return project.rows.filter((row) => {
    return storedStamp(row.session_ref) !== fileStampOf(path.join(project.dir, row.session_path));
  });
}

/**
 * Brings one project's rows in step; returns how many session rows were (re)written. `tick` is
 * called after each session; `ahead`: the whole refresh's row facts read ahead (else the project's own, when many moved);
 * `counted`: usage prepare counted (see {@link refreshCatalog}) of sessions not read ahead.
 */
async function refreshProjectRows(ctx: CoreContext, store: CatalogStore, project: LoadedProject, ord: number, tick?: () => void, given?: RowFactsAhead, counted?: CountedUsages): Promise<number> {
  const indexStamp = projectIndexStamp(project);
  const known = await store.projectStamp(project.projectKey);
  // The project's row (origin included) is rewritten when its index moved; else only after one of its sessions did.
  if (!known || known.index_stamp !== indexStamp || known.ord !== ord) await upsertProject(ctx, store, project, ord, indexStamp);
  const stored = new Map((await store.storedSessions(project.projectKey)).map((r) => [r.session_ref, r]));
  const refs = new Set(project.rows.map((r) => r.session_ref));
  for (const [ref, row] of stored) {
    if (!refs.has(ref)) await store.dropSession(row.id);
  }
  let sessionsUpdated = 0;
  // Sessions new to the catalog or whose file moved have their row facts read ahead, on a worker
  // beside this thread, while this thread writes the rows.
  const moved = given ? [] : movedRows(project, (ref) => stored.get(ref)?.file_stamp);
  const own = moved.length >= ROW_FACTS_MIN_SESSIONS ? new RowFactsAhead(ctx.workspaceRoot, moved.map((row) => ({ project, row, counted: counted?.take(project.projectKey, row.session_ref) }))) : null;
  const ahead = given ?? own;
  try {
    for (const [i, row] of project.rows.entries()) {
      if (await refreshSession(ctx, store, project, row, i, stored.get(row.session_ref), ahead?.get(project.projectKey, row.session_ref), counted?.take(project.projectKey, row.session_ref))) sessionsUpdated += 1;
      tick?.();
      await store.commitIfDue();
    }
  } finally {
    await own?.close();
  }
  // A session that moved may be the latest, whose file gives the project's cwd and branch.
  if (sessionsUpdated > 0 && known?.index_stamp === indexStamp && known.ord === ord) await upsertProject(ctx, store, project, ord, indexStamp);
  await refreshCoverage(ctx, store, project, indexStamp);
  return sessionsUpdated;
}
