/**
 * One pass over a big JSONL file on every core: the file is split into byte ranges on line
 * boundaries, each range is mapped by the same task (in worker threads, the first range in this
 * thread), and the caller reduces the per-range results in file order (issues 9, 10, 13: the
 * forensics scan, the seed 003 analysis and prepare each read ~1 GB sessions).
 *
 * How a caller uses it:
 *
 * ```ts
 * // lib/<domain>/scan-worker.ts: a module of its own that only serves the task
 * serveRanges(scanRange);
 * // lib/<domain>/scan.ts
 * const ranges = await splitFileRanges(file, index, rangeCount(index.size));
 * const parts = await mapRanges(() => startWorker(import.meta.url, "./scan-worker.ts"), scanRange, file, ranges, arg);
 * ```
 */
import fs from "node:fs/promises";
import { availableParallelism } from "node:os";
import { isMainThread, parentPort, Worker } from "node:worker_threads";

import type { LineIndex } from "@/lib/jsonl/line-index";

/**
 * Lines `[firstLine, lastLine]` (1-based physical lines, contract §1.6) occupying bytes
 * `[startByte, endByte)` of a file. `startByte` always follows a `\n` (or is 0), so a range also
 * starts a JSONL record for readers that split records on `\n` only.
 */
export type LineRange = { firstLine: number; lastLine: number; startByte: number; endByte: number };

/** The task a worker runs on one range: `(filePath, range, arg) → result` (structured-cloneable). */
export type RangeTask<A, R> = (filePath: string, range: LineRange, arg: A) => Promise<R>;

/** Files smaller than this are read in one range: a worker costs ~50–300 ms to start. */
export const PARALLEL_MIN_BYTES = 64 << 20;

/**
 * How many ranges to split a file of `bytes` into: 1 below {@link PARALLEL_MIN_BYTES}, else the
 * machine's parallelism, at most 4 (2 on the reference machine). `CASEFILE_WORKERS=1` (or 0)
 * turns workers off; another number sets the count.
 */
export function rangeCount(bytes: number): number {
  const env = Number(process.env.CASEFILE_WORKERS);
  if (Number.isInteger(env) && env >= 0 && process.env.CASEFILE_WORKERS !== "") return Math.max(1, env);
  if (bytes < PARALLEL_MIN_BYTES) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * Splits the lines of `index` into at most `parts` ranges of about equal bytes. A boundary is
 * moved forward to the next line that follows a `\n` byte (read from the file), so no `\n`
 * record is cut. Ranges are contiguous, in file order, and cover every line; an empty file
 * gives no range.
 * @throws the fs error when the file cannot be read.
 */
export async function splitFileRanges(filePath: string, index: LineIndex, parts: number): Promise<LineRange[]> {
  const { lineCount, starts, size } = index;
  if (lineCount === 0) return [];
  const cuts: number[] = [1];
  if (parts > 1) {
    const handle = await fs.open(filePath, "r");
    try {
      const byte = Buffer.alloc(1);
      for (let k = 1; k < parts; k++) {
        let line = Math.max(cuts.at(-1)! + 1, lineAtByte(starts, (size * k) / parts));
        for (; line <= lineCount; line++) {
          await handle.read(byte, 0, 1, starts[line - 1]! - 1);
          if (byte[0] === 0x0a) break;
        }
        if (line > lineCount) break;
        cuts.push(line);
      }
    } finally {
      await handle.close();
    }
  }
  return cuts.map((first, i) => {
    const next = cuts[i + 1];
    return {
      firstLine: first,
      lastLine: next === undefined ? lineCount : next - 1,
      startByte: starts[first - 1]!,
      endByte: next === undefined ? size : starts[next - 1]!,
    };
  });
}

/** The 1-based line holding byte `offset` (binary search over line starts). */
function lineAtByte(starts: Float64Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/**
 * Starts a worker on the entry module `relative` to `base` (the caller's `import.meta.url`), e.g.
 * `startWorker(import.meta.url, "./scan-worker.ts")`. The URL is built here, from variables, on
 * purpose: Next.js rewrites a literal `new URL("./x.ts", import.meta.url)` into a copied asset,
 * while a server module's own `import.meta.url` stays its source path, so the entry is loaded
 * from the checkout like everywhere else. TypeScript source goes through tsx's loader, registered
 * inside the worker before the entry is imported (Node 20 applies an inherited `--import` loader
 * too late for a worker's own entry); a `.js`/`.mjs` entry is started directly.
 * @throws the Worker constructor's error (mapRanges then reads the range itself).
 */
export function startWorker(base: string, relative: string): Worker {
  const entry = new URL(relative, base);
  if (!/\.[cm]?ts$/.test(entry.pathname)) return new Worker(entry);
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true });
}

