// Seed 003 risk stored in the catalog's session rows, for every session whose stored risk is older than its file.

import { inLanes } from "@/lib/async/lanes";
import { getSessionRiskIfReady, RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { RiskFill } from "@/lib/catalog/risk-fill";
import type { RiskUpdate } from "@/lib/catalog/store";
import { processWide } from "@/lib/cache/process-wide";
import { getChangeFeed } from "@/lib/ledger/change-feed";
import type { CoreContext } from "@/lib/context";
import { resolveInside } from "@/lib/fs/paths";
import { type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import type { ResolvedSession } from "@/lib/workspace/sessions";

/** Sessions analysed at once by the background risk pass (few: its peak heap stays in the server's RSS). */
const BACKGROUND_RISK_WORKERS = 2;
/** Risks stored per write transaction while a fill computes them. */
const RISK_BATCH = 200;

/**
 * Fills in seed 003 risk for every session whose stored risk is older than its file (the
 * server's pipeline, in the background), so a project page never waits on it. Small sessions'
 * risk is computed on one worker thread, which may wait for a process worker slot: this runs
 * outside the catalog's refresh queue, so a wait for a slot (a long full-text fill or warm-up
 * holding them) never holds a rows refresh back (issue 36 item 1: live sync stalled behind it).
 * Each risk is stored with the file stamp it was computed for, so a session that moved meanwhile
 * stays stale and is filled again.
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function fillCatalogRisk(ctx: CoreContext): Promise<void> {
  return withCatalog(ctx, async () => {
    // Its worker starts only when some small session's risk is stale (most syncs have none).
    let fill: RiskFill | null = null;
    const startFill = () => (fill ??= new RiskFill());
    try {
      for (const project of (await loadWorkspace(ctx)).projects) await refreshRisk(ctx, project, BACKGROUND_RISK_WORKERS, startFill);
    } finally {
      await (fill as RiskFill | null)?.close();
    }
  });
}

/** One background risk fill per workspace in this process, and whether another was asked for meanwhile. */
const riskFills = processWide("catalog:risk-fill", () => new Map<string, { done: Promise<void>; again: boolean }>());

/**
 * {@link fillCatalogRisk} in the background, one at a time per workspace in this process: a
 * request during a fill is answered by one more pass once it ends. When a pass stored risks,
 * the change feed tells open pages (their session lists refetch). The server's pipeline and a
 * page read that left sessions pending both ask through here, so a session's risk is computed once.
 * @throws whatever fillCatalogRisk throws.
 */
export function requestRiskFill(ctx: CoreContext): Promise<void> {
  const current = riskFills.get(ctx.workspaceRoot);
  if (current) {
    current.again = true;
    return current.done;
  }
  const entry = { again: false, done: Promise.resolve() };
  entry.done = (async () => {
    try {
      do {
        entry.again = false;
        await fillCatalogRisk(ctx);
        getChangeFeed(ctx.workspaceRoot).announce();
      } while (entry.again);
    } finally {
      riskFills.delete(ctx.workspaceRoot);
    }
  })();
  riskFills.set(ctx.workspaceRoot, entry);
  return entry.done;
}

/**
 * Fills seed 003 risk for the project's sessions whose stored risk is older than their file;
 * returns the refs still pending. At most `inlineMax` stale sessions are computed here (a page
 * read computes a few and leaves the rest to {@link requestRiskFill}); the others are pending.
 */
export async function refreshRisk(ctx: CoreContext, project: LoadedProject, workers = 16, fill?: () => RiskFill, inlineMax = Infinity): Promise<string[]> {
  const store = catalogStore(ctx);
  let stale = await store.staleRisks(project.projectKey);
  const rows = new Map(project.rows.map((r) => [r.session_ref, r]));
  const pending: string[] = [];
  // Risks are stored in batches, each waiting its turn for the write lock (a full-text fill may hold it for seconds).
  let batch: RiskUpdate[] = [];
  const flush = async () => {
    const rowsToWrite = batch;
    batch = [];
    await store.storeRisks(rowsToWrite);
  };
  const flushing: Promise<void>[] = [];
  if (fill) {
    // Small sessions on the fill's worker; the large ones below, in the background as any reader starts them.
    const small = stale.filter((s) => rows.has(s.session_ref) && Number(s.file_stamp.split(":")[0]) < RISK_WAIT_MAX_BYTES);
    if (small.length > 0) await fill().map(ctx.workspaceRoot, project, small.map((s) => rows.get(s.session_ref)!), (risk, i) => {
      if (risk) batch.push({ id: small[i]!.id, risk_stamp: small[i]!.file_stamp, risk_level: risk.risk_level, reset_count: risk.reset_count });
      if (batch.length >= RISK_BATCH) {
        const flushed = flush();
        flushed.catch(() => undefined); // handled by the Promise.all below; not an unhandled rejection meanwhile
        flushing.push(flushed);
      }
    });
    flushing.push(flush());
    await Promise.all(flushing);
    const done = new Set(small);
    stale = stale.filter((s) => !done.has(s));
  }
  // Past `inlineMax`, stale sessions are named pending (keeping any older risk) for a background fill.
  if (stale.length > inlineMax) {
    for (const s of stale.slice(inlineMax)) pending.push(s.session_ref);
    stale = stale.slice(0, inlineMax);
  }
  await inLanes(stale, workers, async (s) => {
    const row = rows.get(s.session_ref);
    if (!row) return;
    const session: ResolvedSession = { project, row, filePath: await resolveInside(project.dir, row.session_path) };
    const risk = await getSessionRiskIfReady(ctx, session);
    if (risk === "pending") {
      pending.push(s.session_ref);
      batch.push({ id: s.id, risk_stamp: null, risk_level: null, reset_count: null });
    } else batch.push({ id: s.id, risk_stamp: s.file_stamp, risk_level: risk.risk_level, reset_count: risk.reset_count });
  });
  await flush();
  return pending.sort();
}
