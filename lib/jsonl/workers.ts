/** Worker threads of range-mapped passes: range counts, bundled worker entries, shared slots, background priority. */
/**
 * Worker threads of range-mapped passes: how many ranges a file gets ({@link rangeCount}), how a
 * worker entry starts (bundled, {@link startWorker}), the process's shared worker slots and
 * background priority. The pool that maps the ranges is lib/jsonl/range-pool.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import { availableParallelism, getPriority, setPriority } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread, Worker, workerData, type WorkerOptions } from "node:worker_threads";

import { processWide } from "@/lib/cache/process-wide";
import { writeFileAtomic } from "@/lib/fs/atomic-write";

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
 * How many ranges to split a file of `bytes` into: 1 below `minBytes` (default
 * {@link PARALLEL_MIN_BYTES}; a caller whose per-range results cost more to hand over passes a
 * larger one), else the machine's parallelism, at most 4 (2 on the reference machine).
 * `CASEFILE_WORKERS=1` (or 0) turns workers off; another number sets the count for files of at
 * least the minimum, which `CASEFILE_WORKERS_MIN_BYTES` replaces when set (tests force workers on
 * small files that way; a session's many small subagent files must never each start workers).
 */
export function rangeCount(bytes: number, minBytes = PARALLEL_MIN_BYTES): number {
  if (bytes < parallelMinBytes(minBytes)) return 1;
  const env = Number(process.env.CASEFILE_WORKERS);
  if (Number.isInteger(env) && env >= 0 && (process.env.CASEFILE_WORKERS ?? "") !== "") return Math.max(1, env);
  return Math.max(1, Math.min(4, availableParallelism()));
}

/** `fallback` ({@link PARALLEL_MIN_BYTES} unless given), or `CASEFILE_WORKERS_MIN_BYTES` when set to a number. */
function parallelMinBytes(fallback = PARALLEL_MIN_BYTES): number {
  const minimum = Number(process.env.CASEFILE_WORKERS_MIN_BYTES || fallback);
  return Number.isFinite(minimum) ? minimum : fallback;
}

/**
 * Starts a worker on the entry module `relative` to `base` (the caller's `import.meta.url`), e.g.
 * `startWorker(import.meta.url, "./scan-worker.ts")`. The URL is built here, from variables, on
 * purpose: Next.js rewrites a literal `new URL("./x.ts", import.meta.url)` into a copied asset,
 * while a server module's own `import.meta.url` stays its source path, so the entry is loaded
 * from the checkout like everywhere else.
 * TypeScript source is bundled once with esbuild into one ESM file (cached in node_modules/.cache
 * while its inputs are unchanged; see {@link bundledEntry}) and started with plain Node, sparing
 * every worker tsx's start-up. If the bundle cannot be made, tsx's loader is registered inside
 * the worker before the entry is
 * imported (Node 20 applies an inherited `--import` loader too late for a worker's own entry). A
 * `.js`/`.mjs` entry is started directly. `options` go to the Worker constructor (e.g. `resourceLimits`);
 * a worker started inside {@link inBackground} gets `workerData` saying so ({@link yieldToForeground}).
 * @throws the Worker constructor's error (a range pool then maps the range itself).
 */
export async function startWorker(base: string, relative: string, options: WorkerOptions = {}): Promise<Worker> {
  const entry = new URL(relative, base);
  // A server's workers get bounded heaps unless the caller sets its own (WORKER_LIMITS); a
  // worker started by background work is told so (it lowers its priority, yieldToForeground).
  const opts: WorkerOptions = { ...(workersOnly() ? { resourceLimits: WORKER_LIMITS } : {}), ...(background.getStore() ? { workerData: BACKGROUND_WORKER } : {}), ...options };
  if (!/\.[cm]?ts$/.test(entry.pathname)) return new Worker(entry, opts);
  const bundle = await bundledEntry(fileURLToPath(entry));
  if (bundle !== null) return new Worker(bundle, { execArgv: withoutTsxLoader(process.execArgv), ...opts });
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { ...opts, eval: true });
}

