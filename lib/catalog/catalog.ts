// The workspace catalog: one derived SQLite file (WAL) of projects, sessions, turns, coverage and a
// full-text index of every line. This module opens it (where it can be: issue 35) and heals it;
// the rows are refresh.ts's, the full-text index full-text-index.ts's, risk refresh-risk.ts's, the
// read paths ensure.ts's.

import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import Database from "better-sqlite3";

import { processWide } from "@/lib/cache/process-wide";
import { catalogFault, type CatalogFault, checkWritable, confirmedFault, faultText } from "@/lib/catalog/catalog-fault";
import { createSchema, SCHEMA_VERSION, schemaVersion } from "@/lib/catalog/db-schema";
import { addCatalogFunctions } from "@/lib/catalog/sqlite-store";
import { BUSY_TIMEOUT_MS } from "@/lib/catalog/transactions";
import type { CoreContext } from "@/lib/context";
import { setAsideDerived } from "@/lib/fs/set-aside";
import { catalogPath } from "@/lib/fs/workspace-layout";

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
    addCatalogFunctions(db);
    return { db, file, ino: file === null ? 0 : statSync(file).ino, place };
  } catch (error) {
    db.close();
    throw error;
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
export function serialized<T>(ctx: CoreContext, fn: () => Promise<T>): Promise<T> {
  const state = stateOf(ctx);
  const run = state.queue.then(fn, fn);
  state.queue = run.catch(() => undefined);
  return run;
}

/** Runs `fn`, a whole-catalog refresh, counted as one while it is queued or running ({@link syncing}). */
export async function whileSyncing<T>(ctx: CoreContext, fn: () => Promise<T>): Promise<T> {
  const state = stateOf(ctx);
  state.syncing += 1;
  try {
    return await fn();
  } finally {
    state.syncing -= 1;
  }
}

/** Whether a whole-catalog refresh is queued or running in this process (never opens the catalog: the workspace may not exist). */
export function syncing(ctx: CoreContext): boolean {
  return (states.get(ctx.workspaceRoot)?.syncing ?? 0) > 0;
}

/** The workspace's open catalog connection and its file (null: in memory), opened if need be ({@link catalogDb}). */
export function catalogConnection(ctx: CoreContext): { db: Database.Database; file: string | null } {
  const { db, file } = handle(ctx);
  return { db, file };
}
