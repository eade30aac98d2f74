/** Issue 36: a project page read while another writer holds the catalog's lock (a full-text fill) answers without waiting for it when nothing changed. */
import Database from "better-sqlite3";
import { expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { catalogListSessions } from "@/lib/catalog/queries";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { catalogPath } from "@/lib/fs/workspace-layout";
import { claudeLines } from "@/lib/testing/transcripts";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

it("list_sessions of a project in step answers while another connection holds the write lock (it has nothing to write)", async () => {
  const refs = ["S0001", "S0002", "S0003"];
  const root = await buildTestWorkspace(refs.map((ref, i) => ({ ref, content: claudeLines(`c0ffee00-0000-4000-8000-00000000000${i}`, "/home/me/app", 2) })));
  const server = createCoreContext(root);
  await refreshCatalog(server);
  // Every risk stored first: the read then has nothing at all to write.
  await catalogListSessions(createCoreContext(root, { oneShot: true }), { project_key: TEST_PROJECT_KEY, limit: 10 });
  const writer = new Database(catalogPath(root));
  writer.exec("BEGIN IMMEDIATE");
  try {
    const started = performance.now();
    const listed = (await Promise.race([catalogListSessions(server, { project_key: TEST_PROJECT_KEY, limit: 10 }), new Promise((resolve) => setTimeout(() => resolve("waited"), 3000))])) as { sessions: unknown[] } | string;
    expect(listed).not.toBe("waited");
    expect((listed as { sessions: unknown[] }).sessions).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(3000);
  } finally {
    writer.exec("ROLLBACK");
    writer.close();
    closeCatalog(server);
  }
}, 60_000);
