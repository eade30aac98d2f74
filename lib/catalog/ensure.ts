// The read paths of the lists: the catalog brought in step with what moved, project by project, before it answers.

import { serialized, syncing, withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { coverageStamp, projectIndexStamp, refreshCoverage } from "@/lib/catalog/project-row";
import { refreshProject } from "@/lib/catalog/refresh";
import { refreshRisk, requestRiskFill } from "@/lib/catalog/refresh-risk";
import type { CatalogStore } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";
import { type LoadedProject, loadWorkspace } from "@/lib/workspace/load";

/**
 * Read path of the lists (list_projects, the home page, search): re-reads only projects whose index,
 * project.json, evidence folder or synthesis envelope moved since the catalog last saw them,
 * with O(projects) stats; a project new to the catalog is read whole. The full-text index is
 * {@link fillFullText}'s. While a {@link refreshCatalog} is queued or running, a catalog that
 * knows every project is read as it is.
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function ensureProjects(ctx: CoreContext): Promise<void> {
  return withCatalog(ctx, () => ensureProjectsOnce(ctx));
}

async function ensureProjectsOnce(ctx: CoreContext): Promise<void> {
  // While the sync's refresh runs (the server's start-up, a burst of new sessions), a catalog that
  // knows every project answers as it is rather than queue behind it: the refresh brings it in
  // step and the change feed tells the pages (issue 25: the server answers first).
  if (syncing(ctx) && (await knowsEveryProject(catalogStore(ctx), await loadWorkspace(ctx)))) return;
  const run = async () => {
    const ws = await loadWorkspace(ctx);
    const store = catalogStore(ctx);
    const stored = new Map((await store.projectStamps()).map((r) => [r.project_key, r]));
    const keep = new Set(ws.projects.map((p) => p.projectKey));
    for (const key of stored.keys()) if (!keep.has(key)) await store.dropProject(key);
    for (const [ord, project] of ws.projects.entries()) {
      const row = stored.get(project.projectKey);
      const indexStamp = projectIndexStamp(project);
      if (!row || row.index_stamp !== indexStamp) await refreshProject(ctx, project, ord);
      else {
        if (row.ord !== ord) await store.setProjectOrd(project.projectKey, ord);
        if (row.coverage_stamp !== coverageStamp(project, indexStamp)) await refreshCoverage(ctx, store, project, indexStamp);
      }
    }
  };
  return serialized(ctx, run);
}

/**
 * Read path of one project's session list: {@link ensureProjects}' check for the project, then
 * one stat per session file (a session grown without a sync is re-read), the "active because
 * recent" status rechecked against the clock, and seed 003 risk filled in where it is stale.
 * Returns the refs whose risk is still being computed (list_sessions' `risk_pending`).
 * @throws AppError not_found | parse_error from the workspace loader.
 */
export function ensureProjectSessions(ctx: CoreContext, project: LoadedProject): Promise<string[]> {
  return withCatalog(ctx, () => ensureProjectSessionsOnce(ctx, project));
}

/** Stale sessions whose risk a server's page read computes itself; the rest are filled in the background. */
const PAGE_RISK_INLINE_MAX = 16;

async function ensureProjectSessionsOnce(ctx: CoreContext, project: LoadedProject): Promise<string[]> {
  const store = catalogStore(ctx);
  // As in ensureProjects: a known project answers at once while the sync's refresh runs; its stale risks are named pending.
  if (syncing(ctx) && (await store.projectStamp(project.projectKey)) !== undefined) return (await store.staleRisks(project.projectKey)).map((r) => r.session_ref);
  return serialized(ctx, async () => {
    const ws = await loadWorkspace(ctx);
    const ord = ws.projects.findIndex((p) => p.projectKey === project.projectKey);
    await refreshProject(ctx, project, ord);
    // A one-shot process (the CLI) waits for every risk; a server's page computes a few and names
    // the rest pending, filled in the background (a first visit during a first start computed
    // 2,000 sessions' risk on the page's request: 25 s; issue 36 item 2, project pages ≤ 500 ms).
    if (ctx.oneShot) return refreshRisk(ctx, project);
    const pending = await refreshRisk(ctx, project, 16, undefined, PAGE_RISK_INLINE_MAX);
    if (pending.length > 0) void requestRiskFill(ctx).catch((error: unknown) => ctx.log.warn(`[casefile] risk fill failed: ${String(error)}`));
    return pending;
  });
}

/** Whether the catalog has a row for every project of the workspace. */
async function knowsEveryProject(store: CatalogStore, ws: { projects: LoadedProject[] }): Promise<boolean> {
  const known = new Set((await store.projectStamps()).map((r) => r.project_key));
  return ws.projects.every((p) => known.has(p.projectKey));
}
