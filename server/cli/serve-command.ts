import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { AppError } from "@/lib/errors";
import { bundledEntry } from "@/lib/jsonl/workers";
import { bindingRefusal, isLoopbackHost } from "@/server/serve/dashboard-server";

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** `npm start`'s process (plain Node, no tsx): prepares the start in a child process that exits, then becomes the dashboard server. */
export const START_SCRIPT = path.join(APP_DIR, "scripts", "start.mjs");

/** The quiet `next build` of `npm ci` (npm's `prepare`), `npm start` and `casefile serve` when no build exists. */
export const BUILD_SCRIPT = path.join(APP_DIR, "scripts", "build-app.mjs");

/**
 * How `casefile serve` listens (issue 39): `database` makes it a team server (every request needs
 * a token); `host` is the address it binds (127.0.0.1 by default); beyond loopback it needs
 * `tlsCert` + `tlsKey` (HTTPS) or `insecureHttp`.
 */
export type ServeOptions = { database?: string; host?: string; tlsCert?: string; tlsKey?: string; insecureHttp?: boolean };

/**
 * Checks `options` before anything is built or started.
 * @throws AppError invalid_input for half a TLS pair or a host {@link bindingRefusal} refuses.
 */
export function checkServeOptions(options: ServeOptions): void {
  if (Boolean(options.tlsCert) !== Boolean(options.tlsKey)) throw new AppError("invalid_input", "--tls-cert and --tls-key go together", { hint: "give both PEM files, or neither" });
  const refusal = bindingRefusal(options.host ?? "127.0.0.1", { team: Boolean(options.database), tls: Boolean(options.tlsCert), insecureHttp: options.insecureHttp ?? false });
  if (refusal) throw new AppError("invalid_input", refusal, { hint: "docs/team.md shows a team server's set-up" });
}

/**
 * `casefile serve`: serves the dashboard for a workspace on 127.0.0.1:<port> (or `options.host`),
 * building the app first when no production build exists; with `options.database`, as a team
 * server on that PostgreSQL database. Resolves with the server's exit code.
 * @throws AppError invalid_input from {@link checkServeOptions}, or when a team server would be served by `next start`.
 */
export async function runServe(workspace: string, port: number, options: ServeOptions = {}): Promise<number> {
  checkServeOptions(options);
  const built = await buildIfMissing();
  if (built !== 0) return built;
  // A team server's workspace is filled by pushes: until the first, it is an empty one, so every page answers from the start.
  if (options.database) {
    const { createCoreContext, stderrLogger } = await import("@/lib/context");
    const { ensurePreparedWorkspace } = await import("@/lib/workspace/sync");
    await ensurePreparedWorkspace(createCoreContext(workspace, { log: stderrLogger }));
  }
  const launch = await serverLaunch(workspace, port, process.env, options);
  await stopBundler();
  const host = options.host ?? "127.0.0.1";
  const shown = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const team = options.database ? `, team server; tokens: casefile token create` : "";
  process.stderr.write(`Casefile dashboard: ${options.tlsCert ? "https" : "http"}://${shown}:${port}  (workspace ${workspace}${team})\n`);
  return run(launch.script, launch.args, launch.env);
}

/**
 * `casefile start`: runs {@link START_SCRIPT}, `npm start`'s process, with this workspace and
 * port, in {@link dashboardServerEnv} (what package.json's `start` sets in its shell line), so
 * it becomes the server itself (server/cli/start-command has what happens first). Resolves with its exit code.
 */
export function runStart(workspace: string, port: number): Promise<number> {
  return run(START_SCRIPT, ["--workspace", workspace, "--port", String(port)], dashboardServerEnv(process.env, workspace));
}

/**
 * Builds the app with {@link BUILD_SCRIPT} when it has no production build (`.next/BUILD_ID`);
 * `npm ci` built it already, unless CI or CASEFILE_SKIP_BUILD=1 said not to. Resolves with the
 * build's exit code (0 when there was nothing to build).
 */