/**
 * `execArgv` less tsx's loader flags (`--import tsx`, `--require …/tsx/…`, `--loader …`): a
 * bundled worker is plain JavaScript, and would otherwise boot the loader of a process started
 * with tsx (`npm start`, the CLI, benches).
 */
export function withoutTsxLoader(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const flag = execArgv[i]!;
    const eq = flag.match(/^(--(?:import|require|loader|experimental-loader))=(.*)$/);
    if (eq !== null) {
      if (!/tsx/.test(eq[2]!)) out.push(flag);
    } else if (/^(--(?:import|require|loader|experimental-loader)|-r)$/.test(flag) && i + 1 < execArgv.length) {
      if (!/tsx/.test(execArgv[i + 1]!)) out.push(flag, execArgv[i + 1]!);
      i++;
    } else {
      out.push(flag);
    }
  }
  return out;
}

/**
 * Heap limits of every range worker in a server process ({@link WORKERS_ONLY_ENV}; issue 13,
 * server RSS): a range task keeps little alive, so a small young generation only collects its
 * garbage sooner. A worker that still runs out of memory dies before answering, and its pool
 * (lib/jsonl/range-pool) maps its ranges in the calling thread. A one-shot `prepare` keeps V8's
 * defaults (docs/performance.md has the figures).
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 384 } as const;

/** Bundles made by this process, by entry path and name. */
const bundles = new Map<string, Promise<string | null>>();

/**
 * The path of a one-file ESM bundle of the TypeScript module `entry` (its `@/` imports resolved
 * through tsconfig.json, its packages imported from node_modules), or null when esbuild is
 * unavailable or fails. Bundles live in `node_modules/.cache/casefile-workers/` of the checkout,
 * named by the entry path (or, when `name` is given, `<name>/<entry's name>.mjs` beside the chunks
 * its lazy imports became: bin/casefile.mjs finds the CLI's bundle so, without loading this
 * module), beside a list of their inputs with size and mtime
 * (`<name>.inputs.json`, `{inputs: [{file, size, mtimeMs}]}`): a later process reuses a bundle
 * whose inputs are all unchanged, and rebuilds it otherwise. Files are written atomically, so
 * concurrent processes never read half a bundle.
 */
export function bundledEntry(entry: string, name?: string): Promise<string | null> {
  const key = `${entry}\0${name ?? ""}`;
  let pending = bundles.get(key);
  if (pending === undefined) {
    pending = makeBundle(entry, name).catch(() => null);
    bundles.set(key, pending);
  }
  return pending;
}

type BundleInputs = { inputs: { file: string; size: number; mtimeMs: number }[] };

/** Changes when bundles are made differently, so an older cached bundle is not reused. */
const BUNDLE_FORMAT = 2;

/**
 * Keeps each bundled module's `import.meta.url` its source file's URL, as in Next's server build:
 * a module that starts a worker of its own (`startWorker(import.meta.url, "./x.ts")`, a fill's
 * extracting threads) or reads a file beside it finds it in the checkout, not in the bundle's folder.
 */
