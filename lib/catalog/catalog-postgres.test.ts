/**
 * The catalog on PostgreSQL through its ordinary paths (issue 39): one workspace synced from the
 * corpus, its catalog built by the rows refresh and the full-text fill into SQLite and, with
 * `CASEFILE_DATABASE_URL` naming a fresh database, into PostgreSQL (catalogStore's choice); then
 * list_projects, every project's list_sessions, search_sessions and get_usage answer the same.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { fillFullText, fullTextCoverage } from "@/lib/catalog/full-text-index";
import { PostgresCatalogStore } from "@/lib/catalog/postgres/store";
import { catalogListSessions, catalogProjects } from "@/lib/catalog/queries";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { searchSessionsInputSchema } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { SqliteCatalogStore } from "@/lib/catalog/sqlite-store";
import { catalogUsage } from "@/lib/catalog/usage";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { catalogPath } from "@/lib/fs/workspace-layout";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { getUsageInputSchema } from "@/lib/usage/schema";
import { loadWorkspace } from "@/lib/workspace/load";
import { syncWorkspace } from "@/lib/workspace/sync";

const QUERIES = ["deprecated", '"git status"', "funct*", "error tool:Bash", "README role:user", "function agent:codex", "install is:error", "review OR commit", "module -test", "file:README the", "tool:Read"];

/** Everything the doors read from the catalog, in one workspace. */
async function answers(ctx: CoreContext) {
  const projects = await catalogProjects(ctx);
  const sessions: unknown[] = [];
  for (const p of (await loadWorkspace(ctx)).projects) {
    for (const sort of ["session_ref", "started_at", "total_tokens", "risk_level"]) {
      sessions.push(await catalogListSessions(ctx, { project_key: p.projectKey, limit: 500, sort, order: "desc" }));
    }
    sessions.push(await catalogListSessions(ctx, { project_key: p.projectKey, q: "the", limit: 3, offset: 1 }));
  }
  const searches: unknown[] = [];
  for (const query of QUERIES) {
    searches.push(await searchSessions(ctx, searchSessionsInputSchema.parse({ query, limit: 200 })));
    searches.push(await searchSessions(ctx, searchSessionsInputSchema.parse({ query, limit: 5, offset: 3 })));
  }
  const usage: unknown[] = [];
  for (const group_by of ["day", "project", "session", "source", "machine"]) usage.push(await catalogUsage(ctx, getUsageInputSchema.parse({ group_by })));
  return { projects, sessions, searches, usage, coverage: await fullTextCoverage(ctx) };
}

describePostgres("the catalog on PostgreSQL", () => {
  if (!HAS_SHARED) it.skip(SKIP_SHARED_MESSAGE, () => {});
  let database: Awaited<ReturnType<typeof freshTestDatabase>> | undefined;
  const before = process.env.CASEFILE_DATABASE_URL;
  const workspaces: { sqlite: CoreContext; pg: CoreContext } = {} as never;

  beforeAll(async () => {
    if (!HAS_SHARED) return;
    const root = await makeTempDir("casefile-catalog-pg-ws-");
    const sqlite = createCoreContext(path.join(root, "sqlite"), { now: () => new Date("2026-11-28T00:00:00Z"), oneShot: true });
    await syncWorkspace(sqlite, { sources: { claude: [path.join(SHARED_DIR, "corpus", "claude-code")], codex: [path.join(SHARED_DIR, "corpus", "codex")], demo: false } });
    // The same files in a second folder (times kept): a search's cached result is kept per workspace.
    await fs.cp(sqlite.workspaceRoot, path.join(root, "pg"), { recursive: true, preserveTimestamps: true, filter: (p) => !p.includes(`${path.sep}.casefile${path.sep}catalog`) });
    workspaces.sqlite = sqlite;
    workspaces.pg = createCoreContext(path.join(root, "pg"), { now: () => new Date("2026-11-28T00:00:00Z"), oneShot: true });
    database = await freshTestDatabase("cf_catalog_paths");
  }, 300_000);

  afterAll(async () => {
    if (before === undefined) delete process.env.CASEFILE_DATABASE_URL;
    else process.env.CASEFILE_DATABASE_URL = before;
    await database?.drop();
  });

  it.skipIf(!HAS_SHARED)("builds the catalog by the same refresh and fill, and lists, searches and counts usage as SQLite does", async () => {
    delete process.env.CASEFILE_DATABASE_URL;
    const { sqlite, pg } = workspaces;
    expect(catalogStore(sqlite)).toBeInstanceOf(SqliteCatalogStore);
    await refreshCatalog(sqlite);
    await fillFullText(sqlite);
    const expected = await answers(sqlite);
    closeCatalog(sqlite);

    process.env.CASEFILE_DATABASE_URL = database!.url;
    expect(catalogStore(pg)).toBeInstanceOf(PostgresCatalogStore);
    const rows = await refreshCatalog(pg);
    expect(rows.sessions_updated).toBeGreaterThan(10);
    // As the server fills it: on its background worker thread, which opens the database itself.
    const filled = await requestFullTextFill(pg.workspaceRoot);
    expect(filled.lines_indexed).toBeGreaterThan(1000);
    const got = await answers(pg);
    // The queries found lines (not a comparison of empty results).
    expect((expected.searches as { total: number }[]).reduce((n, s) => n + s.total, 0)).toBeGreaterThan(100);
    expect(got.coverage).toEqual(expected.coverage);
    expect(got.projects).toEqual(expected.projects);
    expect(got.sessions).toEqual(expected.sessions);
    expect(got.usage).toEqual(expected.usage);
    expect(got.searches).toEqual(expected.searches);
    // The rows are the database's (a store of its own on the URL reads them), and no SQLite catalog was made.
    expect((await new PostgresCatalogStore(database!.url).sessionStamps()).length).toBe(rows.sessions_updated);
    expect(existsSync(catalogPath(pg.workspaceRoot))).toBe(false);
    // A second refresh and fill in step write nothing.
    expect((await refreshCatalog(pg)).sessions_updated).toBe(0);
    expect(await fillFullText(pg)).toEqual({ sessions_indexed: 0, lines_indexed: 0 });
  }, 600_000);
});
