import { RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { refreshCatalog } from "@/lib/catalog/catalog";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { warmSessionPages } from "@/lib/catalog/warm";
import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext, stderrLogger, type CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { inBackground } from "@/lib/jsonl/workers";
import { getChangeFeed } from "@/lib/ledger/change-feed";
import { SourceWatcher } from "@/lib/workspace/source-watcher";
import type { SyncSummary } from "@/lib/workspace/sync";

/** How long after the server starts the source watcher starts: the first pages are answered before its scan and sync. */
export const WATCH_START_DELAY_MS = 2_500;

let started: SourceWatcher | null = null;

/**
 * Starts the dashboard process's source watcher (issue 12, item 1) for `$CASEFILE_WORKSPACE`:
 * an incremental sync at once, then one per burst of source changes, for as long as the server
 * runs; after each, {@link followSyncs} brings the catalog in step and warms the big sessions'
 * pages. Called from Next's `instrumentation.ts`; a second call is a no-op. Does not wait for the
 * first sync, so the server answers at once. Logs each sync that changed something, and failures,
 * to stderr.
 */
export function startSourceWatcher(): void {
  if (started) return;
  const ctx = createCoreContext(resolveWorkspaceDir(undefined), { log: stderrLogger });
  const onSync = followSyncs(ctx);
  started = new SourceWatcher(ctx, {
    onSync: (s) => void onSync(s),
    onError: (error) => ctx.log.warn(`[casefile] sync failed: ${isAppError(error) ? `${error.code}: ${error.message}` : String(error)}`),
  });
  void started.start().catch((error: unknown) => ctx.log.warn(`[casefile] source watcher did not start: ${String(error)}`));
}

/** Options of {@link followSyncs}. */
export type FollowSyncsOptions = {
  /** Transcripts at least this long (bytes) get their analysis and scan stored after a refresh; default `RISK_WAIT_MAX_BYTES` (as `casefile prepare`). */
  warmMinBytes?: number;
};

/**
 * What the server does after each sync of its workspace (the start-up sync and the watcher's):
 * the workspace catalog (lib/catalog) is brought in step with seed 003 risk, and the change feed
 * tells the pages when it moved (they were answered from the catalog as it was meanwhile); then,
 * after the first refresh and after any that rewrote sessions (a big session that grew), the
 * stored analysis and forensics scan of every big session are brought in step
 * ({@link warmSessionPages}, as `casefile prepare` does), so a first visit to its Analysis tab
 * reads stored files (issue 29). The warm-up is background work (a page's passes take the worker
 * slots first), one session at a time, one warm-up at a time (a refresh during one queues exactly
 * one more). The returned function resolves when that sync's refresh and warm-up are done (tests);
 * failures are logged, never thrown.
 */
export function followSyncs(ctx: CoreContext, options: FollowSyncsOptions = {}): (summary: SyncSummary) => Promise<void> {
  const minBytes = options.warmMinBytes ?? RISK_WAIT_MAX_BYTES;
  /** Whether the catalog was brought in step once since start: later syncs that changed nothing skip it. */
  let catalogInStep = false;
  let warming: Promise<void> | null = null;
  let warmAgain = false;
  const warm = (): Promise<void> => {
    if (warming) {
      warmAgain = true;
      return warming;
    }
    warming = (async () => {
      do {
        warmAgain = false;
        await inBackground(() => warmSessionPages(ctx, minBytes)).catch((error: unknown) => ctx.log.warn(`[casefile] warm-up of big sessions failed: ${describe(error)}`));
      } while (warmAgain);
    })().finally(() => {
      warming = null;
    });
    return warming;
  };
  return async (s) => {
    if (!s.unchanged) ctx.log.info(`[casefile] synced ${s.workspace}: ${s.sessions} session(s), ${s.files_read} source file(s) read, ${s.files_written} file(s) written`);
    // The catalog follows every sync (issue 25): only sessions whose files moved are re-read.
    if (s.unchanged && catalogInStep) return;
    let refresh;
    // The full-text index follows the rows, on a background worker, while risk is filled; a search meanwhile says how much it covers.
    let filled: Promise<void> = Promise.resolve();
    const fill = () => {
      filled = requestFullTextFill(ctx.workspaceRoot).then(
        (done) => {
          if (done.lines_indexed > 0) getChangeFeed(ctx.workspaceRoot).announce();
        },
        (error: unknown) => ctx.log.warn(`[casefile] full-text fill failed: ${describe(error)}`),
      );
    };
    try {
      // Risk too: computed here in the background, a project page never waits on it.
      refresh = await refreshCatalog(ctx, { risk: true, afterRows: fill });
    } catch (error) {
      ctx.log.warn(`[casefile] catalog refresh failed: ${describe(error)}`);
      await filled;
      return;
    }
    // Pages read while the refresh ran were answered from the catalog as it was: they refetch now.
    const first = !catalogInStep;
    if (refresh.sessions_updated > 0 || first) getChangeFeed(ctx.workspaceRoot).announce();
    catalogInStep = true;
    if (first || refresh.sessions_updated > 0) await warm();
    await filled;
  };
}

const describe = (error: unknown): string => (isAppError(error) ? `${error.code}: ${error.message}` : String(error));
