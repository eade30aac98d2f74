/** The worker pool of every range-mapped pass (serveRangeStream, RangePool, mapRangesOnPool). */
/**
 * The one worker pool of every range-mapped pass: many small line ranges of a big JSONL file, taken
 * front first from one queue by this thread and long-lived workers (two ranges in flight each), so
 * the threads finish within one range of each other; each range is reduced, in file order, as soon
 * as every range before it is. Workers start through lib/jsonl/workers.
 *
 * How a caller uses it:
 *
 * ```ts
 * // lib/<domain>/scan-worker.ts: a module of its own that only serves the task
 * serveRangeStream(scanRange, (r) => [r.ts.buffer]);
 * // lib/<domain>/scan.ts: start the workers early (they take ~0.1–0.5 s to boot), then map
 * const pool = new RangePool(() => startWorker(import.meta.url, "./scan-worker.ts"), 1);
 * try {
 *   const ranges = poolRanges(file, index, 2);
 *   await pool.map(scanRange, file, ranges, arg, (result) => reduce(result));
 * } finally {
 *   await pool.close();
 * }
 * ```
 */
import { closeSync, openSync, readSync } from "node:fs";
import fs from "node:fs/promises";
import { isMainThread, parentPort, type Worker } from "node:worker_threads";

import { lowerBound, upperBound } from "@/lib/columns/typed-columns";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { loneRangeOffMain, takeWorkerSlot, workersOnly, yieldToForeground, type LineRange, type RangeTask } from "@/lib/jsonl/workers";

/** Bytes of one range of a pool pass: small enough that the threads end close together. */
export const POOL_RANGE_BYTES = 8 << 20;
/** Bytes of the ranges that end a pool pass (the last {@link TAIL_RANGES_PER_THREAD} per thread). */
export const POOL_TAIL_BYTES = 1 << 20;
const TAIL_RANGES_PER_THREAD = 4;
/** Ranges per thread at least (a small file forced through the pool still spreads over the workers). */
const MIN_RANGES_PER_THREAD = 8;

/** Ranges a worker holds at once (one mapping, one waiting). */
const DEPTH = 2;

/**
 * The ranges of a pool pass over `filePath` (line index `index`) on `threads` threads: about
 * {@link POOL_RANGE_BYTES} each, then {@link POOL_TAIL_BYTES} ones for the last few MiB (so the
 * threads run out of work within a small range of each other), and at least 8 per thread
 * (equal ones below that). Like {@link splitFileRanges}, every range starts on a
 * line that follows a `\n` byte, and the ranges are contiguous, in file order, covering every
 * line; an empty file gives none.
 * @throws the fs error when the file cannot be read.
 */
export function poolRanges(filePath: string, index: LineIndex, threads: number): LineRange[] {
  if (index.lineCount === 0) return [];
  return rangesAt(filePath, index, poolCutTargets(index.size, threads));
}

/**
 * Where a pool pass over `size` bytes on `threads` threads cuts its ranges, as byte offsets in
 * `(0, size)`, ascending: every {@link POOL_RANGE_BYTES}, then every {@link POOL_TAIL_BYTES}
 * over the last few MiB, or equal parts when that makes fewer than 8 ranges per thread. Each
 * range then starts at the first line boundary at or after its target ({@link poolRanges}; a
 * reader without a line index looks for the next `\n`).
 */