const sourceImportMetaUrl = {
  name: "source-import-meta-url",
  setup(build: { onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<{ contents: string; loader: "ts" }>): void }) {
    // Spelled in parts so this file's own source holds no match; a template literal is valid code
    // and inside any string the name appears in (the banner above).
    const name = ["import", "meta", "url"].join(".");
    build.onLoad({ filter: /\.[cm]?ts$/ }, async (args) => {
      const text = await fs.readFile(args.path, "utf8");
      const url = "`" + pathToFileURL(args.path).href.replace(/[`\\$]/g, "\\$&") + "`";
      return { contents: text.replaceAll(name, url), loader: "ts" };
    });
  },
};

async function makeBundle(entry: string, fixedName: string | undefined): Promise<string | null> {
  // The check of a cached bundle is synchronous (a few stats): async, each step would wait for a
  // turn of an event loop the caller is often keeping busy, putting off the worker's start.
  const root = projectRoot(entry);
  if (root === null) return null;
  // Inside the checkout's node_modules, so the bundle's package imports resolve from there.
  const dir = path.join(root, "node_modules", ".cache", "casefile-workers");
  const base = path.basename(entry).replace(/\.[cm]?ts$/, "");
  const name = fixedName ?? `${base}-${createHash("sha256").update(`${BUNDLE_FORMAT}:${entry}`).digest("hex").slice(0, 16)}`;
  // A named bundle (a CLI) is split: what the entry imports lazily stays lazy, packages included
  // (one file hoisted every package any command imports into every command's start-up).
  const split = fixedName !== undefined;
  const outfile = split ? path.join(dir, name, `${base}.mjs`) : path.join(dir, `${name}.mjs`);
  const listFile = path.join(dir, `${name}.inputs.json`);
  const listed = readListed(listFile);
  if (listed !== null && unchanged(listed) && existsSync(outfile)) return outfile;
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    metafile: true,
    ...(split ? { splitting: true, outdir: path.dirname(outfile), outExtension: { ".js": ".mjs" }, chunkNames: "chunks/[name]-[hash]" } : { outfile }),
    // The metafile's input paths are relative to this (read below against `root`), whatever the process's cwd.
    absWorkingDir: root,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "silent",
    // Dependencies are loaded from node_modules, not copied in; CJS ones get a `require`.
    packages: "external",
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    plugins: [sourceImportMetaUrl],
  });
  const code = result.outputFiles.find((f) => f.path === outfile)?.contents;
  if (code === undefined) return null;
  // Chunks are named by their content: one already there is the same (a running process may still load it, so none is removed).
  for (const chunk of result.outputFiles) {
    if (chunk.path === outfile || existsSync(chunk.path)) continue;
    await fs.mkdir(path.dirname(chunk.path), { recursive: true });
    await writeFileAtomic(chunk.path, chunk.contents);
  }
  const inputs = await Promise.all(Object.keys(result.metafile.inputs).map(async (file) => {
    const absolute = path.resolve(root, file);
    const stat = await fs.stat(absolute);
    return { file: absolute, size: stat.size, mtimeMs: stat.mtimeMs };
  }));
  await fs.mkdir(dir, { recursive: true });
  await writeFileAtomic(outfile, code);
  await writeFileAtomic(listFile, JSON.stringify({ inputs } satisfies BundleInputs));
  return outfile;
}

function readListed(listFile: string): BundleInputs | null {
  try {
    return JSON.parse(readFileSync(listFile, "utf8")) as BundleInputs;
  } catch {
    return null;
  }
}

function unchanged(listed: BundleInputs): boolean {
  return listed.inputs.every((input) => {
    const stat = statSync(input.file, { throwIfNoEntry: false });
    return stat !== undefined && stat.size === input.size && stat.mtimeMs === input.mtimeMs;
  });
}

/** The nearest folder above `file` holding a tsconfig.json, or null. */
function projectRoot(file: string): string | null {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "tsconfig.json"))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Set to `1` in a process whose main thread must stay free (the dashboard server sets it at
 * start, see `instrumentation.ts`): a range pool then maps a split file's ranges in workers (this
 * thread only while none has started), a lone big range too. A server's main thread answers
 * every request; a gigabyte scan running there (the first `session_overview` of a
 * session, issue 13) held the session page's first rows back by seconds, and left its garbage in
 * the long-lived main heap where a worker's heap is freed when the worker ends.
 */
export const WORKERS_ONLY_ENV = "CASEFILE_WORKERS_ONLY";

/** Whether this process keeps scans off its main thread ({@link WORKERS_ONLY_ENV} is `1`). */
export function workersOnly(): boolean {
  return process.env[WORKERS_ONLY_ENV] === "1";
}

/**
 * Whether a file of `bytes` read as one range (a pass that cannot split it) goes to a worker
 * all the same: in a {@link workersOnly} process, when it has at least {@link PARALLEL_MIN_BYTES}
 * (or `CASEFILE_WORKERS_MIN_BYTES`), so the main thread never holds a big file's pass.
 */
