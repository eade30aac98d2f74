// The workspace catalog: one derived SQLite file (WAL) of projects, sessions, turns, coverage and a full-text index of every line.

import { createHash } from "node:crypto";
import { accessSync, constants as fsConstants, existsSync, mkdirSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import Database from "better-sqlite3";

import { getSessionRiskIfReady, RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { processWide } from "@/lib/cache/process-wide";
import { LineExtractor, LinePrefetch, type ExtractedLines } from "@/lib/catalog/extract-lines";
import { RiskFill } from "@/lib/catalog/risk-fill";
import { readRowFacts, ROW_FACTS_MIN_SESSIONS, RowFactsAhead, type RowFacts } from "@/lib/catalog/row-facts";
import type { CountedUsage, CountedUsages } from "@/lib/workspace/session-usage";
import { SqlWhere } from "@/lib/catalog/where";
import type { CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getSessionSummary } from "@/lib/forensics/session-summary";
import { ACTIVE_WINDOW_MS } from "@/lib/forensics/status";
import { withFileLock } from "@/lib/fs/file-lock";
import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { linksOutside, resolveInside } from "@/lib/fs/paths";
import { setAsideDerived } from "@/lib/fs/set-aside";
import { catalogPath, entryStamp, EVIDENCE_DIR, PROJECT_JSON, SESSIONS_DIR, SESSIONS_INDEX, SYNTHESIS_FILE } from "@/lib/fs/workspace-layout";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { loadWorkspace, type LoadedProject } from "@/lib/workspace/load";
import { getProjectOrigin } from "@/lib/workspace/project-origin";
import { projectProblem } from "@/lib/workspace/project-problem";
import type { PlanProgress } from "@/lib/workspace/prepare-plan";
import type { IndexRow, SessionListItem } from "@/lib/workspace/schema";
import type { ResolvedSession } from "@/lib/workspace/sessions";

/**
 * Bumped whenever the schema or what a row holds changes (lib/catalog/extract too): an older file
 * is deleted and rebuilt. 10: a row's times are the session's clock (min and max record time) and
 * its first user message the first real prompt (issue 36 items 5, 6).
 */
const SCHEMA_VERSION = 10;
/** SQLite's own wait for another process's lock, outside refresh transactions ({@link beginWrite}). */
const BUSY_TIMEOUT_MS = 5_000;
/** Bytes at the head of a session file whose hash tells a grown file from a rewritten one. */
const HEAD_BYTES = 4096;
/** FTS rows inserted per transaction while a session is indexed. */
const BATCH_LINES = 2000;
/** New sessions whose lines are extracted ahead of the one being written ({@link LinePrefetch}). */
const PREFETCH_AHEAD = 2;

const SCHEMA = `
CREATE TABLE projects (
  project_key TEXT PRIMARY KEY, ord INTEGER NOT NULL, project_label TEXT NOT NULL, index_stamp TEXT NOT NULL,
  session_count INTEGER NOT NULL, turn_count INTEGER NOT NULL, cwd TEXT, git_branch TEXT, broken_rows TEXT NOT NULL,
  coverage_stamp TEXT, turns_with_chain INTEGER NOT NULL DEFAULT 0, covered_turns INTEGER NOT NULL DEFAULT 0,
  indexed_turns INTEGER NOT NULL DEFAULT 0, synthesis_complete INTEGER NOT NULL DEFAULT 0, has_envelope INTEGER NOT NULL DEFAULT 0,
  problem TEXT
);
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY, project_key TEXT NOT NULL, session_ref TEXT NOT NULL, ord INTEGER NOT NULL,
  source TEXT NOT NULL, source_session_id TEXT NOT NULL, session_path TEXT NOT NULL,
  file_stamp TEXT, fts_stamp TEXT, head_sha TEXT, indexed_bytes INTEGER NOT NULL DEFAULT 0, indexed_lines INTEGER NOT NULL DEFAULT 0,
  started_at TEXT, ended_at TEXT, duration_seconds REAL, turn_count INTEGER NOT NULL, first_user_message TEXT,
  subagent_count INTEGER NOT NULL DEFAULT 0, size_bytes INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER, total_tokens INTEGER, cost_usd REAL,
  usage_buckets TEXT, usage_last_ms REAL, usage_stamp TEXT,
  status TEXT, status_recent INTEGER NOT NULL DEFAULT 0, last_response_preview TEXT,
  risk_stamp TEXT, risk_level TEXT, reset_count INTEGER, error_count INTEGER NOT NULL DEFAULT 0, missing INTEGER NOT NULL DEFAULT 0,
  UNIQUE (project_key, session_ref)
);
CREATE INDEX sessions_by_time ON sessions (started_at);
CREATE TABLE turns (session_id INTEGER NOT NULL, turn_ref TEXT NOT NULL, turn_start_line INTEGER NOT NULL, turn_end_line INTEGER NOT NULL, PRIMARY KEY (session_id, turn_ref)) WITHOUT ROWID;
CREATE INDEX turns_by_line ON turns (session_id, turn_start_line);
CREATE TABLE session_tools (session_id INTEGER NOT NULL, name TEXT NOT NULL, uses INTEGER NOT NULL, PRIMARY KEY (session_id, name)) WITHOUT ROWID;
CREATE INDEX tools_by_name ON session_tools (name);
CREATE TABLE session_files (session_id INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (session_id, path)) WITHOUT ROWID;
CREATE VIRTUAL TABLE lines_fts USING fts5 (body, session_id UNINDEXED, line_number UNINDEXED, tokenize = 'trigram');
`;

/**
 * A line's rowid in `lines_fts`: the session id in the high 32 bits, the line number in the low
 * ones, so a session's rows are one rowid range (FTS5 deletes a range through its b-tree; a
 * filter on an UNINDEXED column scans the whole table, which made indexing 20,000 new sessions quadratic).
 */
export function lineRowid(sessionId: number, line: number): bigint {
  return (BigInt(sessionId) << 32n) | BigInt(line);
}

/** Deletes every full-text row of a session (its rowid range). */
function deleteSessionLines(db: Database.Database, sessionId: number): void {
  stmt(db, "DELETE FROM lines_fts WHERE rowid BETWEEN ? AND ?").run(lineRowid(sessionId, 0), lineRowid(sessionId, 0xffffffff));
}

/**
 * Where a workspace's catalog lives: its own `.casefile/catalog.sqlite`; else, when that cannot be
 * written (a read-only file or folder), a file in the temp folder named after the workspace (every
 * process of the workspace finds the same one); else memory, private to the process (issue 35).
 */
type CatalogPlace = "workspace" | "temp" | "memory";
const PLACES: readonly CatalogPlace[] = ["workspace", "temp", "memory"];

/** An open catalog: its file (null in memory), that file's inode, and its place. */
type Handle = { db: Database.Database; file: string | null; ino: number; place: CatalogPlace };
const handles = processWide("catalog:open-handles", () => new Map<string, Handle>());

/**
 * Per workspace, whatever happens to its handle: `queue` serializes this process's refreshes;
 * `syncing` counts whole-catalog refreshes queued or running; `generation` counts handles closed
 * under the process (a caller that saw it move retries rather than set a new catalog aside);
 * `place` is where the next open starts.
 */
type WorkspaceState = { queue: Promise<unknown>; syncing: number; generation: number; place: CatalogPlace };
const states = processWide("catalog:workspace-states", () => new Map<string, WorkspaceState>());

function stateOf(ctx: CoreContext): WorkspaceState {
  let state = states.get(ctx.workspaceRoot);
  if (!state) states.set(ctx.workspaceRoot, (state = { queue: Promise.resolve(), syncing: 0, generation: 0, place: "workspace" }));
  return state;
}

/**
 * The workspace's catalog database, opened once per process (WAL, foreign writers waited for up
 * to 5 s). A missing file, one of an older schema, or one deleted under the process (`prepare
 * --force` clears `.casefile/`) is created anew, empty: the refresh functions fill it from the
 * files, which stay the source of truth. A file that is corrupt or cannot be written is set aside
 * with a warning and made anew ({@link withCatalog} says how; issue 35).
 */
export function catalogDb(ctx: CoreContext): Database.Database {
  return handle(ctx).db;
}

function handle(ctx: CoreContext): Handle {
  const open = handles.get(ctx.workspaceRoot);
  if (open && isCurrent(open)) return open;
  if (open) dropHandle(ctx);
  return openCatalog(ctx);
}

/** Whether an open handle's file is still the one at its path (not deleted, replaced or set aside by another process). */
function isCurrent(h: Handle): boolean {
  if (h.file === null) return true;
  const st = statSync(h.file, { throwIfNoEntry: false });
  return st !== undefined && st.ino === h.ino;
}

/** Closes the workspace's handle, if any; callers holding its connection then fail and retry ({@link withCatalog}). */
function dropHandle(ctx: CoreContext): Handle | undefined {
  const open = handles.get(ctx.workspaceRoot);
  if (!open) return undefined;
  handles.delete(ctx.workspaceRoot);
  stateOf(ctx).generation += 1;
  try {
    open.db.close();
  } catch {
    // NOTE: a connection that cannot even close is dropped all the same: a new one is opened.
  }
  return open;
}

/** The catalog file of a place (null: memory). */
function placeFile(root: string, place: CatalogPlace): string | null {
  if (place === "workspace") return catalogPath(root);
  if (place === "temp") return path.join(os.tmpdir(), `casefile-catalog-${createHash("sha256").update(root).digest("hex").slice(0, 16)}`, "catalog.sqlite");
  return null;
}

/**
 * Why a catalog cannot serve: its bytes (`corrupt`: SQLITE_CORRUPT, SQLITE_NOTADB), its file
 * cannot be written (`readonly`), its folder cannot hold it (`place`), or the file was moved under
 * the connection (`moved`: another process set it aside or `prepare --force` deleted it). Null for
 * any other error, which is not the catalog's (a transcript that cannot be read, a bug).
 */
type CatalogFault = "corrupt" | "readonly" | "place" | "moved";

function catalogFault(error: unknown): CatalogFault | null {
  if (error instanceof PlaceError) return error.fault;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return null;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) return "corrupt";
  if (code === "SQLITE_READONLY_DBMOVED") return "moved";
  if (code.startsWith("SQLITE_READONLY")) return "readonly";
  return code.startsWith("SQLITE_CANTOPEN") ? "place" : null;
}

/** A catalog file or folder that the file system will not let this process write. */
class PlaceError extends Error {
  constructor(
    readonly fault: "readonly" | "place",
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** What a fault is, for the warning. */
function faultText(fault: CatalogFault, error: unknown): string {
  const detail = error instanceof PlaceError ? error.message : `${(error as { code?: string }).code ?? "error"}: ${(error as Error).message}`;
  if (fault === "corrupt") return `is corrupt or truncated (${detail})`;
  return `cannot be written (${detail})`;
}

/**
 * Opens the workspace's catalog where it can be, from its state's place on: a file that is
 * corrupt (seen twice, a moment apart: never a passing state of a file another process is making)
 * or that cannot be written is set aside and made anew; a place that cannot hold it (its folder, or
 * a file that cannot even be moved) gives way to the next, with a warning. What cannot be written
 * is decided by `access(2)`, not by an SQLite code alone, which a busy moment can also raise.
 */
function openCatalog(ctx: CoreContext): Handle {
  const state = stateOf(ctx);
  let rechecked = false;
  let healedAt: CatalogPlace | null = null;
  for (let tries = 1; ; tries += 1) {
    const file = placeFile(ctx.workspaceRoot, state.place);
    try {
      const made = openAt(file, state.place);
      handles.set(ctx.workspaceRoot, made);
      return made;
    } catch (error) {
      const fault = catalogFault(error);
      if (fault === null || fault === "moved" || file === null || tries >= OPEN_TRIES) throw error;
      const sure = confirmedFault(file, fault, error, rechecked);
      if (sure === null) {
        rechecked = true;
        pause(FAULT_RECHECK_MS);
        continue;
      }
      // A new file that fails as well: the place is at fault, not the file.
      if (healedAt === state.place) giveWay(ctx, state, file, sure, error);
      else {
        healedAt = state.place;
        healPlace(ctx, file, sure, error);
      }
    }
  }
}

/** Opens of one catalog before a fault is final: a recheck, a set aside, a place given way, once more. */
const OPEN_TRIES = 6;
/** How long a fault waits before it is looked at again (a file another process is making settles). */
const FAULT_RECHECK_MS = 50;

/** Blocks this thread for `ms` (an open is synchronous; only a suspected fault waits). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A fault of the catalog at `file` once it is sure, else null (look again a moment later, on a new
 * connection): what cannot be written as `access(2)` says (at once); corruption, or an SQLite
 * refusal that `access(2)` does not explain (a folder where the file should be), once `rechecked`.
 */
function confirmedFault(file: string, fault: CatalogFault, error: unknown, rechecked: boolean): CatalogFault | null {
  if (error instanceof PlaceError) return error.fault;
  if (fault !== "corrupt") {
    const denied = writeFault(file);
    if (denied !== null) return denied;
  }
  if (!rechecked) return null;
  return fault === "corrupt" ? "corrupt" : existsSync(file) ? "readonly" : "place";
}

/** What `access(2)` says cannot be written of a catalog: its folder (`place`), the file (`readonly`), or nothing (null). */
function writeFault(file: string): "place" | "readonly" | null {
  try {
    checkWritable(file);
    return null;
  } catch (error) {
    if (error instanceof PlaceError) return error.fault;
    throw error;
  }
}

/** After a confirmed fault of the catalog at `file`: sets it aside, or when that cannot be done, lets its place give way. */
function healPlace(ctx: CoreContext, file: string, fault: CatalogFault, error: unknown): void {
  const movable = fault !== "place" && existsSync(file);
  if (movable && setAsideDerived(file, fault, faultText(fault, error), ctx.log, { companions: CATALOG_COMPANIONS }) !== null) return;
  giveWay(ctx, stateOf(ctx), file, fault, error);
}

/** The files SQLite keeps beside a catalog: they go with it when it is set aside. */
const CATALOG_COMPANIONS = ["-wal", "-shm"] as const;

/** Moves the workspace's catalog to the place after `file`'s, with a warning. */
function giveWay(ctx: CoreContext, state: WorkspaceState, file: string, fault: CatalogFault, error: unknown): void {
  const next = PLACES[PLACES.indexOf(state.place) + 1]!;
  state.place = next;
  const where = next === "memory" ? "a catalog in memory, rebuilt by each process" : `${placeFile(ctx.workspaceRoot, next)!}`;
  ctx.log.warn(`[casefile] catalog ${file} ${faultText(fault, error)}; using ${where} instead, built from the transcripts`);
}

/** Opens (or makes) the catalog file at `file` (null: in memory) and checks it can be read and written. */
function openAt(file: string | null, place: CatalogPlace): Handle {
  if (file !== null) checkWritable(file);
  const db = new Database(file ?? ":memory:");
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (file !== null) {
      try {
        db.pragma("journal_mode = WAL");
      } catch (error) {
        // Busy: another process is making this catalog, which it put in WAL mode first.
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
      }
    }
    if (schemaVersion(db) !== SCHEMA_VERSION) createSchema(db);
    // Reads the schema (page 1 whole): a file with a sound header but a broken first page fails here, not at a query.
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    db.pragma("synchronous = NORMAL");
    // Checkpoint every 64 MB of WAL, not 4 MB: a bulk refresh rewrites the same FTS pages many times,
    // and each checkpoint copies them again.
    db.pragma("wal_autocheckpoint = 16384");
    // JavaScript's lower case, so filters match exactly as the in-memory lists did (SQLite's lower() is ASCII only).
    db.function("js_lower", { deterministic: true }, (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v));
    return { db, file, ino: file === null ? 0 : statSync(file).ino, place };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Makes the catalog's folder and checks that it and an existing catalog file may be written
 * (`access(2)`: it also refuses an immutable file to root, which SQLite would open read-only).
 * @throws PlaceError `place` for the folder, `readonly` for the file.
 */
function checkWritable(file: string): void {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, fsConstants.W_OK);
  } catch (error) {
    throw new PlaceError("place", `its folder ${dir} cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    accessSync(file, fsConstants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new PlaceError("readonly", `the file cannot be written: ${code ?? String(error)}`, { cause: error });
  }
}

/**
 * Runs `fn`, a use of the workspace's catalog, and heals the catalog when `fn` meets it broken
 * (issue 35: the catalog is derived, so it must never make a call fail): corrupt or truncated
 * (SQLITE_CORRUPT, SQLITE_NOTADB, at open, at the first query or later), read-only
 * (SQLITE_READONLY, a file or folder that cannot be written) or moved under the process. A fault
 * is confirmed first (corruption seen again on a new connection a moment later; a read-only file
 * or folder by `access(2)`); then the broken file is set aside (renamed with a timestamp, a warning
 * naming it through `ctx.log`) or, when it cannot even be moved, left for a catalog elsewhere
 * ({@link CatalogPlace}); and `fn` runs again on a new catalog, which it fills from the
 * transcripts. `fn` must be safe to run again (every catalog use is: the catalog is derived).
 * This is the one place such faults are handled: every function that reads or writes the catalog
 * runs inside it (opening one runs the same checks: {@link openCatalog}).
 * @throws whatever `fn` throws that is not a catalog fault, or a fault that persists.
 */
export async function withCatalog<T>(ctx: CoreContext, fn: () => T | Promise<T>): Promise<T> {
  let rechecked = false;
  for (let attempt = 1; ; attempt += 1) {
    const generation = stateOf(ctx).generation;
    try {
      return await fn();
    } catch (error) {
      if (attempt >= CATALOG_ATTEMPTS) throw error;
      const fault = catalogFault(error);
      // Another caller replaced the handle meanwhile: this one's connection closed under it.
      if (stateOf(ctx).generation !== generation && (fault !== null || isClosedConnection(error))) continue;
      if (fault === null) throw error;
      const open = handles.get(ctx.workspaceRoot);
      const sure = fault === "moved" || open === undefined || open.file === null ? null : confirmedFault(open.file, fault, error, rechecked);
      if (sure === null) {
        // Moved, or not sure yet: a new connection, a moment later.
        dropHandle(ctx);
        if (fault !== "moved") {
          rechecked = true;
          await new Promise((resolve) => setTimeout(resolve, FAULT_RECHECK_MS));
        }
        continue;
      }
      recoverCatalog(ctx, sure, error);
    }
  }
}

/** Tries of a catalog use: the first, a recheck on a new connection, one after setting a broken file aside, one after its place gave way. */
const CATALOG_ATTEMPTS = 5;

/** better-sqlite3's error for a statement of a closed connection. */
function isClosedConnection(error: unknown): boolean {
  return error instanceof TypeError && /database connection is not open/.test(error.message);
}

/** Closes the open catalog after a confirmed `fault` and sets it aside (or lets its place give way when it cannot be moved); the next use opens a new one. */
function recoverCatalog(ctx: CoreContext, fault: CatalogFault, error: unknown): void {
  const broken = dropHandle(ctx);
  if (!broken || broken.file === null) return;
  // Only the file this connection had: another process may have put a new one there already.
  if (statSync(broken.file, { throwIfNoEntry: false })?.ino !== broken.ino) return;
  healPlace(ctx, broken.file, fault, error);
}

function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Makes an empty catalog of this schema in place of a new or older one, in one exclusive
 * transaction: a CLI prepare and the dashboard may open a new catalog at the same moment, and the
 * second must find the first's tables, not make them again (nor delete a file the first has open).
 */
function createSchema(db: Database.Database): void {
  db.exec("BEGIN EXCLUSIVE");
  try {
    if (schemaVersion(db) !== SCHEMA_VERSION) {
      const tables = () => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
      // Virtual tables first: dropping one drops its shadow tables.
      for (const t of tables().filter((t) => t.sql.startsWith("CREATE VIRTUAL"))) db.exec(`DROP TABLE "${t.name}"`);
      for (const t of tables()) db.exec(`DROP TABLE "${t.name}"`);
      db.exec(SCHEMA);
      db.exec(FTS_CONFIG);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * The full-text index's write tuning: 16 MiB of pending terms before a segment is written and
 * segments merged 8 at a time (FTS5's defaults: 1 MiB, 4). A bulk index of many sessions then costs
 * ~30% less CPU for the same query times (bench/many-sessions.bench.ts; docs/catalog.md).
 */
const FTS_CONFIG = `INSERT INTO lines_fts (lines_fts, rank) VALUES ('hashsize', ${16 << 20}); INSERT INTO lines_fts (lines_fts, rank) VALUES ('automerge', 8);`;

/** Whether this process's catalog of the workspace is in memory (issue 35: no file could be written), so no other thread can fill it. */
export function catalogInMemory(workspaceRoot: string): boolean {
  return handles.get(workspaceRoot)?.place === "memory";
}

/** Closes the process's handle on this workspace's catalog (tests that delete the file; shutdown); the next open tries the workspace's own file first again. */
export function closeCatalog(ctx: CoreContext): void {
  handles.get(ctx.workspaceRoot)?.db.close();
  handles.delete(ctx.workspaceRoot);
  const state = states.get(ctx.workspaceRoot);
  if (state) state.place = "workspace";
}

/** Runs refreshes of one workspace one at a time in this process (SQLite serializes other processes). */
function serialized<T>(ctx: CoreContext, fn: () => Promise<T>): Promise<T> {
  const state = stateOf(ctx);
  const run = state.queue.then(fn, fn);
  state.queue = run.catch(() => undefined);
  return run;
}

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

async function refreshCatalogOnce(ctx: CoreContext, options: { onProgress?: PlanProgress; counted?: CountedUsages }): Promise<CatalogRefresh> {
  const state = stateOf(ctx);
  state.syncing += 1;
  try {
    return await refreshWhole(ctx, options.onProgress, options.counted);
  } finally {
    state.syncing -= 1;
  }
}

/**
 * Fills in seed 003 risk for every session whose stored risk is older than its file (the
 * server's pipeline, in the background), so a project page never waits on it. Small sessions'
 * risk is computed on one worker thread, which may wait for a process worker slot: this runs
 * outside the catalog's refresh queue, so a wait for a slot (a long full-text fill or warm-up
 * holding them) never holds a rows refresh back (issue 36 item 1: live sync stalled behind it).
 * Each risk is stored with the file stamp it was computed for, so a session that moved meanwhile
 * stays stale and is filled again.
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function fillCatalogRisk(ctx: CoreContext): Promise<void> {
  return withCatalog(ctx, async () => {
    // Its worker starts only when some small session's risk is stale (most syncs have none).
    let fill: RiskFill | null = null;
    const startFill = () => (fill ??= new RiskFill());
    try {
      for (const project of (await loadWorkspace(ctx)).projects) await refreshRisk(ctx, project, BACKGROUND_RISK_WORKERS, startFill);
    } finally {
      await (fill as RiskFill | null)?.close();
    }
  });
}

/** `onProgress(done, total, label)`: sessions looked at of the workspace's, the project's label; `counted` as {@link refreshCatalog}'s. */
function refreshWhole(ctx: CoreContext, onProgress?: PlanProgress, counted?: CountedUsages): Promise<CatalogRefresh> {
  return serialized(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const out: CatalogRefresh = { projects: ws.projects.length, sessions_updated: 0 };
    const db = catalogDb(ctx);
    const keep = new Set(ws.projects.map((p) => p.projectKey));
    for (const row of stmt(db, "SELECT project_key FROM projects").all() as { project_key: string }[]) {
      if (!keep.has(row.project_key)) dropProject(db, row.project_key);
    }
    const total = ws.projects.reduce((n, p) => n + p.rows.length, 0);
    let done = 0;
    // One read-ahead of row facts for the whole workspace, in the order the rows are written.
    const storedStamps = new Map((stmt(db, "SELECT project_key, session_ref, file_stamp FROM sessions").all() as { project_key: string; session_ref: string; file_stamp: string | null }[]).map((r) => [`${r.project_key}\u0000${r.session_ref}`, r.file_stamp]));
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
        await beginWrite(db);
        try {
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
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(`${st.size}:${st.mtimeMs}`, s.id);
                lines = null;
              }
              if (lines !== null) {
                stmt(db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(`${st.size}:${st.mtimeMs}`, s.id);
                out.sessions_indexed += 1;
                out.lines_indexed += lines;
              }
            }
            prefetch?.drop(file);
            await commitIfDue(db);
          }
          if (db.inTransaction) db.exec("COMMIT");
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        } finally {
          txStarted.delete(db);
        }
      }
    } finally {
      await prefetch?.close();
    }
    return out;
  }));
}

/** An error reading a file (a Node `code` such as EACCES or EIO, or the readers' io_error / not_found), not of the catalog's database (`SQLITE_…`). */
function isFsError(error: unknown): boolean {
  if (isAppError(error)) return error.code === "io_error" || error.code === "not_found";
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code);
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
  const { file } = handle(ctx);
  // A catalog in memory is this process's alone.
  return file === null ? fn() : withFileLock(file, () => fn());
}

/**
 * Read path of the lists (list_projects, the home page, search): re-reads only projects whose index,
 * project.json, evidence folder or synthesis envelope moved since the catalog last saw them,
 * with O(projects) stats; a project new to the catalog is read whole. The full-text index is
 * {@link fillFullText}'s. While a {@link refreshCatalog} is queued or running, a catalog that
 * knows every project is read as it is.
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function ensureProjects(ctx: CoreContext): Promise<void> {
  return withCatalog(ctx, () => ensureProjectsOnce(ctx));
}

async function ensureProjectsOnce(ctx: CoreContext): Promise<void> {
  // While the sync's refresh runs (the server's start-up, a burst of new sessions), a catalog that
  // knows every project answers as it is rather than queue behind it: the refresh brings it in
  // step and the change feed tells the pages (issue 25: the server answers first).
  if (syncing(ctx) && knowsEveryProject(ctx, await loadWorkspace(ctx))) return;
  const run = async () => {
    const ws = await loadWorkspace(ctx);
    const db = catalogDb(ctx);
    const stored = new Map((stmt(db, "SELECT project_key, ord, index_stamp, coverage_stamp FROM projects").all() as { project_key: string; ord: number; index_stamp: string; coverage_stamp: string | null }[]).map((r) => [r.project_key, r]));
    const keep = new Set(ws.projects.map((p) => p.projectKey));
    for (const key of stored.keys()) if (!keep.has(key)) dropProject(db, key);
    for (const [ord, project] of ws.projects.entries()) {
      const row = stored.get(project.projectKey);
      const indexStamp = projectIndexStamp(project);
      if (!row || row.index_stamp !== indexStamp) await refreshProject(ctx, project, ord);
      else {
        if (row.ord !== ord) stmt(db, "UPDATE projects SET ord = ? WHERE project_key = ?").run(ord, project.projectKey);
        if (row.coverage_stamp !== coverageStamp(project, indexStamp)) await refreshCoverage(ctx, project, indexStamp);
      }
    }
  };
  return serialized(ctx, run);
}

/**
 * Read path of one project's session list: {@link ensureProjects}' check for the project, then
 * one stat per session file (a session grown without a sync is re-read), the "active because
 * recent" status rechecked against the clock, and seed 003 risk filled in where it is stale.
 * Returns the refs whose risk is still being computed (list_sessions' `risk_pending`).
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function ensureProjectSessions(ctx: CoreContext, project: LoadedProject): Promise<string[]> {
  return withCatalog(ctx, () => ensureProjectSessionsOnce(ctx, project));
}

function ensureProjectSessionsOnce(ctx: CoreContext, project: LoadedProject): Promise<string[]> {
  const db = catalogDb(ctx);
  // As in ensureProjects: a known project answers at once while the sync's refresh runs; its stale risks are named pending.
  if (syncing(ctx) && stmt(db, "SELECT 1 FROM projects WHERE project_key = ?").get(project.projectKey)) {
    const stale = stmt(db, "SELECT session_ref FROM sessions WHERE project_key = ? AND missing = 0 AND (risk_stamp IS NULL OR risk_stamp != file_stamp) ORDER BY session_ref").all(project.projectKey) as { session_ref: string }[];
    return Promise.resolve(stale.map((r) => r.session_ref));
  }
  return serialized(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const ord = ws.projects.findIndex((p) => p.projectKey === project.projectKey);
    await refreshProject(ctx, project, ord);
    return refreshRisk(ctx, project);
  });
}

/** Whether a whole-catalog refresh is queued or running in this process (never opens the catalog: the workspace may not exist). */
function syncing(ctx: CoreContext): boolean {
  return (states.get(ctx.workspaceRoot)?.syncing ?? 0) > 0;
}

/** Whether the catalog has a row for every project of the workspace. */
function knowsEveryProject(ctx: CoreContext, ws: { projects: LoadedProject[] }): boolean {
  const known = new Set((stmt(catalogDb(ctx), "SELECT project_key FROM projects").all() as { project_key: string }[]).map((r) => r.project_key));
  return ws.projects.every((p) => known.has(p.projectKey));
}

// An entry linked out of the project is not stat'ed through the link (issue 35): its row says so instead.
function projectIndexStamp(project: LoadedProject): string {
  return [entryStamp(project.dir, SESSIONS_INDEX), entryStamp(project.dir, PROJECT_JSON), project.projectLabel].join("|");
}

function coverageStamp(project: LoadedProject, indexStamp: string): string {
  return [indexStamp, entryStamp(project.dir, EVIDENCE_DIR), entryStamp(project.dir, SYNTHESIS_FILE), linksOutside(project.dir, SESSIONS_DIR) ? "outside" : "-"].join("|");
}

function dropProject(db: Database.Database, projectKey: string): void {
  const ids = (stmt(db, "SELECT id FROM sessions WHERE project_key = ?").all(projectKey) as { id: number }[]).map((r) => r.id);
  atomically(db, () => {
    for (const id of ids) dropSessionRows(db, id);
    stmt(db, "DELETE FROM sessions WHERE project_key = ?").run(projectKey);
    stmt(db, "DELETE FROM projects WHERE project_key = ?").run(projectKey);
  });
}

function dropSessionRows(db: Database.Database, id: number): void {
  deleteSessionLines(db, id);
  stmt(db, "DELETE FROM turns WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_tools WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_files WHERE session_id = ?").run(id);
}

/** Forgets what the full-text index holds of a session (lines, tools, files, errors, progress): it is indexed again from the start. */
function clearIndexed(db: Database.Database, id: number): void {
  deleteSessionLines(db, id);
  stmt(db, "DELETE FROM session_tools WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_files WHERE session_id = ?").run(id);
  stmt(db, "UPDATE sessions SET error_count = 0, indexed_bytes = 0, indexed_lines = 0, head_sha = NULL, fts_stamp = NULL WHERE id = ?").run(id);
}

type StoredSession = { id: number; session_ref: string; source_session_id: string; session_path: string; turns_sig: string | null; file_stamp: string | null; status_recent: number };

/** Sessions analysed at once by the background risk pass (few: its peak heap stays in the server's RSS). */
const BACKGROUND_RISK_WORKERS = 2;
/** Longest a refresh keeps its write transaction open before committing (other processes' writers wait meanwhile). */
const TX_MAX_MS = 200;
/** When the open refresh transaction of a connection began (performance.now()). */
const txStarted = new WeakMap<Database.Database, number>();

/**
 * Brings one project's rows in step in few SQLite transactions (refreshes of a workspace run one
 * at a time: {@link serialized}), committed every {@link TX_MAX_MS} ms ({@link commitIfDue}): a
 * commit per session and per statement was a third of the CPU of cataloguing many small
 * sessions (issue 25). What was committed is consistent: a session's progress is written after
 * its rows, and rows of an interrupted session are deleted when it is indexed again.
 */
async function refreshProject(ctx: CoreContext, project: LoadedProject, ord: number, tick?: () => void, ahead?: RowFactsAhead, counted?: CountedUsages): Promise<number> {
  const db = catalogDb(ctx);
  if (db.inTransaction) return refreshProjectRows(ctx, project, ord, tick, ahead, counted);
  await beginWrite(db);
  try {
    const done = await refreshProjectRows(ctx, project, ord, tick, ahead, counted);
    if (db.inTransaction) db.exec("COMMIT");
    return done;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  } finally {
    txStarted.delete(db);
  }
}

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** `db.prepare(sql)`, prepared once per connection (preparing is a third of a small statement's cost). */
function stmt(db: Database.Database, sql: string): Database.Statement {
  let map = statements.get(db);
  if (!map) statements.set(db, (map = new Map()));
  let prepared = map.get(sql);
  if (!prepared) map.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/**
 * Runs `fn` in a transaction, or inside the refresh's open one as it is: better-sqlite3 would
 * open a savepoint, and FTS5 writes a new index segment at every savepoint (to merge later).
 */
function atomically(db: Database.Database, fn: () => void): void {
  if (db.inTransaction) fn();
  else db.transaction(fn)();
}

/** Longest a refresh waits for another process's write transaction (a CLI prepare's commits every {@link TX_MAX_MS} ms). */
const WRITE_WAIT_MS = 120_000;
/** Pause between a refresh's commit and its next transaction: the turn of another process waiting to write. */
const WRITE_TURN_MS = 8;

/**
 * Opens the refresh's write transaction, IMMEDIATE so what it reads stays true until it writes (a
 * CLI prepare and the dashboard may refresh one catalog at once). Another process's transaction
 * is waited for in short async polls, not SQLite's busy wait, which would block this process's
 * event loop (the dashboard's pages) for as long.
 * @throws the SQLite error when the catalog stays locked for {@link WRITE_WAIT_MS} ms.
 */
async function beginWrite(db: Database.Database): Promise<void> {
  const deadline = performance.now() + WRITE_WAIT_MS;
  db.pragma("busy_timeout = 0");
  try {
    for (;;) {
      try {
        db.exec("BEGIN IMMEDIATE");
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY" || performance.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * WRITE_TURN_MS));
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
  txStarted.set(db, performance.now());
}

/**
 * Commits the refresh's transaction and opens the next one when it has been open {@link TX_MAX_MS}
 * ms, leaving another process waiting to write its turn in between.
 */
async function commitIfDue(db: Database.Database): Promise<void> {
  const since = txStarted.get(db);
  if (since === undefined || !db.inTransaction || performance.now() - since < TX_MAX_MS) return;
  db.exec("COMMIT");
  await new Promise((resolve) => setTimeout(resolve, WRITE_TURN_MS));
  await beginWrite(db);
}

/**
 * The project's rows whose file is new to the catalog or moved (size, mtime) since its row was
 * written: their row facts will be read. `storedStamp(ref)` is the stored file stamp (undefined: no row).
 */
function movedRows(project: LoadedProject, storedStamp: (sessionRef: string) => string | null | undefined): IndexRow[] {
  return project.rows.filter((row) => {
    const st = statSync(path.join(project.dir, row.session_path), { throwIfNoEntry: false });
    return storedStamp(row.session_ref) !== (st ? `${st.size}:${st.mtimeMs}` : null);
  });
}

/**
 * Brings one project's rows in step; returns how many session rows were (re)written. `tick` is
 * called after each session; `ahead`: the whole refresh's row facts read ahead (else the project's own, when many moved);
 * `counted`: usage prepare counted (see {@link refreshCatalog}) of sessions not read ahead.
 */
async function refreshProjectRows(ctx: CoreContext, project: LoadedProject, ord: number, tick?: () => void, given?: RowFactsAhead, counted?: CountedUsages): Promise<number> {
  const db = catalogDb(ctx);
  const indexStamp = projectIndexStamp(project);
  const known = stmt(db, "SELECT index_stamp, ord FROM projects WHERE project_key = ?").get(project.projectKey) as { index_stamp: string; ord: number } | undefined;
  // The project's row (origin included) is rewritten when its index moved; else only after one of its sessions did.
  if (!known || known.index_stamp !== indexStamp || known.ord !== ord) await upsertProject(ctx, project, ord, indexStamp);
  const stored = new Map(
    (stmt(db, "SELECT s.id, s.session_ref, s.source_session_id, s.session_path, s.file_stamp, s.status_recent, (SELECT group_concat(turn_ref || ':' || turn_start_line || ':' || turn_end_line, ',') FROM (SELECT * FROM turns t WHERE t.session_id = s.id ORDER BY t.turn_start_line)) AS turns_sig FROM sessions s WHERE project_key = ?").all(project.projectKey) as StoredSession[]).map((r) => [r.session_ref, r]),
  );
  const refs = new Set(project.rows.map((r) => r.session_ref));
  for (const [ref, row] of stored) {
    if (refs.has(ref)) continue;
    atomically(db, () => {
      dropSessionRows(db, row.id);
      stmt(db, "DELETE FROM sessions WHERE id = ?").run(row.id);
    });
  }
  let sessionsUpdated = 0;
  // Sessions new to the catalog or whose file moved have their row facts read ahead, on a worker
  // beside this thread, while this thread writes the rows.
  const moved = given ? [] : movedRows(project, (ref) => stored.get(ref)?.file_stamp);
  const own = moved.length >= ROW_FACTS_MIN_SESSIONS ? new RowFactsAhead(ctx.workspaceRoot, moved.map((row) => ({ project, row, counted: counted?.take(project.projectKey, row.session_ref) }))) : null;
  const ahead = given ?? own;
  try {
    for (const [i, row] of project.rows.entries()) {
      if (await refreshSession(ctx, project, row, i, stored.get(row.session_ref), ahead?.get(project.projectKey, row.session_ref), counted?.take(project.projectKey, row.session_ref))) sessionsUpdated += 1;
      tick?.();
      await commitIfDue(db);
    }
  } finally {
    await own?.close();
  }
  // A session that moved may be the latest, whose file gives the project's cwd and branch.
  if (sessionsUpdated > 0 && known?.index_stamp === indexStamp && known.ord === ord) await upsertProject(ctx, project, ord, indexStamp);
  await refreshCoverage(ctx, project, indexStamp);
  return sessionsUpdated;
}

/** Writes a project's row: label, order, counts, origin (lib/workspace/project-origin), malformed rows. */
async function upsertProject(ctx: CoreContext, project: LoadedProject, ord: number, indexStamp: string): Promise<void> {
  const origin = await getProjectOrigin(ctx, project);
  stmt(catalogDb(ctx), 
    `INSERT INTO projects (project_key, ord, project_label, index_stamp, session_count, turn_count, cwd, git_branch, broken_rows)
     VALUES (@key, @ord, @label, @stamp, @sessions, @turns, @cwd, @branch, @broken)
     ON CONFLICT (project_key) DO UPDATE SET ord = @ord, project_label = @label, index_stamp = @stamp, session_count = @sessions,
       turn_count = @turns, cwd = @cwd, git_branch = @branch, broken_rows = @broken`,
  ).run({
    key: project.projectKey,
    ord,
    label: project.projectLabel,
    stamp: indexStamp,
    sessions: project.rows.length,
    turns: project.rows.reduce((n, r) => n + r.turns.length, 0),
    cwd: origin.cwd,
    branch: origin.git_branch,
    broken: JSON.stringify(project.brokenRows),
  });
}

/**
 * Writes a project's evidence and synthesis coverage, and what is wrong with its folder (issue 35):
 * an entry linked out of the project is not read, and evidence or synthesis that cannot be read
 * (a coded error, a file system error) leaves the coverage empty; either way the project's row
 * says why in `problem`, and the other projects are not affected.
 */
async function refreshCoverage(ctx: CoreContext, project: LoadedProject, indexStamp: string): Promise<void> {
  const stamp = coverageStamp(project, indexStamp);
  const db = catalogDb(ctx);
  const stored = stmt(db, "SELECT coverage_stamp FROM projects WHERE project_key = ?").get(project.projectKey) as { coverage_stamp: string | null } | undefined;
  if (stored?.coverage_stamp === stamp) return;
  let problem = projectProblem(project);
  let counts = { turns_with_chain: 0, covered_turns: 0, indexed_turns: project.rows.reduce((n, r) => n + r.turns.length, 0), synthesis_complete: 0, has_envelope: 0 };
  if (problem === null) {
    try {
      const [evidence, synthesis] = await Promise.all([evidenceCoverage(ctx, project.projectKey), getSynthesisState(ctx, project.projectKey)]);
      counts = { turns_with_chain: evidence.turns_with_chain, covered_turns: synthesis.counts.covered_turns, indexed_turns: synthesis.counts.indexed_turns, synthesis_complete: synthesis.complete ? 1 : 0, has_envelope: synthesis.envelope !== null ? 1 : 0 };
    } catch (error) {
      if (!isAppError(error) && !isFsError(error)) throw error;
      problem = `its evidence or synthesis cannot be read: ${(error as Error).message}`;
      ctx.log.warn(`[casefile] catalog: project ${project.projectKey}: ${problem}`);
    }
  }
  stmt(db, "UPDATE projects SET coverage_stamp = ?, turns_with_chain = ?, covered_turns = ?, indexed_turns = ?, synthesis_complete = ?, has_envelope = ?, problem = ? WHERE project_key = ?")
    .run(stamp, counts.turns_with_chain, counts.covered_turns, counts.indexed_turns, counts.synthesis_complete, counts.has_envelope, problem, project.projectKey);
}

function turnsSig(row: IndexRow): string {
  return [...row.turns].sort((a, b) => a.turn_start_line - b.turn_start_line).map((t) => `${t.turn_ref}:${t.turn_start_line}:${t.turn_end_line}`).join(",");
}

/**
 * Rewrites one session's rows when its file or index row changed (its lines are {@link fillFullText}'s
 * to index); returns whether anything was written.
 */
async function refreshSession(ctx: CoreContext, project: LoadedProject, row: IndexRow, ord: number, stored: StoredSession | undefined, early?: Promise<RowFacts | null>, counted?: CountedUsage): Promise<boolean> {
  const db = catalogDb(ctx);
  // One stat decides whether anything moved; the realpath containment check runs when it did.
  const st = statSync(path.join(project.dir, row.session_path), { throwIfNoEntry: false });
  let fileStamp = st?.isFile() ? `${st.size}:${st.mtimeMs}` : null;
  const unmoved = stored && stored.source_session_id === row.source_session_id && stored.session_path === row.session_path && stored.file_stamp === fileStamp && fileStamp !== null;
  let filePath: string | null = unmoved ? path.join(project.dir, row.session_path) : null;
  // Facts read ahead come with the path they resolved (the same containment check) for this row's path.
  const ready = (await early) ?? null;
  const readyHere = ready !== null && ready.sessionPath === row.session_path;
  if (!unmoved) {
    try {
      filePath = readyHere ? ready.filePath : await resolveInside(project.dir, row.session_path);
    } catch {
      filePath = null;
      fileStamp = null;
    }
  }
  const sameIdentity = stored && stored.source_session_id === row.source_session_id && stored.session_path === row.session_path;
  const sameTurns = stored && (stored.turns_sig ?? "") === turnsSig(row);
  const rowsFresh = sameIdentity && sameTurns && stored.file_stamp === fileStamp && fileStamp !== null;
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
    const made = stmt(db, "INSERT OR IGNORE INTO sessions (project_key, session_ref, ord, source, source_session_id, session_path, turn_count) VALUES (?, ?, ?, ?, ?, ?, ?)").run(project.projectKey, row.session_ref, ord, row.source, row.source_session_id, row.session_path, row.turns.length);
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
  if (fileStamp === null || filePath === null) return gone();
  const session: ResolvedSession = { project, row, filePath };
  let facts: Pick<RowFacts, "summary" | "tokens">;
  try {
    // Facts read ahead serve when they were read from this file at this version.
    facts = readyHere && ready.filePath === filePath && ready.fileStamp === fileStamp ? ready : await readRowFacts(ctx, session, counted);
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
    stamp: fileStamp,
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

/**
 * Adds a session file's lines to the full-text index: from where it stopped when the file grew
 * (same head bytes, not smaller), else from the start. Only newline-terminated lines are taken;
 * a line still being written is taken when it ends. Tools, files and errors are counted with it.
 * Every batch writes the session's progress (bytes, lines, head hash) with its rows, so whatever
 * a commit or a crash cuts, the next run resumes exactly after the last stored line. Returns the
 * lines added, or null when the session's row went away (a rows refresh dropped it between two
 * transactions): nothing more is written for it.
 */
async function indexLines(db: Database.Database, sessionId: number, filePath: string, fresh: boolean, prefetched?: Promise<ExtractedLines | null>): Promise<number | null> {
  const at = stmt(db, "SELECT indexed_bytes, indexed_lines, head_sha FROM sessions WHERE id = ?").get(sessionId) as { indexed_bytes: number; indexed_lines: number; head_sha: string | null } | undefined;
  if (!at) return null;
  const st = await fs.stat(filePath);
  // The file's head as it is now: it must hash as stored for the file to have only grown.
  const fileHead = at.indexed_bytes > 0 && st.size >= at.indexed_bytes ? await readHead(filePath) : null;
  const resumable = fileHead !== null && sha256(fileHead.subarray(0, Math.min(HEAD_BYTES, at.indexed_bytes))) === at.head_sha;
  const offset = resumable ? at.indexed_bytes : 0;
  const line = resumable ? at.indexed_lines : 0;
  if (!resumable && !fresh) atomically(db, () => clearIndexed(db, sessionId));
  const insertLine = stmt(db, "INSERT INTO lines_fts (rowid, body, session_id, line_number) VALUES (?, ?, ?, ?)");
  const addTool = stmt(db, "INSERT INTO session_tools (session_id, name, uses) VALUES (?, ?, 1) ON CONFLICT (session_id, name) DO UPDATE SET uses = uses + 1");
  const addFile = stmt(db, "INSERT OR IGNORE INTO session_files (session_id, path) VALUES (?, ?)");
  const progress = stmt(db, "UPDATE sessions SET error_count = error_count + ?, indexed_bytes = ?, indexed_lines = ?, head_sha = ? WHERE id = ?");
  // Writes extracted lines BATCH_LINES a transaction, each with the session's progress after its
  // last line (the last one: after every line seen, blank ones at the end included).
  let gone = false;
  const write = async (ex: ExtractedLines) => {
    const n = ex.lines.length;
    const headOf = (bytes: number) => sha256(ex.head.subarray(0, Math.min(HEAD_BYTES, bytes)));
    for (let from = 0; !gone; from += BATCH_LINES) {
      const to = Math.min(n, from + BATCH_LINES);
      atomically(db, () => {
        let errors = 0;
        for (let k = from; k < to; k++) errors += ex.errors[k]!;
        const [bytes, lastLine] = to === n ? [ex.consumed, ex.lastLine] : [ex.ends[to - 1]!, ex.lines[to - 1]!];
        // The progress first, in the batch's transaction: no row means the session was dropped.
        if (progress.run(errors, bytes, lastLine, headOf(bytes), sessionId).changes === 0) {
          gone = true;
          return;
        }
        for (let k = from; k < to; k++) {
          const sessionLine = ex.lines[k]!;
          if (ex.texts[k] !== "") insertLine.run(lineRowid(sessionId, sessionLine), ex.texts[k], sessionId, sessionLine);
          for (const tool of ex.tools[k]!) addTool.run(sessionId, tool);
          for (const file of ex.files[k]!) addFile.run(sessionId, file);
        }
      });
      if (to === n) return;
      await commitIfDue(db);
    }
  };
  const extracted = offset === 0 && prefetched ? await prefetched : null;
  // Extracted ahead from the file at its present size (else read here, as a grown file is).
  if (extracted && extracted.size === st.size) {
    await write(extracted);
    return gone ? null : extracted.lastLine;
  }
  // Physical lines as the viewer numbers them (contract §1.6: a raw U+2028 in a string ends a line
  // too), from where the index stopped; the head is hashed from the first read when from the start.
  const lines = new LineExtractor(offset, line, offset === 0 ? null : fileHead, HEAD_BYTES, st.size);
  const range = offset > 0 ? { startByte: offset, endByte: Number.POSITIVE_INFINITY, firstLine: line + 1, upToFileEnd: true } : undefined;
  // Reads sized to the file (most sessions are small): 64 KiB to 1 MiB.
  const chunkBytes = Math.min(1 << 20, Math.max(1 << 16, st.size - offset));
  for await (const l of streamLineBytes(filePath, { range, chunkBytes, headroomBytes: 1 << 16 })) {
    if (!lines.push(l.line, l.bytes, l.start, l.end, l.next)) break;
    if (lines.count >= BATCH_LINES) await write(lines.take());
    if (gone) return null;
  }
  await write(lines.take());
  return gone ? null : lines.lastLine - (resumable ? at.indexed_lines : 0);
}

/** The first {@link HEAD_BYTES} bytes of a file (fewer when it is shorter). */
async function readHead(filePath: string): Promise<Buffer> {
  const fh = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Fills seed 003 risk for the project's sessions whose stored risk is older than their file; returns the refs still pending. */
async function refreshRisk(ctx: CoreContext, project: LoadedProject, workers = 16, fill?: () => RiskFill): Promise<string[]> {
  const db = catalogDb(ctx);
  let stale = stmt(db, "SELECT id, session_ref, session_path, file_stamp FROM sessions WHERE project_key = ? AND missing = 0 AND (risk_stamp IS NULL OR risk_stamp != file_stamp)").all(project.projectKey) as { id: number; session_ref: string; session_path: string; file_stamp: string }[];
  const rows = new Map(project.rows.map((r) => [r.session_ref, r]));
  const pending: string[] = [];
  const update = stmt(db, "UPDATE sessions SET risk_stamp = ?, risk_level = ?, reset_count = ? WHERE id = ?");
  if (fill) {
    // Small sessions on the fill's worker; the large ones below, in the background as any reader starts them.
    const small = stale.filter((s) => rows.has(s.session_ref) && Number(s.file_stamp.split(":")[0]) < RISK_WAIT_MAX_BYTES);
    if (small.length > 0) await fill().map(ctx.workspaceRoot, project, small.map((s) => rows.get(s.session_ref)!), (risk, i) => {
      if (risk) update.run(small[i]!.file_stamp, risk.risk_level, risk.reset_count, small[i]!.id);
    });
    const done = new Set(small);
    stale = stale.filter((s) => !done.has(s));
  }
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < stale.length; i = next++) {
      const s = stale[i]!;
      const row = rows.get(s.session_ref);
      if (!row) continue;
      const session: ResolvedSession = { project, row, filePath: await resolveInside(project.dir, row.session_path) };
      const risk = await getSessionRiskIfReady(ctx, session);
      if (risk === "pending") {
        pending.push(s.session_ref);
        update.run(null, null, null, s.id);
      } else update.run(s.file_stamp, risk.risk_level, risk.reset_count, s.id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, stale.length) }, worker));
  return pending.sort();
}

/** The list_sessions row of a catalog session row. */
export function sessionItem(r: Record<string, unknown>): SessionListItem {
  return {
    session_ref: r.session_ref as string,
    source: r.source as string,
    source_session_id: r.source_session_id as string,
    started_at: (r.started_at as string | null) ?? null,
    ended_at: (r.ended_at as string | null) ?? null,
    duration_seconds: (r.duration_seconds as number | null) ?? null,
    turn_count: r.turn_count as number,
    first_user_message: (r.first_user_message as string | null) ?? null,
    subagent_count: r.subagent_count as number,
    size_bytes: r.size_bytes as number,
    output_tokens: (r.output_tokens as number | null) ?? null,
    total_tokens: (r.total_tokens as number | null) ?? null,
    cost_usd: (r.cost_usd as number | null) ?? null,
    status: (r.status as SessionListItem["status"]) ?? null,
    last_response_preview: (r.last_response_preview as string | null) ?? null,
    risk_level: (r.risk_level as SessionListItem["risk_level"]) ?? null,
    reset_count: (r.reset_count as number | null) ?? null,
  };
}