export function poolCutTargets(size: number, threads: number): number[] {
  const targets: number[] = [];
  const tailFrom = Math.max(0, size - threads * TAIL_RANGES_PER_THREAD * POOL_TAIL_BYTES);
  for (let at = POOL_RANGE_BYTES; at < tailFrom; at += POOL_RANGE_BYTES) targets.push(at);
  for (let at = tailFrom; at < size; at += POOL_TAIL_BYTES) if (at > (targets.at(-1) ?? 0)) targets.push(at);
  const minimum = threads * MIN_RANGES_PER_THREAD;
  if (targets.length + 1 < minimum) {
    targets.length = 0;
    for (let k = 1; k < minimum; k++) targets.push((size * k) / minimum);
  }
  return targets;
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

/** The 1-based line holding byte `offset` (the last line starting at or before it; 1 when none does). */
function lineAtByte(starts: Float64Array, offset: number): number {
  return Math.max(1, upperBound(starts, offset));
}

/** Ranges cut at the first line starting at or after each byte target that follows a `\n`. */
function rangesAt(filePath: string, index: LineIndex, targets: readonly number[]): LineRange[] {
  const { lineCount, starts, size } = index;
  const cuts = [1];
  const fd = openSync(filePath, "r");
  try {
    const byte = Buffer.alloc(1);
    for (const target of targets) {
      let line = Math.max(cuts.at(-1)! + 1, firstLineFrom(starts, target));
      for (; line <= lineCount; line++) {
        if (readSync(fd, byte, 0, 1, starts[line - 1]! - 1) === 1 && byte[0] === 0x0a) break;
      }
      if (line > lineCount) break;
      cuts.push(line);
    }
  } finally {
    closeSync(fd);
  }
  return cuts.map((first, i) => {
    const next = cuts[i + 1];
    return { firstLine: first, lastLine: next === undefined ? lineCount : next - 1, startByte: starts[first - 1]!, endByte: next === undefined ? size : starts[next - 1]! };
  });
}

/** The 1-based number of the first line starting at or after byte `offset` (lineCount + 1 when none). */
function firstLineFrom(starts: Float64Array, offset: number): number {
  return lowerBound(starts, offset) + 1;
}

type Message<A> = { kind: "arg"; arg: A } | { kind: "job"; id: number; filePath: string; range: LineRange };
type Answer<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: string };

/**
 * Inside a worker entry module: answers every job a {@link RangePool} posts with `task`'s result
 * (its `transfer` buffers moved, not copied) or its error message, one at a time in the order
 * received, or up to `concurrency` at once (tasks that mostly wait on small reads: their waits
 * overlap; answers may then come out of order, which the pool puts back in order). Does nothing
 * on the main thread, so importing the entry elsewhere is harmless.
 */
