/** Tests of the PostgreSQL pool and migrations on a real server (issue 39). */
import { afterAll, beforeAll, expect, it } from "vitest";

import { closePostgres, describeUrl, openPostgres, runMigrations, type Migration } from "@/lib/catalog/postgres/database";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";

const FIRST: Migration[] = [
  { version: 1, name: "things", sql: "CREATE TABLE things (id text PRIMARY KEY)" },
  { version: 2, name: "things_size", sql: "ALTER TABLE things ADD COLUMN size integer NOT NULL DEFAULT 0" },
];

describePostgres("PostgreSQL database module", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  beforeAll(async () => {
    db = await freshTestDatabase("cf_database_test");
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("shares one pool per URL and makes a new one after closePostgres", async () => {
    const a = await openPostgres(db.url);
    expect(await openPostgres(db.url)).toBe(a);
    await closePostgres(db.url);
    const b = await openPostgres(db.url);
    expect(b).not.toBe(a);
    expect((await b.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one).toBe(1);
  });

  it("fails to open an unreachable server with io_error, without the password, and does not cache the failure", async () => {
    const bad = "postgres://someone:secret-pw@127.0.0.1:1/nowhere";
    const error = await openPostgres(bad).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "io_error" });
    expect((error as Error).message).toContain("someone@127.0.0.1:1/nowhere");
    expect((error as Error).message).not.toContain("secret-pw");
    expect(await openPostgres(bad).catch((e: unknown) => e)).not.toBe(error);
    expect(describeUrl(bad)).toBe("someone@127.0.0.1:1/nowhere");
  });

  it("applies each migration once, records it, and adds only the new ones later", async () => {
    const pool = await openPostgres(db.url);
    expect(await runMigrations(pool, "demo", FIRST.slice(0, 1))).toEqual({ component: "demo", applied: [1], current: 1 });
    expect(await runMigrations(pool, "demo", FIRST)).toEqual({ component: "demo", applied: [2], current: 2 });
    expect(await runMigrations(pool, "demo", FIRST)).toEqual({ component: "demo", applied: [], current: 2 });
    await pool.query("INSERT INTO things (id) VALUES ('a')");
    expect((await pool.query("SELECT size FROM things")).rows).toEqual([{ size: 0 }]);
    const recorded = await pool.query("SELECT component, version, name FROM casefile_migrations WHERE component = 'demo' ORDER BY version");
    expect(recorded.rows).toEqual([
      { component: "demo", version: 1, name: "things" },
      { component: "demo", version: 2, name: "things_size" },
    ]);
  });

  it("keeps components apart: another component's versions start at 1", async () => {
    const pool = await openPostgres(db.url);
    const other: Migration[] = [{ version: 1, name: "other", sql: "CREATE TABLE other_things (id text)" }];
    expect(await runMigrations(pool, "other", other)).toEqual({ component: "other", applied: [1], current: 1 });
  });

  it("refuses a database migrated further than it knows, and an edited migration", async () => {
    const pool = await openPostgres(db.url);
    const older = await runMigrations(pool, "demo", FIRST.slice(0, 1)).catch((e: unknown) => e);
    expect(older).toMatchObject({ code: "conflict" });
    expect((older as Error).message).toMatch(/version 2, newer than this Casefile knows \(1\)/);
    const edited = [FIRST[0]!, { ...FIRST[1]!, name: "renamed" }];
    expect(await runMigrations(pool, "demo", edited).catch((e: unknown) => e)).toMatchObject({ code: "conflict" });
  });

  it("rolls a failed migration back whole and records nothing for it", async () => {
    const pool = await openPostgres(db.url);
    const broken: Migration[] = [
      { version: 1, name: "half", sql: "CREATE TABLE half_done (id text); SELECT no_such_column FROM half_done" },
    ];
    const error = await runMigrations(pool, "broken", broken).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "internal" });
    expect((error as Error).message).toMatch(/broken migration 1 \(half\) failed/);
    expect((await pool.query("SELECT to_regclass('half_done') AS t")).rows[0]).toEqual({ t: null });
    expect((await pool.query("SELECT count(*)::int AS n FROM casefile_migrations WHERE component = 'broken'")).rows[0]).toEqual({ n: 0 });
  });

  it("refuses a list not numbered 1, 2, 3… before touching the database", async () => {
    const pool = await openPostgres(db.url);
    const gap = [FIRST[0]!, { ...FIRST[1]!, version: 3 }];
    expect(await runMigrations(pool, "gap", gap).catch((e: unknown) => e)).toMatchObject({ code: "internal" });
  });

  it("serializes concurrent migrators: two opens at once apply each migration once", async () => {
    const second = await freshTestDatabase("cf_database_race");
    try {
      const pool = await openPostgres(second.url);
      const slow: Migration[] = [{ version: 1, name: "slow", sql: "SELECT pg_sleep(0.2); CREATE TABLE slow_things (id text)" }];
      const reports = await Promise.all([runMigrations(pool, "race", slow), runMigrations(pool, "race", slow)]);
      expect(reports.map((r) => r.applied).sort()).toEqual([[], [1]]);
    } finally {
      await second.drop();
    }
  });
});
