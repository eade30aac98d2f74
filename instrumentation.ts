/**
 * Next.js calls `register` once when a server starts (`next start`, `next dev`, `casefile
 * serve`): the dashboard process keeps its workspace synced with the recorded sources while it
 * runs (issue 12, item 1). `CASEFILE_WATCH=0` turns it off.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.CASEFILE_WATCH === "0" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { startSourceWatcher } = await import("@/server/watch/source-watcher");
  startSourceWatcher();
}
