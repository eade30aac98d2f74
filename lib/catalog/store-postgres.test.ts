/**
 * The catalog store suite on PostgreSQL (issue 39): the same cases as on SQLite, on a fresh
 * database of the test server (CASEFILE_TEST_DATABASE_URL; skipped with a message without one).
 */
import { afterAll } from "vitest";

import { PostgresCatalogStore } from "@/lib/catalog/postgres/store";
import { storeSearchSuite } from "@/lib/catalog/store-search-suite";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";

describePostgres("PostgreSQL catalog store", () => {
  const databases: { drop(): Promise<void> }[] = [];
  /** A store on a new, empty database (dropped after the file's cases). */
  const open = async () => {
    const db = await freshTestDatabase("cf_store_pg");
    databases.push(db);
    return new PostgresCatalogStore(db.url);
  };
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  storeSearchSuite(open);
});