export function serveRangeStream<A, R>(task: RangeTask<A, R>, transfer?: (result: R) => ArrayBuffer[], options: { concurrency?: number } = {}): void {
  if (isMainThread || parentPort === null) return;
  yieldToForeground();
  const port = parentPort;
  const lanes = Math.max(1, Math.floor(options.concurrency ?? 1));
  let arg: A | undefined;
  let running = 0;
  const waiting: { message: Extract<Message<A>, { kind: "job" }>; arg: A }[] = [];
  const next = (): void => {
    while (running < lanes && waiting.length > 0) {
      const { message, arg: jobArg } = waiting.shift()!;
      running += 1;
      void task(message.filePath, message.range, jobArg)
        .then(
          (result) => port.postMessage({ id: message.id, ok: true, result } satisfies Answer<R>, transfer?.(result) ?? []),
          (error: unknown) => port.postMessage({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies Answer<R>),
        )
        .finally(() => {
          running -= 1;
          next();
        });
    }
  };
  port.on("message", (message: Message<A>) => {
    if (message.kind === "arg") {
      arg = message.arg;
      return;
    }
    waiting.push({ message, arg: arg as A });
    next();
  });
}

/**
 * One of the pool's workers: `waiting` for a process worker slot (lib/jsonl/workers'
 * `takeWorkerSlot`), then starting (`worker` null), then running, or `lost`; `release` gives the
 * process slot back.
 */
type Slot = { worker: Worker | null; waiting: boolean; lost: boolean; release: () => void; inflight: Set<number>; pass: number };

/** One {@link RangePool.map} under way. */
type Pass<A, R> = {
  id: number;
  filePath: string;
  ranges: readonly LineRange[];
  arg: A;
  onResult: (result: R, index: number) => void;
  /** Range indexes nobody took yet, ascending. */
  queue: number[];
  results: (R | undefined)[];
  done: boolean[];
  next: number;
  failure: Error | null;
  wake: (() => void) | null;
};

/** Why workers were not used, reported once per process. */
let fallbackReported = false;

/**
 * Long-lived worker threads (started at construction, from `spawn()`, whose module calls
 * {@link serveRangeStream}) plus this thread, mapping the ranges of one file at a time
 * ({@link map}). Each worker first takes one of the process's worker slots (lib/jsonl/workers'
 * `takeWorkerSlot`, shared with every other pool), so passes that overlap in a
 * server share the cores instead of each starting its own workers; a
 * worker whose slot is taken joins the pass when one is given back. A worker that cannot start
 * or dies gives its ranges back to the queue (this thread maps them; reported once on stderr),
 * so a result never depends on workers. Call {@link close} when done, also on error: workers
 * keep the process alive and hold their slots.
 */
export class RangePool<A, R> {
  private readonly slots: Slot[] = [];
  private pass: Pass<A, R> | null = null;
  private passes = 0;
  private closed = false;
  private readonly started: Promise<unknown>[] = [];

  /**
   * `workersOnly`: this thread maps ranges only while a worker has yet to start (or when none
   * can), then only hands results over; its event loop stays free and its heap small (the
   * mapping's garbage is collected in the workers' heaps). `bigRanges` (with `workersOnly`): not
   * even while a worker starts, for passes of one big range per worker. `depth`: ranges a worker
   * holds at once (default 2); more keep it busy through this thread's longer synchronous turns.
   */
  constructor(spawn: () => Worker | Promise<Worker>, workers: number, private readonly options: { workersOnly?: boolean; bigRanges?: boolean; depth?: number } = {}) {
    for (let k = 0; k < workers; k++) {
      const slot: Slot = { worker: null, waiting: true, lost: false, release: () => undefined, inflight: new Set(), pass: -1 };
      this.slots.push(slot);
      const start = takeWorkerSlot()
        .then((release) => {
          slot.waiting = false;
          slot.release = release;
          if (this.closed) {
            release();
            return null;
          }
          this.pass?.wake?.();
          return spawn();
        })
        .then(
          (worker) => {
            if (worker === null) return;
            if (this.closed) {
              void worker.terminate().finally(slot.release);
              return;
            }
            slot.worker = worker;
            worker.on("message", (answer: Answer<R>) => this.answer(slot, answer));
            worker.once("error", (error) => this.lose(slot, error));
            worker.once("exit", (code) => this.lose(slot, new Error(`worker exited with code ${code}`)));
            this.pump();
          },
          (error: unknown) => (this.closed ? slot.release() : this.lose(slot, error)),
        );
      this.started.push(start);
    }
  }

  /** Resolves, once every worker started or failed to (after waiting for its process slot), with how many are running. */
  async ready(): Promise<number> {
    await Promise.all(this.started);
    return this.slots.filter((slot) => slot.worker !== null).length;
  }

  /**
   * Maps `task` over `ranges` of `filePath` (with `arg`, sent once to each worker) on this
   * thread and the workers, and calls `onResult(result, index)` on this thread in range order,
   * each as soon as every earlier range's result was handed over. Resolves when all were.
   * @throws whatever `task` (in a worker: an Error with its message) or `onResult` throws.
   */
  async map(task: RangeTask<A, R>, filePath: string, ranges: readonly LineRange[], arg: A, onResult: (result: R, index: number) => void): Promise<void> {
    if (this.pass !== null) throw new Error("RangePool.map: one pass at a time");
    const pass: Pass<A, R> = {
      id: this.passes++,
      filePath,
      ranges,
      arg,
      onResult,
      queue: ranges.map((_, i) => i),
      results: new Array<R | undefined>(ranges.length),
      done: new Array<boolean>(ranges.length).fill(false),
      next: 0,
      failure: null,
      wake: null,
    };
    this.pass = pass;
    try {
      this.pump();
      while (pass.next < ranges.length) {
        if (pass.failure) throw pass.failure;
        const i = this.takeHere(pass);
        if (i === undefined) {
          await new Promise<void>((resolve) => (pass.wake = resolve));
          pass.wake = null;
          continue;
        }
        const result = await task(filePath, ranges[i]!, arg);
        this.settle(pass, i, result);
        // A turn of the event loop between ranges: a task that reads synchronously never yields
        // one, and the workers' answers (and their next ranges) wait for it.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      if (pass.failure) throw pass.failure;
    } finally {
      this.pass = null;
    }
  }

  /**
   * The range this thread maps next, or undefined to wait (see the constructor's
   * `workersOnly`). With `workersOnly`: every range when all workers were lost; else one only
   * while a worker is starting and the pass has more than one range (a server's main thread
   * never maps a whole file that came as one range); while all wait for a process slot, the
   * pass waits too (the other pass holding the slots ends first).
   */
  private takeHere(pass: Pass<A, R>): number | undefined {
    if (!this.options.workersOnly || this.slots.every((slot) => slot.lost)) return pass.queue.shift();
    const starting = this.slots.some((slot) => slot.worker === null && !slot.waiting && !slot.lost);
    return starting && pass.ranges.length > 1 && !this.options.bigRanges ? pass.queue.shift() : undefined;
  }

  /** Terminates the workers (their ranges are all answered once {@link map} resolved) and gives their process slots back. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      this.slots.map(async (slot) => {
        await slot.worker?.terminate().catch(() => undefined);
        // A slot still waiting or starting gives itself back when it gets there.
        if (slot.worker !== null || slot.lost) slot.release();
      }),
    );
  }

  /** Stores range `i`'s result and hands over every result now in order. */
  private settle(pass: Pass<A, R>, i: number, result: R): void {
    pass.results[i] = result;
    pass.done[i] = true;
    while (pass.next < pass.ranges.length && pass.done[pass.next]) {
      const k = pass.next++;
      const r = pass.results[k] as R;
      pass.results[k] = undefined;
      try {
        pass.onResult(r, k);
      } catch (error) {
        pass.failure ??= error instanceof Error ? error : new Error(String(error));
        pass.next = pass.ranges.length;
      }
    }
  }

  private answer(slot: Slot, answer: Answer<R>): void {
    slot.inflight.delete(answer.id);
    const pass = this.pass;
    if (pass !== null && slot.pass === pass.id && !pass.failure) {
      if (answer.ok) this.settle(pass, answer.id, answer.result);
      else pass.failure = new Error(answer.error);
    }
    this.pump();
    pass?.wake?.();
  }

  private lose(slot: Slot, error: unknown): void {
    if (slot.lost || this.closed) return;
    slot.lost = true;
    slot.worker = null;
    slot.release();
    if (!fallbackReported) {
      fallbackReported = true;
      console.warn(`casefile: worker threads unavailable, reading in one thread (${error instanceof Error ? error.message : String(error)})`);
    }
    const pass = this.pass;
    if (pass !== null && slot.pass === pass.id) {
      pass.queue.push(...slot.inflight);
      pass.queue.sort((a, b) => a - b);
    }
    slot.inflight.clear();
    // The ranges it held go to the workers left (one may be idle: no answer would pump them).
    this.pump();
    pass?.wake?.();
  }

  /** Gives every live worker ranges from the queue's front, up to {@link DEPTH} (or the pool's `depth`) each. */
  private pump(): void {
    const pass = this.pass;
    if (pass === null || pass.failure) return;
    for (const slot of this.slots) {
      const worker = slot.worker;
      if (worker === null || slot.lost) continue;
      if (slot.pass !== pass.id) {
        if (slot.inflight.size > 0) continue;
        slot.pass = pass.id;
        worker.postMessage({ kind: "arg", arg: pass.arg } satisfies Message<A>);
      }
      while (slot.inflight.size < (this.options.depth ?? DEPTH) && pass.queue.length > 0) {
        const id = pass.queue.shift()!;
        slot.inflight.add(id);
        worker.postMessage({ kind: "job", id, filePath: pass.filePath, range: pass.ranges[id]! } satisfies Message<A>);
      }
    }
  }
}

/**
 * Maps `task` over `ranges` of `filePath` (cut by the caller, e.g. {@link splitFileRanges}) and
 * calls `onResult(result, index)` in range order: one range in this thread, except a lone big one
 * in a process that keeps its main thread free (lib/jsonl/workers' `loneRangeOffMain`); more on
 * a {@link RangePool} of one worker per range after the first (per range, none mapped in this
 * thread unless no worker starts, in such a process),
 * whose workers come from `spawn()` (a module calling {@link serveRangeStream} with `task`). A
 * result never depends on workers starting.
 * @throws whatever `task` or `onResult` throws (the pool is closed first).
 */
export async function mapRangesOnPool<A, R>(spawn: () => Worker | Promise<Worker>, task: RangeTask<A, R>, filePath: string, ranges: readonly LineRange[], arg: A, onResult: (result: R, index: number) => void): Promise<void> {
  if (ranges.length === 0) return;
  const lone = ranges.length === 1 ? ranges[0]! : null;
  if (lone !== null && !loneRangeOffMain(lone.endByte - lone.startByte)) {
    onResult(await task(filePath, lone, arg), 0);
    return;
  }
  // A lone range gets here only in such a process: its worker maps it.
  const offMain = workersOnly();
  const pool = new RangePool<A, R>(spawn, offMain ? ranges.length : ranges.length - 1, { workersOnly: offMain, bigRanges: true });
  try {
    await pool.map(task, filePath, ranges, arg, onResult);
  } finally {
    await pool.close();
  }
}
