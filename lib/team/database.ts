/** The team server's database (issue 39): the shared pool for a URL, its "team" schema brought up to date once per pool. */
import type pg from "pg";

import { processWide } from "@/lib/cache/process-wide";
import { openPostgres, runMigrations } from "@/lib/catalog/postgres/database";
import { TEAM_MIGRATIONS } from "@/lib/team/migrations";

/** Pool → its migration run, shared by every bundle copy of this module (a closed pool's entry goes with it). */
const migrated = () => processWide("team-migrated-pools", () => new WeakMap<pg.Pool, Promise<unknown>>());

/**
 * The pool for `url` (lib/catalog/postgres/database's `openPostgres`) once component "team"'s
 * migrations ({@link TEAM_MIGRATIONS}) have run on it: once per pool, a failed run tried again
 * by the next call.
 * @throws AppError io_error when the server does not answer; conflict when its team schema is newer than this Casefile's.
 */
export async function openTeamDatabase(url: string): Promise<pg.Pool> {
  const pool = await openPostgres(url);
  const runs = migrated();
  let run = runs.get(pool);
  if (!run) {
    run = runMigrations(pool, "team", TEAM_MIGRATIONS);
    runs.set(pool, run);
    run.catch(() => {
      if (runs.get(pool) === run) runs.delete(pool);
    });
  }
  await run;
  return pool;
}
