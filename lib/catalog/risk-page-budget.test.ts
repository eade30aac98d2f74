/** Issue 36 item 2: a server's project page computes a few stale risks and leaves the rest to one background fill. */
import { expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { catalogListSessions } from "@/lib/catalog/queries";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { requestRiskFill } from "@/lib/catalog/refresh-risk";
import { createCoreContext } from "@/lib/context";
import { claudeLines } from "@/lib/testing/transcripts";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

type Listed = { risk_pending: string[]; sessions: { session_ref: string; risk_level: string | null }[] };

it("a server's list_sessions names all but 16 stale risks pending, one background fill stores them, and the CLI still waits for every one", async () => {
  const refs = Array.from({ length: 40 }, (_, i) => `S${String(i + 1).padStart(4, "0")}`);
  const id = (i: number) => `b0d6e700-0000-4000-8000-${String(i).padStart(12, "0")}`;
  const root = await buildTestWorkspace(refs.map((ref, i) => ({ ref, content: claudeLines(id(i), "/home/me/app", 2) })));
  const server = createCoreContext(root);
  await refreshCatalog(server);
  const list = async (ctx = server) => (await catalogListSessions(ctx, { project_key: TEST_PROJECT_KEY, limit: 100 })) as unknown as Listed;

  const first = await list();
  expect(first.risk_pending).toHaveLength(40 - 16);
  expect(first.sessions.filter((s) => s.risk_level !== null)).toHaveLength(16);
  // The page asked for the background fill; once it is done, nothing is pending.
  await requestRiskFill(server);
  const after = await list();
  expect(after.risk_pending).toEqual([]);
  expect(after.sessions.every((s) => s.risk_level !== null)).toBe(true);
  closeCatalog(server);

  // A one-shot process computes every stale risk before it answers.
  const cliRoot = await buildTestWorkspace(refs.map((ref, i) => ({ ref, content: claudeLines(id(i), "/home/me/app", 3) })));
  const cli = createCoreContext(cliRoot, { oneShot: true });
  await refreshCatalog(cli);
  const listed = await list(cli);
  expect(listed.risk_pending).toEqual([]);
  expect(listed.sessions.every((s) => s.risk_level !== null)).toBe(true);
  closeCatalog(cli);
}, 60_000);