export function loneRangeOffMain(bytes: number): boolean {
  return workersOnly() && bytes >= parallelMinBytes();
}

/**
 * Nice value of the workers background work starts ({@link inBackground}: the project page's
 * risk analysis, the source watcher's sync) on Linux (`setpriority`; 0 is normal, 19 the
 * lowest). Such a pass, seconds of CPU on both cores for a gigabyte session, then takes the CPU
 * only when nothing else wants it: the server's main thread answering requests, a request's own
 * scans and the reader's browser come first (issue 13).
 */
export const BACKGROUND_WORKER_NICE = 10;

/** The `workerData` of a worker {@link startWorker} started for background work. */
const BACKGROUND_WORKER = { casefileBackground: true } as const;

/**
 * Called first by a worker entry (lib/jsonl/range-pool's `serveRangeStream`): in a worker started
 * for background work ({@link inBackground}) on Linux, lowers this thread's CPU priority to
 * {@link BACKGROUND_WORKER_NICE}. Linux keeps a nice value per thread (`setpriority(PRIO_PROCESS,
 * 0)` from a thread changes that thread only); elsewhere it would change the whole process, so
 * nothing is done there; a thread already at that nice value or lower priority is left as it is.
 * A refusal is ignored. Returns whether the priority was lowered.
 */
export function yieldToForeground(): boolean {
  const data = workerData as { casefileBackground?: unknown } | null | undefined;
  if (isMainThread || data?.casefileBackground !== true || process.platform !== "linux") return false;
  try {
    // Never raises it: a process started at a lower priority (a higher nice) keeps that.
    if (getPriority() >= BACKGROUND_WORKER_NICE) return false;
    setPriority(BACKGROUND_WORKER_NICE);
    return true;
  } catch {
    return false;
  }
}

/**
 * Most range workers alive at once in this process: `CASEFILE_WORKERS` when set to a positive
 * number, else the machine's parallelism (at most 4). Several passes can overlap in a server (a
 * page's cold `session_overview` scan and the project page's analysis each split a gigabyte
 * file): without a bound they ran four workers on two cores, each with its own V8 heap and
 * malloc arena, for no gain in speed (issue 13: server RSS). Later ranges wait for a slot.
 */
export function maxRunningWorkers(): number {
  const env = Number(process.env.CASEFILE_WORKERS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * The process's worker slots: how many are held, and who waits for one (a request's pass
 * first, then background work). Process-wide: Next's server loads this module once per bundle
 * layer, and a bound kept per copy would not bound the process.
 */
const slots = processWide("workers:slots", () => ({ running: 0, waiting: [] as (() => void)[], waitingBackground: [] as (() => void)[] }));

/** Set while work started by {@link inBackground} runs (its workers wait behind a request's). */
const background = processWide("workers:background", () => new AsyncLocalStorage<true>());

/**
 * Runs `work` as background work: a worker slot it waits for goes to any pass a request waits
 * for first (the project page's risk analysis of a gigabyte session must not hold the next
 * page's overview scan back, issue 13). Everything `work` starts, however deep, is background.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/**
 * Waits for one of the process's {@link maxRunningWorkers} worker slots and resolves with its
 * release, to call once the worker holding it has ended (calling it again does nothing). Every
 * range worker (lib/jsonl/range-pool's long-lived ones) takes one, so overlapping passes in a
 * server never run more workers than the bound between them (issue 13: server RSS). A freed slot goes to the first waiter, background
 * work ({@link inBackground}) after every other.
 */
export async function takeWorkerSlot(): Promise<() => void> {
  if (slots.running < maxRunningWorkers()) slots.running += 1;
  // Else the slot is handed over by a release: the count stays as it is.
  else await new Promise<void>((resolve) => (background.getStore() ? slots.waitingBackground : slots.waiting).push(resolve));
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const next = slots.waiting.shift() ?? slots.waitingBackground.shift();
    if (next) next();
    else slots.running -= 1;
  };
}
