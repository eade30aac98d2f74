/** The catalog's background risk fill on a worker thread: seed 003 risk of many small sessions, off the server's thread and heap. */
import { getSessionRisk } from "@/lib/analysis/session-analysis";
import { statSync } from "node:fs";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { resolveInside } from "@/lib/fs/paths";
import { RangePool } from "@/lib/jsonl/range-pool";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";
import type { LoadedProject } from "@/lib/workspace/load";
import type { IndexRow } from "@/lib/workspace/schema";

/**
 * The sessions of one fill, rows of one loaded project: `range.firstLine` of each job indexes
 * `rows` (the worker resolves no workspace: loading it stats every project's index, per session).
 */
export type RiskFillArg = { workspaceRoot: string; project: LoadedProject; rows: number[] };

/** One session's risk, or null when it is no longer in the workspace. */
export type RiskFillAnswer = { risk_level: string; reset_count: number } | null;

/** The worker's own context, one per workspace (its caches live and die with the worker). */
const contexts = new Map<string, CoreContext>();

/**
 * The range-pool task (lib/jsonl/range-pool) of a fill: computes, stores (`.casefile/analysis/`,
 * as lib/analysis/session-analysis does for any reader) and returns the risk of session
 * `arg.sessions[range.firstLine]`. `filePath` is unused (a fill is a list of sessions, not a file's ranges).
 * @throws the fs error when the session file cannot be read.
 */
export async function riskFillTask(_filePath: string, range: LineRange, arg: RiskFillArg): Promise<RiskFillAnswer> {
  const row = arg.project.rows[arg.rows[range.firstLine]!]!;
  let ctx = contexts.get(arg.workspaceRoot);
  if (!ctx) contexts.set(arg.workspaceRoot, (ctx = createCoreContext(arg.workspaceRoot)));
  let filePath: string;
  try {
    // The same containment check as resolveSession's (lib/fs/paths).
    filePath = await resolveInside(arg.project.dir, row.session_path);
  } catch {
    return null;
  }
  if (!statSync(filePath, { throwIfNoEntry: false })?.isFile()) return null;
  const risk = await getSessionRisk(ctx, { project: arg.project, row, filePath });
  return { risk_level: risk.risk_level, reset_count: risk.reset_count };
}

/**
 * One worker thread that computes seed 003 risk for the server's background refresh: the analyses'
 * garbage and caches stay in its heap, given back when {@link close} ends it, and the server's
 * thread stays free for pages meanwhile. A worker that cannot start leaves the work to this thread.
 */
export class RiskFill {
  private readonly pool = new RangePool<RiskFillArg, RiskFillAnswer>(() => startWorker(import.meta.url, "./risk-worker.ts"), 1, { workersOnly: true, bigRanges: true });

  /**
   * Computes the risk of `rows` of a loaded `project` of `workspaceRoot`, calling
   * `onRisk(answer, index)` on this thread in order as each is known.
   * @throws whatever computing a risk throws (the message of the worker's error).
   */
  map(workspaceRoot: string, project: LoadedProject, rows: IndexRow[], onRisk: (answer: RiskFillAnswer, index: number) => void): Promise<void> {
    const ranges = rows.map((_, i) => ({ firstLine: i, lastLine: i, startByte: 0, endByte: 0 }));
    return this.pool.map(riskFillTask, workspaceRoot, ranges, { workspaceRoot, project, rows: rows.map((r) => project.rows.indexOf(r)) }, onRisk);
  }

  /** Resolves with how many workers run (1; 0 when none could start and this thread does the work). */
  ready(): Promise<number> {
    return this.pool.ready();
  }

  /** Ends the worker (its heap with it). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
