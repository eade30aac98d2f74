/**
 * Next.js calls `register` once when a server starts (`next start`, `next dev`, `casefile
 * serve`): the dashboard process keeps its workspace synced with the recorded sources while it
 * runs (issue 12, item 1; `CASEFILE_WATCH=0` turns it off; started 2.5 s after the server, so the
 * first pages are answered first), after reconciling the audit ledger;
 * first it tunes the process for a long-running server (server/process-tuning, issue 13).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Memory and responsiveness of a long-running server (issue 13): see server/process-tuning.
  const { tuneServerProcess } = await import("@/server/process-tuning");
  tuneServerProcess();
  // The dashboard is a door (http, ui): its start closes the audit ledger's gaps (issue 8). Not
  // awaited: a large ledger's first read takes seconds, and the server should answer at once.
  const { reconcileLedgerOnStart } = await import("@/server/audit-start");
  void reconcileLedgerOnStart();
  if (process.env.CASEFILE_WATCH === "0") return;
  const { startSourceWatcher, WATCH_START_DELAY_MS } = await import("@/server/watch/source-watcher");
  // The server answers first (issue 25): the watcher's scan of every source file and its first
  // sync would otherwise share the event loop with the first page (1 s alone, 3 s beside them).
  setTimeout(startSourceWatcher, WATCH_START_DELAY_MS).unref();
}
