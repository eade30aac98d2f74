/** Test access to a real PostgreSQL server (issue 39): CI starts one (.ci/run, scripts/test-postgres.sh). */
import { randomBytes } from "node:crypto";

import pg from "pg";
import { describe } from "vitest";

import { closePostgres } from "@/lib/catalog/postgres/database";

/** The server tests use: `CASEFILE_TEST_DATABASE_URL` (a superuser's URL, any database), or null when unset. */
export function postgresTestUrl(): string | null {
  return process.env.CASEFILE_TEST_DATABASE_URL?.trim() || null;
}

export const HAS_POSTGRES = postgresTestUrl() !== null;
export const SKIP_POSTGRES_MESSAGE =
  "CASEFILE_TEST_DATABASE_URL is not set (scripts/test-postgres.sh start prints one); skipping the PostgreSQL tests";

/** `name`, with the skip message appended when there is no test server, for a suite's title. */
export function postgresSuiteName(name: string): string {
  return HAS_POSTGRES ? name : `${name} (${SKIP_POSTGRES_MESSAGE})`;
}

/** A `describe` that runs only with a test server, its title saying why it skipped otherwise. */
export function describePostgres(name: string, body: () => void): void {
  describe.skipIf(!HAS_POSTGRES)(postgresSuiteName(name), body);
}

/**
 * A new, empty database on the test server, named `<prefix>_<pid>_<random>` (lower case,
 * ≤ 63 bytes), with its URL. `drop()` closes this process's pool for it and drops it (even
 * with connections left open). Throws when `CASEFILE_TEST_DATABASE_URL` is unset.
 */
export async function freshTestDatabase(prefix: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const adminUrl = postgresTestUrl();
  if (!adminUrl) throw new Error(SKIP_POSTGRES_MESSAGE);
  const stem = prefix.toLowerCase().replace(/[^a-z0-9_]+/g, "_").slice(0, 30);
  const name = `${stem}_${process.pid}_${randomBytes(6).toString("hex")}`;
  await admin(adminUrl, `CREATE DATABASE "${name}"`);
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  return {
    url,
    name,
    async drop() {
      await closePostgres(url);
      await admin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** One statement on its own connection (CREATE/DROP DATABASE cannot run in a transaction or a pool shared with it). */
async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