/** Why workers were not used, reported once per process. */
let fallbackReported = false;

/**
 * Maps `task` over `ranges` and returns the results in range order. Range 0 runs in this
 * thread while every other range runs in a worker from `spawn()` (whose module calls
 * {@link serveRanges} with the same task). A worker that cannot start or fails before
 * answering is replaced by an in-thread run of its range (reported once on stderr), so a result
 * never depends on workers being available; an error thrown by the task itself is rethrown.
 * @throws whatever `task` throws (in a worker: an Error with its message).
 */
export async function mapRanges<A, R>(spawn: () => Worker, task: RangeTask<A, R>, filePath: string, ranges: readonly LineRange[], arg: A): Promise<R[]> {
  if (ranges.length <= 1) return Promise.all(ranges.map((range) => task(filePath, range, arg)));
  const remote = ranges.slice(1).map((range) => inWorker(spawn, filePath, range, arg).then(
    (answer) => (answer.ok ? answer.result : Promise.reject(new Error(answer.error))),
    (startError: unknown) => {
      if (!fallbackReported) {
        fallbackReported = true;
        console.warn(`casefile: worker threads unavailable, reading in one thread (${startError instanceof Error ? startError.message : String(startError)})`);
      }
      return task(filePath, range, arg);
    },
  ));
  const local = task(filePath, ranges[0]!, arg);
  return Promise.all([local, ...remote]) as Promise<R[]>;
}

type Answer<R> = { ok: true; result: R } | { ok: false; error: string };
type Job<A> = { filePath: string; range: LineRange; arg: A };

/**
 * Runs one job in a fresh worker. Resolves with the task's answer (its error as a value);
 * rejects only when the worker could not start or died without answering (then the caller runs
 * the range itself).
 */
function inWorker<A, R>(spawn: () => Worker, filePath: string, range: LineRange, arg: A): Promise<Answer<R>> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = spawn();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    let answered = false;
    worker.once("message", (answer: Answer<R>) => {
      answered = true;
      // Resolve once the worker is gone, so its heap is freed before the caller goes on (a run
      // after run of 1 GB passes otherwise grows the process).
      worker.terminate().then(
        () => resolve(answer),
        () => resolve(answer),
      );
    });
    worker.once("error", (error) => {
      if (!answered) reject(error);
    });
    worker.once("exit", (code) => {
      if (!answered) reject(new Error(`worker exited with code ${code} before answering`));
    });
    worker.postMessage({ filePath, range, arg } satisfies Job<A>);
  });
}

/**
 * Inside a worker entry module: answers the one job {@link mapRanges} posts by running `task`
 * and posting its result (or its error message). Does nothing on the main thread, so importing
 * the entry elsewhere is harmless.
 */
export function serveRanges<A, R>(task: RangeTask<A, R>): void {
  if (isMainThread || parentPort === null) return;
  const port = parentPort;
  port.once("message", (job: Job<A>) => {
    task(job.filePath, job.range, job.arg).then(
      (result) => port.postMessage({ ok: true, result } satisfies Answer<R>),
      (error: unknown) => port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Answer<R>),
    );
  });
}
