import { refreshCatalog } from "@/lib/catalog/catalog";
import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { getChangeFeed } from "@/lib/ledger/change-feed";
import { SourceWatcher } from "@/lib/workspace/source-watcher";

/** How long after the server starts the source watcher starts: the first pages are answered before its scan and sync. */
export const WATCH_START_DELAY_MS = 2_500;

let started: SourceWatcher | null = null;
/** Whether the catalog was brought in step once since start: later syncs that changed nothing skip it. */
let catalogInStep = false;

/**
 * Starts the dashboard process's source watcher (issue 12, item 1) for `$CASEFILE_WORKSPACE`:
 * an incremental sync at once, then one per burst of source changes, for as long as the server
 * runs; after each, the workspace catalog (lib/catalog) is brought in step, and the change feed
 * tells the pages when it moved (they were answered from the catalog as it was meanwhile).
 * Called from Next's `instrumentation.ts`; a second call is a no-op. Does not wait for the
 * first sync, so the server answers at once. Logs each sync that changed something, and failures,
 * to stderr.
 */
export function startSourceWatcher(): void {
  if (started) return;
  const ctx = createCoreContext(resolveWorkspaceDir(undefined), { log: stderrLogger });
  started = new SourceWatcher(ctx, {
    onSync: (s) => {
      if (!s.unchanged) ctx.log.info(`[casefile] synced ${s.workspace}: ${s.sessions} session(s), ${s.files_read} source file(s) read, ${s.files_written} file(s) written`);
      // The catalog follows every sync (issue 25): only sessions whose files moved are re-read.
      if (s.unchanged && catalogInStep) return;
      // Risk too: computed here in the background, a project page never waits on it.
      void refreshCatalog(ctx, { risk: true })
        .then((r) => {
          // Pages read while the refresh ran were answered from the catalog as it was: they refetch now.
          if (r.sessions_updated > 0 || r.lines_indexed > 0 || !catalogInStep) getChangeFeed(ctx.workspaceRoot).announce();
          catalogInStep = true;
        })
        .catch((error: unknown) => ctx.log.warn(`[casefile] catalog refresh failed: ${isAppError(error) ? `${error.code}: ${error.message}` : String(error)}`));
    },
    onError: (error) => ctx.log.warn(`[casefile] sync failed: ${isAppError(error) ? `${error.code}: ${error.message}` : String(error)}`),
  });
  void started.start().catch((error: unknown) => ctx.log.warn(`[casefile] source watcher did not start: ${String(error)}`));
}
