/** The full-text index's fill on a worker thread: a long-running process indexes new lines off its main thread. */
import { catalogInMemory } from "@/lib/catalog/catalog";
import { fillFullText, type FullTextFillResult } from "@/lib/catalog/full-text-index";
import { processWide } from "@/lib/cache/process-wide";
import { createCoreContext } from "@/lib/context";
import { RangePool } from "@/lib/jsonl/range-pool";
import { inBackground, startWorker, type LineRange } from "@/lib/jsonl/workers";

/** What the worker is told: the workspace whose catalog it fills. */
export type FullTextFillArg = { workspaceRoot: string };

/**
 * The range-pool task (lib/jsonl/range-pool) of a fill: {@link fillFullText} of the workspace,
 * with the worker's own catalog connection and context. `filePath` and `range` are unused.
 * @throws as fillFullText does.
 */
export function fullTextFillTask(_filePath: string, _range: LineRange, arg: FullTextFillArg): Promise<FullTextFillResult> {
  // Already a background thread: one more extracts new transcripts' lines ahead of its writes.
  return fillFullText(createCoreContext(arg.workspaceRoot), { extractors: 1 });
}

/** One fill running per workspace in this process, and whether another was asked for meanwhile. */
type Running = { done: Promise<FullTextFillResult>; again: boolean };
const running = processWide("catalog:full-text-fill", () => new Map<string, Running>());

/**
 * Brings the workspace's full-text index in step ({@link fillFullText}) on one background worker
 * thread (low CPU priority, its own heap and SQLite connection, ended when the fill ends), so the
 * process's main thread keeps answering pages. One fill runs at a time per workspace: a request
 * during one is answered by it plus one more pass once it ends (it finds what the first could not
 * see). Resolves with the sessions and lines indexed in all; a worker that cannot start, or a
 * catalog in memory (issue 35), leaves the fill to this thread.
 * @throws whatever the fill throws (the message of the worker's error).
 */
export function requestFullTextFill(workspaceRoot: string): Promise<FullTextFillResult> {
  const current = running.get(workspaceRoot);
  if (current) {
    current.again = true;
    return current.done;
  }
  const entry: Running = { again: false, done: Promise.resolve({ sessions_indexed: 0, lines_indexed: 0 }) };
  entry.done = (async () => {
    const total: FullTextFillResult = { sessions_indexed: 0, lines_indexed: 0 };
    try {
      do {
        entry.again = false;
        // A catalog in memory is this thread's alone: a worker would fill a catalog of its own.
        const done = catalogInMemory(workspaceRoot) ? await fillFullText(createCoreContext(workspaceRoot)) : await inBackground(() => fillOnWorker(workspaceRoot));
        total.sessions_indexed += done.sessions_indexed;
        total.lines_indexed += done.lines_indexed;
      } while (entry.again);
      return total;
    } finally {
      running.delete(workspaceRoot);
    }
  })();
  running.set(workspaceRoot, entry);
  return entry.done;
}

async function fillOnWorker(workspaceRoot: string): Promise<FullTextFillResult> {
  const pool = new RangePool<FullTextFillArg, FullTextFillResult>(() => startWorker(import.meta.url, "./full-text-worker.ts"), 1, { workersOnly: true, bigRanges: true });
  try {
    let result: FullTextFillResult = { sessions_indexed: 0, lines_indexed: 0 };
    await pool.map(fullTextFillTask, workspaceRoot, [{ firstLine: 0, lastLine: 0, startByte: 0, endByte: 0 }], { workspaceRoot }, (r) => (result = r));
    return result;
  } finally {
    await pool.close();
  }
}
