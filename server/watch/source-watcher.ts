import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { SourceWatcher } from "@/lib/workspace/source-watcher";
import { consoleProgress } from "@/server/watch/console-progress";

/** How long after the server starts the source watcher starts: the first pages are answered before its scan and sync. */
export const WATCH_START_DELAY_MS = 2_500;

let started: SourceWatcher | null = null;

/**
 * Starts the dashboard process's source watcher (issue 12, item 1) for `$CASEFILE_WORKSPACE`:
 * a run of the workspace pipeline at once (the start's sync, with its progress on the console),
 * then one per burst of source changes, for as long as the server runs. The pipeline
 * (lib/pipeline) brings the catalog's rows in step, then fills the full-text index, risk and the
 * warm-up of big sessions in the background, and retries what failed. Called from Next's
 * `instrumentation.ts`; a second call is a no-op. Does not wait for the first sync, so the
 * server answers at once. Logs each sync that changed something, and failures, to stderr.
 */
export function startSourceWatcher(): void {
  if (started) return;
  const ctx = createCoreContext(resolveWorkspaceDir(undefined), { log: stderrLogger });
  const pipeline = new WorkspacePipeline(ctx, serverPipelineOptions({ onProgress: consoleProgress(process.stderr) }));
  started = new SourceWatcher(ctx, {
    sync: async () => (await pipeline.request()).sync!,
    onError: (error) => ctx.log.warn(`[casefile] sync failed: ${isAppError(error) ? `${error.code}: ${error.message}` : String(error)}`),
  });
  void started.start().catch((error: unknown) => ctx.log.warn(`[casefile] source watcher did not start: ${String(error)}`));
}

/**
 * The pipeline options of a long-running server: the sync as background work, the full-text
 * index, risk and the warm-up in the background after the rows, each change announced to the
 * open pages. `extra` adds or overrides (tests: a smaller warm-up size, a progress sink).
 */
export function serverPipelineOptions(extra: ConstructorParameters<typeof WorkspacePipeline>[1] = {}): ConstructorParameters<typeof WorkspacePipeline>[1] {
  return { syncInBackground: true, fullText: "background", risk: "background", warm: "background", announce: true, logSyncs: true, ...extra };
}
