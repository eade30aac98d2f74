#!/usr/bin/env node
/**
 * `npm start` / `casefile start [--workspace DIR] [--port N]`: becomes the dashboard server, with
 * nothing else left running beside it but npm (issue 36 item 2: no tsx, no esbuild service, no
 * sync process holding its memory for the server's whole life).
 *
 * 1. server/cli/start-prepare.ts, in a child process run with tsx, syncs the workspace from its
 *    sources (server/cli/start-command), builds the app when there is no build, makes the
 *    server's bundles, sends back how to start the server, and exits, its memory with it;
 * 2. this process then runs the dashboard server's bundle itself (it keeps the workspace synced
 *    while it runs), when it was started as the server must be: glibc's MALLOC_MMAP_THRESHOLD_
 *    and V8's --max-semi-space-size (in NODE_OPTIONS) set, as package.json's `start` sets them
 *    (server/cli/serve-command's dashboardServerEnv has why). Otherwise it starts the server as
 *    a child process with that environment and waits for it, passing stop signals on; its exit
 *    code is ours.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SIGNALS = ["SIGINT", "SIGTERM"];

/** The child running now: a signal sent to this process alone (not to the terminal's whole group) is passed on to it. */
let current = null;
let stopped = false;
const forward = (signal) => {
  stopped = true;
  current?.kill(signal);
};
for (const signal of SIGNALS) process.on(signal, forward);

function exited(child) {
  current = child;
  return new Promise((resolve) => {
    child.on("error", (error) => {
      process.stderr.write(`casefile start: ${error.message}\n`);
      resolve(1);
    });
    child.on("exit", (code, signal) => resolve(code ?? 128 + (constants.signals[signal] ?? 0)));
  });
}

const SEMI_SPACE = /(^|\s)--max-semi-space-size[= ]\S+/g;

/**
 * Whether this process has the server's settings that only count at process start: glibc's
 * MALLOC_MMAP_THRESHOLD_ and a young generation size in NODE_OPTIONS.
 */
function startedAsServer(env) {
  return process.env.MALLOC_MMAP_THRESHOLD_ === env.MALLOC_MMAP_THRESHOLD_ && /--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? "");
}

// The start-up process gets V8's default young generation: the server's small one is meant for a
// long-lived server, not for one-shot work (a full sync, the build).
const prepareEnv = { ...process.env, NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(SEMI_SPACE, "").trim() };
if (prepareEnv.NODE_OPTIONS === "") delete prepareEnv.NODE_OPTIONS;
const prepare = spawn(process.execPath, ["--import", "tsx", path.join(root, "server", "cli", "start-prepare.ts"), ...process.argv.slice(2)], {
  cwd: root,
  env: prepareEnv,
  stdio: ["inherit", "inherit", "inherit", "ipc"],
});
let launch = null;
prepare.on("message", (message) => (launch = message));
const prepared = await exited(prepare);
current = null;
if (prepared !== 0 || launch === null || stopped) {
  process.exitCode = prepared || 1;
} else {
  process.stderr.write(`Casefile dashboard: http://127.0.0.1:${launch.env.CASEFILE_PORT}  (workspace ${launch.env.CASEFILE_WORKSPACE})\n`);
  if (launch.script.endsWith(".mjs") && startedAsServer(launch.env)) {
    // The server's own handlers take over (a stop signal ends it with status 0, as `next start`).
    for (const signal of SIGNALS) process.off(signal, forward);
    // NODE_OPTIONS as this process was started with (the user's young generation size, if set).
    Object.assign(process.env, launch.env, { NODE_OPTIONS: process.env.NODE_OPTIONS });
    process.argv = [process.argv[0], launch.script, ...launch.args];
    await import(pathToFileURL(launch.script).href);
  } else {
    process.exitCode = await exited(spawn(process.execPath, [launch.script, ...launch.args], { cwd: root, env: launch.env, stdio: "inherit" }));
  }
}