export async function buildIfMissing(): Promise<number> {
  if (existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) return 0;
  return run(BUILD_SCRIPT, [], process.env);
}

/** How the dashboard server process is started: a script run by plain Node, its arguments, its whole environment. */
export type ServerLaunch = { script: string; args: string[]; env: NodeJS.ProcessEnv };

/**
 * The dashboard server process for `workspace` on `port`: {@link serverCommand}'s script and
 * arguments, with {@link dashboardServerEnv}, the port the Host check accepts
 * (lib/security/local-request) and NODE_ENV=production (as `next start` sets it); with
 * `options.database`, CASEFILE_DATABASE_URL (a team server; one `base` has makes a team server too).
 * @throws AppError internal when a team server could only be served by `next start` (no token checks there).
 */
export async function serverLaunch(workspace: string, port: number, base: NodeJS.ProcessEnv = process.env, options: ServeOptions = {}): Promise<ServerLaunch> {
  const [script, args] = await serverCommand(port, options);
  const env: NodeJS.ProcessEnv = { ...dashboardServerEnv(base, workspace), CASEFILE_PORT: String(port), NODE_ENV: "production" };
  if (options.database) env.CASEFILE_DATABASE_URL = options.database;
  // The server sets it itself once it checks tokens (server/serve/start-dashboard).
  delete env.CASEFILE_TEAM_SERVER;
  if (env.CASEFILE_DATABASE_URL && !script.endsWith(".mjs")) throw new AppError("internal", "a team server needs Casefile's own dashboard server (it checks the tokens), which could not be bundled", { hint: "reinstall the dependencies (npm ci): esbuild is missing" });
  return { script, args, env };
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
export async function serverCommand(port: number, options: ServeOptions = {}): Promise<[script: string, args: string[]]> {
  const bundle = await bundledEntry(DASHBOARD_SERVER_ENTRY);
  const host = options.host ?? "127.0.0.1";
  const tls = options.tlsCert && options.tlsKey ? ["--tls-cert", path.resolve(options.tlsCert), "--tls-key", path.resolve(options.tlsKey)] : [];
  if (bundle !== null) return [bundle, ["--dir", APP_DIR, "--hostname", host, "--port", String(port), ...tls, ...(options.insecureHttp ? ["--insecure-http"] : [])]];
  if (!isLoopbackHost(host)) throw new AppError("internal", "serving beyond loopback needs Casefile's own dashboard server, which could not be bundled", { hint: "reinstall the dependencies (npm ci): esbuild is missing" });
  process.stderr.write("warning: the dashboard server could not be bundled; serving with `next start` (no request timeouts)\n");
  return [nextBin(), ["start", "--hostname", "127.0.0.1", "--port", String(port)]];
}

/**
 * The worker entries of lib/ (`*-worker.ts`; lib/testing's are the tests' own). The dashboard
 * server starts each from its bundle (lib/jsonl/workers' startWorker), which it would otherwise
 * make on first use, keeping an esbuild service process alive beside it for the rest of its life.
 */
export function workerEntries(root = path.join(APP_DIR, "lib")): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith("-worker.ts") && !file.startsWith(`testing${path.sep}`) && !file.includes("__fixtures__"))
    .map((file) => path.join(root, file))
    .sort();
}

/**
 * Bundles every {@link workerEntries} entry the server may start, so it finds them made (a few
 * stats each when they are; about a second in all when they are not).
 */
export async function bundleWorkers(): Promise<void> {
  await Promise.all(workerEntries().map((entry) => bundledEntry(entry)));
}

/**
 * Ends this process's esbuild service, if bundling started one: esbuild keeps a service process
 * for its whole life otherwise, idle beside the server (issue 36 item 2). A later bundle starts a new one.
 */
export async function stopBundler(): Promise<void> {
  const { stop } = await import("esbuild");
  await stop();
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
    child.on("exit", (code) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code ?? 1);
    });
  });
}
