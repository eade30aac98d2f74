/** Test worker scripts bundled once and run with plain node. */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { build } from "esbuild";

/**
 * Bundles a TypeScript worker script (a test fixture) into one ESM file run with plain `node`, so
 * the concurrency tests' hundreds of spawns skip tsx's start-up. Returns the bundle's path in a
 * fresh temp directory.
 */
export async function bundleWorker(entry: string): Promise<string> {
  const out = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-worker-"));
  const outfile = path.join(out, `${path.basename(entry, ".ts")}.mjs`);
  await build({
    entryPoints: [path.resolve(entry)],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    tsconfig: path.resolve("tsconfig.json"),
    logLevel: "error",
    // CJS dependencies (secretlint's `debug`) require Node built-ins at run time.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

/** A spawned worker process with its collected output; `closed` settles once its output is all read. */
export type WorkerRun = { child: ChildProcess; stdout: () => string; stderr: () => string; exit: Promise<number | null>; closed: Promise<void> };

/** Starts a bundled worker with plain `node`, collecting stdout and stderr. */
export function startWorker(worker: string, args: string[]): WorkerRun {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return { child, stdout: () => stdout, stderr: () => stderr, exit, closed };
}

/**
 * Waits until a worker's stdout contains `marker` (polling every 2 ms), so a test acts on what
 * the worker has done rather than on wall-clock guesses that a loaded machine breaks.
 * Throws at once when the worker exits without printing it, else after `timeoutMs` (default
 * 120,000 ms: a generous bound for a loaded CI runner, never a measure of speed), with its stderr.
 */
export async function untilOutput(run: WorkerRun, marker: string, timeoutMs = 120_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !run.stdout().includes(marker); await new Promise((r) => setTimeout(r, 2))) {
    if (run.child.exitCode !== null || run.child.signalCode !== null) {
      await run.closed; // its last output may still be in the pipe
      if (run.stdout().includes(marker)) return;
      throw new Error(`worker exited (${run.child.exitCode ?? run.child.signalCode}) without printing ${JSON.stringify(marker)}: ${run.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`worker never printed ${JSON.stringify(marker)} within ${timeoutMs} ms: ${run.stderr()}`);
  }
}
