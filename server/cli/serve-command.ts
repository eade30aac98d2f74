import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { closeCatalog } from "@/lib/catalog/catalog";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { generateDemoCodexSources, seedDemoWork } from "@/lib/demo/demo-extras";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { bundledEntry } from "@/lib/jsonl/workers";
import { metadataPath } from "@/lib/fs/workspace-layout";
import { callTool } from "@/lib/tools/registry";
import { readSources, type WorkspaceSources } from "@/lib/workspace/sources";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { defaultClaudeRoots, defaultCodexRoots, renderSummary } from "@/server/cli/prepare-command";
import { consoleProgress } from "@/server/watch/console-progress";

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * `casefile serve`: serves the dashboard for a workspace on 127.0.0.1:<port>, building the app
 * first when no production build exists. Resolves with the server's exit code.
 */
export async function runServe(workspace: string, port: number): Promise<number> {
  // The Host check accepts this port only (lib/security/local-request).
  const env = { ...dashboardServerEnv(process.env, workspace), CASEFILE_PORT: String(port) };
  if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) {
    process.stderr.write("building the dashboard (first run only)…\n");
    // Type checking is `npm test`'s job (tsc --noEmit): the first start only compiles (issue 29).
    const built = await run(nextBin(), ["build"], { ...env, CASEFILE_SKIP_TYPECHECK: "1" });
    if (built !== 0) return built;
  }
  process.stderr.write(`Casefile dashboard: http://127.0.0.1:${port}  (workspace ${workspace})\n`);
  const [script, args] = await serverCommand(port);
  return run(script, args, { ...env, NODE_ENV: "production" });
}

/** The dashboard server's entry: Next behind Casefile's own http.Server (issue 35, item 8). */
export const DASHBOARD_SERVER_ENTRY = path.join(APP_DIR, "server", "serve", "start-dashboard.ts");

/**
 * The script and arguments of the dashboard server process for `port`: the bundle of
 * {@link DASHBOARD_SERVER_ENTRY} (built once, then reused until its sources change), which
 * bounds how long a request may take to arrive and refuses absolute-form targets, repeated Host
 * headers and over-limit Content-Lengths before Next sees them; `next start` only when the entry
 * cannot be bundled (no esbuild), with a warning.
 */
export async function serverCommand(port: number): Promise<[script: string, args: string[]]> {
  const bundle = await bundledEntry(DASHBOARD_SERVER_ENTRY);
  if (bundle !== null) return [bundle, ["--dir", APP_DIR, "--hostname", "127.0.0.1", "--port", String(port)]];
  process.stderr.write("warning: the dashboard server could not be bundled; serving with `next start` (no request timeouts)\n");
  return [nextBin(), ["start", "--hostname", "127.0.0.1", "--port", String(port)]];
}

/**
 * glibc's malloc threshold for the dashboard server: blocks of 128 KiB and more get their own
 * mapping, returned to the system when freed. By default glibc raises that threshold after
 * each such block is freed, so the range workers' large buffers came from per-thread arenas that
 * kept their pages after the workers ended. glibc reads it at process start, so it is set in the
 * environment of the process that starts the server.
 */
export const MALLOC_MMAP_THRESHOLD = "131072";

/**
 * Semi-space of the dashboard server's young generation, in MB (V8's `--max-semi-space-size`;
 * the young generation is three of them, 12 MB, what its range workers get too: WORKER_LIMITS in
 * lib/jsonl/workers). V8's default (16 MB) raised the server's peak RSS with no gain in window latency.
 */
export const SERVER_SEMI_SPACE_MB = 4;

/**
 * The environment the dashboard server gets from `casefile serve` / `casefile start`: `base` with the
 * workspace and, unless `base` already sets them, {@link MALLOC_MMAP_THRESHOLD} and
 * {@link SERVER_SEMI_SPACE_MB} (in NODE_OPTIONS, after the caller's own options). The
 * real-shaped bench starts its server with it too, so it measures the server as users start it.
 */
export function dashboardServerEnv(base: NodeJS.ProcessEnv, workspace: string): NodeJS.ProcessEnv {
  const nodeOptions = base.NODE_OPTIONS ?? "";
  return {
    ...base,
    MALLOC_MMAP_THRESHOLD_: base.MALLOC_MMAP_THRESHOLD_ ?? MALLOC_MMAP_THRESHOLD,
    NODE_OPTIONS: nodeOptions.includes("--max-semi-space-size") ? nodeOptions : `${nodeOptions} --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`.trim(),
    CASEFILE_WORKSPACE: workspace,
  };
}

