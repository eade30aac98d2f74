/** Issue 36 item 1: the background risk fill waits its turn for a catalog another connection is writing, without blocking the event loop. */
import Database from "better-sqlite3";
import { expect, it } from "vitest";

import { catalogDb, closeCatalog } from "@/lib/catalog/catalog";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { fillCatalogRisk } from "@/lib/catalog/refresh-risk";
import { createCoreContext } from "@/lib/context";
import { catalogPath } from "@/lib/fs/workspace-layout";
import { claudeLines } from "@/lib/testing/transcripts";
import { buildTestWorkspace } from "@/lib/testing/workspace-builder";

it("stores every risk once a writer holding the catalog for longer than SQLite's busy wait (6 s) lets go, and the event loop keeps turning meanwhile", async () => {
  const id = (n: number) => `5e550000-0000-4000-8000-00000000000${n}`;
  const root = await buildTestWorkspace([1, 2, 3].map((n) => ({ ref: `S000${n}`, content: claudeLines(id(n), "/home/me/app", 2) })));
  const ctx = createCoreContext(root);
  await refreshCatalog(ctx);
  const stale = () => (catalogDb(ctx).prepare("SELECT count(*) FROM sessions WHERE risk_stamp IS NULL OR risk_stamp != file_stamp").pluck().get() as number);
  expect(stale()).toBe(3);
  // Another connection (a full-text fill indexing a big session) holds the write lock for 6 s.
  const writer = new Database(catalogPath(root));
  writer.exec("BEGIN IMMEDIATE");
  const released = new Promise<void>((resolve) => setTimeout(() => {
    writer.exec("COMMIT");
    writer.close();
    resolve();
  }, 6_000));
  let ticks = 0;
  const ticker = setInterval(() => (ticks += 1), 100);
  try {
    await fillCatalogRisk(ctx);
  } finally {
    clearInterval(ticker);
  }
  await released;
  expect(stale()).toBe(0);
  // SQLite's busy wait would have held the thread (and the pages) for 5 s, then failed.
  expect(ticks).toBeGreaterThan(30);
  closeCatalog(ctx);
}, 30_000);
