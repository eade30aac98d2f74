/**
 * The team server's PostgreSQL connection (issue 39): one `pg.Pool` per URL per process, and the
 * versioned migrations each component (`team`, `catalog`) runs on open.
 */
import pg from "pg";

import { processWide } from "@/lib/cache/process-wide";
import { AppError } from "@/lib/errors";

/** One schema step of a component: `version` counts from 1 with no gaps; a shipped step is never edited. */
export type Migration = { version: number; name: string; sql: string };

/** What `runMigrations` did: the versions it applied now (empty when the database was current) and the latest one. */
export type MigrationReport = { component: string; applied: number[]; current: number };

/** Connections per pool: a team server's dashboard, MCP and push requests share it. */
const POOL_SIZE = 10;

/** Key of the session-level advisory lock every migrating process takes, so two servers starting at once do not race. */
const MIGRATION_LOCK_KEY = 0x63_61_73_65; // "case"

/** The pools of this process by URL, shared by every bundle copy of this module (Next loads lib/ once per layer). */
const pools = () => processWide("postgres-pools", () => new Map<string, Promise<pg.Pool>>());

/**
 * The pool for `url` (`postgres://USER@HOST:PORT/DB`), made on first use and shared by every later
 * caller in the process. The first call checks that the server answers, so a wrong URL fails here
 * with an `io_error` naming the host (never the password) instead of on the first query.
 */
export function openPostgres(url: string): Promise<pg.Pool> {
  const map = pools();
  const existing = map.get(url);
  if (existing) return existing;
  const opening = connect(url);
  map.set(url, opening);
  // A failed open is not cached: the next call tries again (the server may have come up since).
  opening.catch(() => {
    if (map.get(url) === opening) map.delete(url);
  });
  return opening;
}

async function connect(url: string): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle client's error (the server restarted) must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw new AppError("io_error", `Cannot connect to PostgreSQL at ${describeUrl(url)}: ${(error as Error).message}`, {
      hint: "Check the --database URL (or CASEFILE_DATABASE_URL) and that the server is running.",
    }, { cause: error });
  }
  return pool;
}

/** Ends the pool opened for `url` in this process (a no-op when there is none); later `openPostgres(url)` makes a new one. */
export async function closePostgres(url: string): Promise<void> {
  const map = pools();
  const opening = map.get(url);
  if (!opening) return;
  map.delete(url);
  const pool = await opening.catch(() => null);
  await pool?.end();
}

/** `user@host:port/db` of a URL, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : "";
    return `${user}${parsed.host}${parsed.pathname}`;
  } catch {
    return "(an unparsable URL)";
  }
}

/**
 * Brings `component`'s schema up to date: under `pg_advisory_lock`, creates the shared table
 * `casefile_migrations(component, version, name, applied_at)` when missing, then applies each
 * migration newer than the recorded ones, each in its own transaction with its row. Refuses
 * (`conflict`) a database whose recorded versions this Casefile does not know (a newer Casefile
 * migrated it) or whose recorded names differ (a shipped migration was edited), and throws
 * `internal` when `migrations` are not numbered 1, 2, 3… in order.
 */
export async function runMigrations(pool: pg.Pool, component: string, migrations: readonly Migration[]): Promise<MigrationReport> {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1) {
      throw new AppError("internal", `The ${component} migrations must be numbered 1, 2, 3… in order; found ${migration.version} at position ${i + 1}.`);
    }
  });
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS casefile_migrations (
        component text NOT NULL,
        version integer NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (component, version)
      )`);
      const { rows } = await client.query<{ version: number; name: string }>(
        "SELECT version, name FROM casefile_migrations WHERE component = $1 ORDER BY version",
        [component],
      );
      checkRecorded(component, rows, migrations);
      const done = rows.length === 0 ? 0 : rows[rows.length - 1]!.version;
      const applied: number[] = [];
      for (const migration of migrations.slice(done)) {
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query("INSERT INTO casefile_migrations (component, version, name) VALUES ($1, $2, $3)", [
            component,
            migration.version,
            migration.name,
          ]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw new AppError("internal", `The ${component} migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, {}, { cause: error });
        }
        applied.push(migration.version);
      }
      return { component, applied, current: migrations.length };
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Throws `conflict` when the recorded rows are not a prefix of the known migrations. */
function checkRecorded(component: string, rows: readonly { version: number; name: string }[], migrations: readonly Migration[]): void {
  const newest = rows.length === 0 ? 0 : rows[rows.length - 1]!.version;
  if (newest > migrations.length) {
    throw new AppError(
      "conflict",
      `This database's ${component} schema is at version ${newest}, newer than this Casefile knows (${migrations.length}): a newer Casefile migrated it.`,
      { hint: "Run the Casefile version that migrated it (or a newer one); an older one cannot read its tables." },
    );
  }
  rows.forEach((row, i) => {
    const known = migrations[row.version - 1];
    if (row.version !== i + 1 || !known || known.name !== row.name) {
      throw new AppError(
        "conflict",
        `This database's ${component} migration ${row.version} is "${row.name}", but this Casefile's is "${known?.name ?? "(none)"}".`,
        { hint: "The database was migrated by a different Casefile build; use that build." },
      );
    }
  });
}
