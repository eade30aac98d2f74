// The catalog's write transactions: prepared statements, transactions kept short and shared with other processes' writers.

import type Database from "better-sqlite3";

/** SQLite's own wait for another process's lock, outside refresh transactions ({@link beginWrite}). */
export const BUSY_TIMEOUT_MS = 5_000;
/** Longest a refresh keeps its write transaction open before committing (other processes' writers wait meanwhile). */
const TX_MAX_MS = 200;
/** When the open refresh transaction of a connection began (performance.now()). */
const txStarted = new WeakMap<Database.Database, number>();

const statements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** `db.prepare(sql)`, prepared once per connection (preparing is a third of a small statement's cost). */
export function stmt(db: Database.Database, sql: string): Database.Statement {
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
export function atomically(db: Database.Database, fn: () => void): void {
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
 * is waited for in short async polls ({@link whenFree}), not SQLite's busy wait, which would block
 * this process's event loop (the dashboard's pages) for as long.
 * @throws the SQLite error when the catalog stays locked for {@link WRITE_WAIT_MS} ms.
 */
export async function beginWrite(db: Database.Database): Promise<void> {
  await whenFree(db, WRITE_TURN_MS, false);
  txStarted.set(db, performance.now());
}

/**
 * Runs the synchronous writes `fn` in a write transaction of their own, waiting for another
 * connection's (a full-text fill indexing a big session holds the lock for seconds) in short
 * async polls like {@link beginWrite}: SQLite's busy wait would block the event loop, and give
 * up with "database is locked" after {@link BUSY_TIMEOUT_MS}. When this connection has a write
 * transaction open (a refresh between two of its awaits), `fn` joins it.
 * @throws the SQLite error when the catalog stays locked for {@link WRITE_WAIT_MS} ms; whatever `fn` throws (its writes rolled back).
 */
export async function writeWhenFree(db: Database.Database, fn: () => void): Promise<void> {
  // Polls 4× farther apart than a refresh: a refresh's turn between its transactions comes first.
  if (!(await whenFree(db, WRITE_TURN_MS * 4, true))) {
    fn();
    return;
  }
  try {
    fn();
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * The one wait for the catalog's write lock: `BEGIN IMMEDIATE` with SQLite's busy wait off,
 * retried after a pause of 1 to 1 + `pauseMs` ms while another connection holds the lock, for
 * at most {@link WRITE_WAIT_MS} ms. With `join`, a write transaction this connection has open
 * (before the first try or after a pause) is joined instead. Returns true when it began a
 * transaction, false when it joined one.
 * @throws the SQLite error when the catalog stays locked for {@link WRITE_WAIT_MS} ms, or any other.
 */
async function whenFree(db: Database.Database, pauseMs: number, join: boolean): Promise<boolean> {
  const deadline = performance.now() + WRITE_WAIT_MS;
  for (;;) {
    if (join && db.inTransaction) return false;
    db.pragma("busy_timeout = 0");
    try {
      db.exec("BEGIN IMMEDIATE");
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || performance.now() > deadline) throw error;
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * pauseMs));
  }
}

/**
 * Commits the refresh's transaction and opens the next one when it has been open `maxMs` ms
 * (default {@link TX_MAX_MS}), leaving another process waiting to write its turn in between.
 */
export async function commitIfDue(db: Database.Database, maxMs = TX_MAX_MS): Promise<void> {
  const since = txStarted.get(db);
  if (since === undefined || !db.inTransaction || performance.now() - since < maxMs) return;
  db.exec("COMMIT");
  await new Promise((resolve) => setTimeout(resolve, WRITE_TURN_MS));
  await beginWrite(db);
}

/**
 * Runs `fn` in the refresh's write transaction ({@link beginWrite}), which {@link commitIfDue}
 * may commit and reopen meanwhile: committed when `fn` returns, rolled back when it throws.
 */
export async function writeTransaction<T>(db: Database.Database, fn: () => Promise<T>): Promise<T> {
  await beginWrite(db);
  try {
    const done = await fn();
    if (db.inTransaction) db.exec("COMMIT");
    return done;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  } finally {
    txStarted.delete(db);
  }
}
