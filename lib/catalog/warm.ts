/** Warm-up of the stored analysis and forensics scan of big sessions, after a catalog refresh (prepare and the server). */
import { TABLE_ROWS } from "@/lib/analysis/analysis-view";
import { getSessionRisk, warmAnalysisViews } from "@/lib/analysis/session-analysis";
import { withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { SOURCE_FORMATS } from "@/lib/sources/formats";
import type { CoreContext } from "@/lib/context";
import { scanSession } from "@/lib/forensics/scan";
import { resolveSession } from "@/lib/workspace/sessions";

/** What a warm-up did: sessions at least `minBytes` long it brought in step (stored or already stored). */
export type WarmSummary = { sessions: number };

/**
 * Computes and stores under `.casefile/` what a session page reads of each session of every source
 * (Claude Code, Codex, and the agents read through the source contract, issue 38) the catalog lists at `minBytes` or more (the size a list does not wait
 * for, `RISK_WAIT_MAX_BYTES`): its seed 003 analysis with risk and the Analysis tab's first views of
 * it, token chart and summary (`.casefile/analysis/`), and its forensics scan (`.casefile/forensics/`:
 * the overview card), so a first visit reads those files instead of a gigabyte transcript. Run
 * after `refreshCatalog` by `casefile prepare` and by the server after its syncs, one session at a
 * time; an unchanged session costs a few stats. A session that fails is left to its first reader.
 */
export async function warmSessionPages(ctx: CoreContext, minBytes: number): Promise<WarmSummary> {
  const big = await withCatalog(ctx, () => catalogStore(ctx).bigSessions(minBytes, SOURCE_FORMATS.map((f) => f.name)));
  let sessions = 0;
  for (const { project_key, session_ref } of big) {
    const resolved = await resolveSession(ctx, project_key, session_ref).catch(() => null);
    if (!resolved?.ok) continue;
    await getSessionRisk(ctx, resolved.session).catch(() => undefined);
    await warmAnalysisViews(ctx, resolved.session, TABLE_ROWS).catch(() => undefined);
    await scanSession(ctx, resolved.session).catch(() => undefined);
    sessions += 1;
  }
  return { sessions };
}
