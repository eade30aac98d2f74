/**
 * Migration 3 of the catalog (lib/catalog/postgres/migrations): the trigram indexes of the lines'
 * files and tools exist on every line partition, those made later by `catalog_lines_partition`
 * too, and serve the `file:`/`tool:` filters' `LIKE` as the store writes it (the index expression
 * `catalog_ascii_lower(…)` matches the query's). The filters' results are the store search suite's
 * (lib/catalog/store-search-suite.ts). Skipped with a message without CASEFILE_TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, expect, it } from "vitest";

import { openPostgres } from "@/lib/catalog/postgres/database";
import { PostgresCatalogStore } from "@/lib/catalog/postgres/store";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";

describePostgres("PostgreSQL catalog: trigram indexes of lines' files and tools", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  beforeAll(async () => {
    db = await freshTestDatabase("cf_filter_idx");
    // Opening the store runs the catalog's migrations.
    await new PostgresCatalogStore(db.url).indexStamp();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("are made on a partition made after the migration, and serve the filters' LIKE", async () => {
    const pool = await openPostgres(db.url);
    await pool.query("SELECT catalog_lines_partition(3)");
    const defs = (await pool.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'catalog_lines_3' ORDER BY indexname")).rows.map((r) => r.indexdef);
    expect(defs.filter((d) => d.includes("gin_trgm_ops"))).toEqual([
      expect.stringMatching(/USING gin \(catalog_ascii_lower\(files\) gin_trgm_ops\) WHERE \(files IS NOT NULL\)$/),
      expect.stringMatching(/USING gin \(catalog_ascii_lower\(tools\) gin_trgm_ops\) WHERE \(tools IS NOT NULL\)$/),
    ]);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      await client.query("SET LOCAL enable_indexscan = off");
      for (const col of ["files", "tools"]) {
        const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN SELECT rowid FROM catalog_lines_3 m WHERE m.${col} IS NOT NULL AND catalog_ascii_lower(m.${col}) LIKE $1`, ["%readme%"])).rows.map((r) => r["QUERY PLAN"]).join("\n");
        expect(plan).toMatch(new RegExp(`Bitmap Index Scan on catalog_lines_3_catalog_ascii_lower_idx`));
        expect(plan).toContain(`translate(${col},`);
      }
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });
});