/**
 * `casefile start` (`npm start`): syncs the workspace from its recorded sources on every start
 * (issue 12, item 1: new files indexed, grown files extended, unchanged files not read), then
 * serves it; the server keeps syncing while it runs. A workspace without recorded sources gets
 * `~/.claude/projects` and `~/.codex/sessions` / `~/.codex/archived_sessions` (`$CODEX_HOME`),
 * those that exist, or, when none does, a generated demo transcript set. A demo workspace is
 * replaced (not mixed) as soon as real sources exist. A day-window workspace without recorded
 * sources (prompt-diary's) is served as it is.
 */
export async function runStart(workspace: string, port: number): Promise<number> {
  process.stderr.write(await syncOnStart(workspace));
  return runServe(workspace, port);
}

/**
 * The start-up half of {@link runStart}: decides the sources (recorded, the user's defaults, or
 * the demo) and syncs the workspace from them. Returns the report printed before serving.
 * @throws AppError whatever the sync throws.
 */
export async function syncOnStart(workspace: string): Promise<string> {
  const decision = await startDecision(workspace);
  if (decision.kind === "serve-only") return `${workspace} records no sources and has a date window: serving it as it is (casefile sources add … to sync it)\n`;
  if (decision.sources.demo) {
    await generateDemoSources(demoDir());
    await generateDemoCodexSources(demoCodexDir());
  }
  const ctx = createCoreContext(workspace, { log: stderrLogger });
  // The pipeline's sync and the catalog's rows, as `casefile prepare` writes them: the server's
  // first pages read a catalog that knows every session (a heavy user's first start would
  // otherwise wait on it). The warm-up is the server's, in the background. Stats only when nothing moved.
  const pipeline = new WorkspacePipeline(ctx, { warm: "skip", retryMs: 0, onProgress: consoleProgress(process.stderr) });
  const summary = (await pipeline.request({ sources: decision.sources, force: decision.force })).sync!;
  closeCatalog(ctx);
  // The demo shows a chain and a synthesis item too (written once; later starts find them there).
  if (decision.sources.demo) await seedDemoWork(ctx, callTool);
  return `${decision.note ? `${decision.note}\n` : ""}${renderSummary(summary)}${summary.files_read} source file(s) read; sources: casefile sources --workspace ${workspace}\n`;
}

/** Where `npm start` writes the demo transcripts when the machine has no real ones. */
const demoDir = () => path.join(os.homedir(), ".casefile", "demo-sources");
const demoCodexDir = () => path.join(os.homedir(), ".casefile", "demo-sources-codex");

type StartDecision = { kind: "serve-only" } | { kind: "sync"; sources: WorkspaceSources; force: boolean; note?: string };

async function startDecision(workspace: string): Promise<StartDecision> {
  const real: WorkspaceSources = { claude: defaultClaudeRoots(), codex: defaultCodexRoots(), demo: false };
  const hasReal = real.claude.length + real.codex.length > 0;
  const demo: WorkspaceSources = { claude: [demoDir()], codex: [demoCodexDir()], demo: true };
  const recorded = await readSources(workspace);
  if (recorded?.demo) {
    return hasReal
      ? { kind: "sync", sources: real, force: true, note: "real sessions found: replacing the demo workspace with them" }
      : { kind: "sync", sources: demo, force: false, note: `no ~/.claude/projects or ~/.codex/sessions found: showing the demo transcripts in ${demoDir()}` };
  }
  if (recorded) return { kind: "sync", sources: recorded, force: false };
  if (existsSync(metadataPath(workspace)) && !(await isAllTime(workspace))) return { kind: "serve-only" };
  if (hasReal) return { kind: "sync", sources: real, force: false };
  return { kind: "sync", sources: demo, force: false, note: `no ~/.claude/projects or ~/.codex/sessions found: preparing the demo transcripts in ${demoDir()}` };
}

async function isAllTime(workspace: string): Promise<boolean> {
  try {
    const meta = JSON.parse(await readFile(metadataPath(workspace), "utf8")) as { report_window_utc?: { start?: unknown } };
    return meta.report_window_utc?.start === null;
  } catch {
    return false;
  }
}

function nextBin(): string {
  return path.join(APP_DIR, "node_modules", "next", "dist", "bin", "next");
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: APP_DIR, env, stdio: "inherit" });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.once("SIGINT", forward);
    process.once("SIGTERM", forward);
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
