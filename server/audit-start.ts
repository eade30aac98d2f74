import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { getLedger } from "@/lib/ledger/ledger-store";
import { openLedger } from "@/lib/ledger/reconcile";

/**
 * The dashboard process's start as a door of the audit ledger (seed 002, "detects the orphaned
 * started trace on next startup"): reconciles `$CASEFILE_WORKSPACE`'s ledger once, so calls a
 * crashed process left open show as `crashed` on the Audit page before any new call is made
 * (the page's own reads are not traced, so they would never trigger it). Called from Next's
 * `instrumentation.ts`. A failure is logged to stderr, never thrown: the dashboard still starts,
 * and the next traced call retries.
 */
export async function reconcileLedgerOnStart(): Promise<void> {
  const ctx = createCoreContext(resolveWorkspaceDir(undefined), { log: stderrLogger });
  await openLedger(getLedger(ctx.workspaceRoot)).catch((error: unknown) => {
    ctx.log.warn(`audit ledger: reconciliation failed: ${error instanceof Error ? error.message : String(error)}`);
  });
}
