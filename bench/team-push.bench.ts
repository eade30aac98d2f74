/**
 * `casefile push` at a team's scale (issue 39): `npx tsx bench/team-push.bench.ts`.
 * Builds MACHINES homes of SESSIONS Claude Code sessions each (~SESSION_BYTES, from real corpus
 * lines of ../shared/corpus, 100 sessions per project, each a fresh id), starts a team server in
 * this process (the dashboard server in team mode over the push handlers,
 * server/http/team-test-server) on loopback, and prints, for every machine's push (`casefile push`
 * as a user runs it, `bin/casefile.mjs`, a process per machine with its own HOME), against the
 * same bytes copied by `cp -r` (local, no network: the strictest yardstick) and by `rsync -a` to an
 * rsync daemon on 127.0.0.1 (the issue's "cp of the same bytes over loopback"; skipped with a
 * note when rsync is not installed: `apt-get install rsync`):
 * - one machine after the other: the total and each machine's wall time, CPU seconds (the
 *   pushes', their start-up's and the server's) and bytes sent;
 * - all machines at once (as ten machines push to one server): the wall time until all are done,
 *   against the ten rsyncs run at once;
 * - a re-push of one machine (bytes sent: 0);
 * - an incremental push of one grown session: the CLI's wall time (Node and tsx start-up
 *   included; heads of unchanged files from the machine's memo) and the push itself (pushOnce in
 *   this process, every head hashed; and as --watch makes it).
 * Every copy lands in a folder of its own (none is deleted before the last push: files made
 * within ~30 s of a large removal are slower to create), and a previous run's folder is removed
 * at least 40 s before anything is timed. Defaults are the issue's size (10 × 2,000 × 100 KB ≈ 2 GB);
 * env BENCH_MACHINES, BENCH_SESSIONS, BENCH_SESSION_BYTES, BENCH_DIR scale it. Deletes what it
 * made unless BENCH_KEEP=1.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import { register } from "node:module";
import net from "node:net";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import type { HeadCache } from "@/lib/team/push/push-client";

import { claudeCorpusTemplate } from "./corpus-template";

// The push handlers import "server-only" (Next resolves it; plain Node has no such package): an empty module here, as under Vitest.
register(`data:text/javascript,${encodeURIComponent("export async function resolve(s, c, next) { return s === 'server-only' ? { url: 'data:text/javascript,export {}', shortCircuit: true } : next(s, c); }")}`);

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const CORPUS = path.resolve(REPO, "../shared/corpus");
const MACHINES = Number(process.env.BENCH_MACHINES ?? 10);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2_000);
const SESSION_BYTES = Number(process.env.BENCH_SESSION_BYTES ?? 100_000);
const DIR = process.env.BENCH_DIR ?? "/work/.bench-team-push";
const PER_PROJECT = 100;
const BIN = path.join(REPO, "bin/casefile.mjs");

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const sec = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Machine `m`'s Claude projects root, written. */
async function buildHome(m: number, template: string): Promise<string> {
  const root = path.join(DIR, "homes", `m${m}`, ".claude", "projects");
  for (let s = 0; s < SESSIONS; s++) {
    const project = Math.floor(s / PER_PROJECT);
    const dir = path.join(root, `-home-m${m}-proj${project}`);
    if (s % PER_PROJECT === 0) await fs.mkdir(dir, { recursive: true });
    const sid = `7ea0${String(m).padStart(4, "0")}-0000-4000-8000-${String(s).padStart(12, "0")}`;
    await fs.writeFile(path.join(dir, `${sid}.jsonl`), template.replaceAll("__SID__", sid).replaceAll("__CWD__", `/home/m${m}/proj${project}`));
  }
  return root;
}

/** Runs a command under /usr/bin/time: its wall time, CPU seconds (user + system) and stdout. */
async function timed(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ wallMs: number; cpuS: number; stdout: string }> {
  const started = performance.now();
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
    const child = spawn("/usr/bin/time", ["-f", "CPU %U %S", command, ...args], { stdio: ["ignore", "pipe", "pipe"], env: env ?? process.env });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // "close", not "exit": the exit can come before the last of its output is read.
    child.once("close", (exit) => resolve({ stdout: out, stderr: err, code: exit }));
  });
  const cpu = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(stderr);
  if (code !== 0 || !cpu) throw new Error(`${command} ${args.slice(0, 3).join(" ")} failed (${code}): ${stderr.slice(-500)}`);
  return { wallMs: performance.now() - started, cpuS: Number(cpu[1]) + Number(cpu[2]), stdout };
}

/** A free loopback TCP port. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An rsync daemon on 127.0.0.1 writing into `dir` (module `dst`), or null when rsync is not installed. */
async function startRsyncDaemon(dir: string): Promise<{ url: string; stop(): void } | null> {
  try {
    execFileSync("rsync", ["--version"], { stdio: "ignore" });
  } catch {
    return null;
  }
  await fs.mkdir(dir, { recursive: true });
  const config = path.join(dir, "..", "rsyncd.conf");
  await fs.writeFile(config, `uid = ${process.getuid!()}\ngid = ${process.getgid!()}\nuse chroot = no\n[dst]\npath = ${dir}\nread only = no\n`);
  const port = await freePort();
  const daemon = spawn("rsync", ["--daemon", "--no-detach", `--config=${config}`, `--port=${port}`, "--address=127.0.0.1"], { stdio: "ignore" });
  process.once("exit", () => daemon.kill());
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => net.connect(port, "127.0.0.1").once("connect", function (this: net.Socket) { this.destroy(); resolve(true); }).once("error", () => resolve(false)));
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url: `rsync://127.0.0.1:${port}/dst`, stop: () => daemon.kill() };
}

async function main(): Promise<void> {
  const { startTeamTestServer } = await import("@/server/http/team-test-server");
  const { pushOnce } = await import("@/lib/team/push/push-client");
  const removed = existsSync(DIR);
  await fs.rm(DIR, { recursive: true, force: true });
  const removedAt = performance.now();
  const template = claudeCorpusTemplate(CORPUS, SESSION_BYTES);
  const built = performance.now();
  const roots: string[] = [];
  for (let m = 0; m < MACHINES; m++) roots.push(await buildHome(m, template));
  const bytes = Number(execFileSync("du", ["-sb", path.join(DIR, "homes")], { encoding: "utf8" }).split("\t")[0]);
  console.log(`built ${MACHINES} machines × ${SESSIONS} sessions (${mb(bytes)}) in ${sec(performance.now() - built)}`);
  const ratio = (ms: number, base: number) => `${(ms / base).toFixed(2)}×`;

  // A file made within ~30 s of a large removal costs ext4 a look-up of each inode freed meanwhile (bench/agents.bench.ts): nothing is timed before that passed.
  if (removed) await new Promise((resolve) => setTimeout(resolve, Math.max(0, 40_000 - (performance.now() - removedAt))));
  const rsync = await startRsyncDaemon(path.join(DIR, "rsync-dst"));
  if (!rsync) console.log("rsync is not installed (apt-get install rsync): the copy over loopback is skipped");
  const help = await timed(process.execPath, [BIN, "--help"]);
  console.log(`casefile --help (loads the tool registry for its list): ${sec(help.wallMs)}, CPU ${help.cpuS.toFixed(2)} s`);

  const authenticate = async (token: string) => (/^tok-m\d+$/.test(token) ? { token_id: token, machine: token.slice(4), role: "push" as const } : null);
  const server = await startTeamTestServer(path.join(DIR, "server-ws"), { authenticate });
  await fs.mkdir(path.join(DIR, "server-ws"), { recursive: true });
  // Each machine pushes from a process of its own (the CLI as users run it), served by this one, with its own home (its ~/.casefile/push-heads.json).
  const push = async (m: number, url = server.url, home = path.join(DIR, "homes", `m${m}`)) => {
    const run = await timed(process.execPath, [BIN, "push", "--server", url, "--token", `tok-m${m}`, "--claude", roots[m]!, "--json"], { ...process.env, HOME: home });
    return { ms: run.wallMs, cpuS: run.cpuS, summary: JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { sessions_sent: number; bytes_sent: number; errors: unknown[] } };
  };
  // The start-up of a push: the CLI pushing an empty root (Node, tsx, the push's modules, one manifest of no files).
  const empty = path.join(DIR, "empty-home", ".claude", "projects");
  await fs.mkdir(empty, { recursive: true });
  const startUp = await timed(process.execPath, [BIN, "push", "--server", server.url, "--token", "tok-m99", "--claude", empty, "--json"], { ...process.env, HOME: path.dirname(path.dirname(empty)) });
  console.log(`the push CLI's start-up (casefile push of an empty root): ${sec(startUp.wallMs)}, CPU ${startUp.cpuS.toFixed(2)} s`);

  // One machine after the other, each machine's copies timed right before its push: the file system's state (how fast it creates files) changes over a run, and each pair meets the same.
  let total = 0;
  let sent = 0;
  let clientCpu = 0;
  let serverS = 0;
  let cpMs = 0;
  let cpCpu = 0;
  let rsyncMs = 0;
  await fs.mkdir(path.join(DIR, "cp-copy"), { recursive: true });
  for (let m = 0; m < MACHINES; m++) {
    execFileSync("sync");
    const cp = await timed("cp", ["-r", path.join(DIR, "homes", `m${m}`), path.join(DIR, "cp-copy", `m${m}`)]);
    const rs = rsync ? await timed("rsync", ["-a", `${roots[m]}/`, `${rsync.url}/seq-m${m}/`]) : null;
    execFileSync("sync");
    const serverCpu = process.cpuUsage();
    const { ms, cpuS, summary } = await push(m);
    const used = process.cpuUsage(serverCpu);
    serverS += (used.user + used.system) / 1e6;
    total += ms;
    sent += summary.bytes_sent;
    clientCpu += cpuS;
    cpMs += cp.wallMs;
    cpCpu += cp.cpuS;
    rsyncMs += rs?.wallMs ?? 0;
    console.log(`  m${m}: push ${sec(ms)} (CPU ${cpuS.toFixed(2)} s, server ${((used.user + used.system) / 1e6).toFixed(2)} s), ${summary.sessions_sent} sessions, ${mb(summary.bytes_sent)}, ${summary.errors.length} errors; cp -r ${sec(cp.wallMs)}${rs ? `, rsync ${sec(rs.wallMs)}` : ""}`);
  }
  execFileSync("sync");
  console.log(`cp -r of every home (local, no network): ${sec(cpMs)}, CPU ${cpCpu.toFixed(2)} s${rsync ? `; rsync -a over loopback: ${sec(rsyncMs)}` : ""}`);
  console.log(`every machine's push, one after the other: ${sec(total)} for ${mb(sent)} = ${rsync ? `${ratio(total, rsyncMs)} rsync over loopback, ` : ""}${ratio(total, cpMs)} local cp -r (goal ≤ 3×)`);
  // CPU seconds change less than wall times on a machine busy with other work.
  const startUps = MACHINES * startUp.cpuS;
  console.log(`CPU: pushes ${clientCpu.toFixed(1)} s (${startUps.toFixed(1)} s of it the CLI's start-up) + server ${serverS.toFixed(1)} s = ${((clientCpu + serverS) / cpCpu).toFixed(1)}× cp -r's ${cpCpu.toFixed(2)} s; ${((clientCpu - startUps + serverS) / cpCpu).toFixed(1)}× without the start-ups`);

  // Every machine at once, as a team's machines push: until the last is done, against every rsync at once.
  if (rsync) {
    const at = performance.now();
    await Promise.all(roots.map((root, m) => timed("rsync", ["-a", `${root}/`, `${rsync.url}/all-m${m}/`])));
    const rsyncAll = performance.now() - at;
    execFileSync("sync");
    const other = await startTeamTestServer(path.join(DIR, "server-ws-all"), { authenticate });
    await fs.mkdir(path.join(DIR, "server-ws-all"), { recursive: true });
    const homes = await Promise.all(roots.map(async (_, m) => {
      const home = path.join(DIR, "homes-all", `m${m}`);
      await fs.mkdir(home, { recursive: true });
      return home;
    }));
    const started = performance.now();
    const serverAt = process.cpuUsage();
    const all = await Promise.all(roots.map((_, m) => push(m, other.url, homes[m])));
    const allMs = performance.now() - started;
    const serverAll = process.cpuUsage(serverAt);
    await other.close();
    const allBytes = all.reduce((n, r) => n + r.summary.bytes_sent, 0);
    console.log(`every machine at once: push ${sec(allMs)} (${mb(allBytes)}, ${all.reduce((n, r) => n + r.summary.errors.length, 0)} errors) against rsync over loopback ${sec(rsyncAll)} = ${ratio(allMs, rsyncAll)} (goal ≤ 3×); CPU: pushes ${all.reduce((n, r) => n + r.cpuS, 0).toFixed(1)} s, server ${((serverAll.user + serverAll.system) / 1e6).toFixed(1)} s (this machine's 2 cores run all ten machines and the server)`);
  }
  rsync?.stop();

  const again = await push(0);
  console.log(`re-push of m0: ${sec(again.ms)}, CPU ${again.cpuS.toFixed(2)} s, ${again.summary.bytes_sent} bytes sent, ${again.summary.sessions_sent} sessions (heads from the machine's memo: the CLI's start-up, 2,000 stats and one manifest)`);

  const grown = path.join(roots[0]!, "-home-m0-proj0", readdirSync(path.join(roots[0]!, "-home-m0-proj0"))[0]!);
  await fs.appendFile(grown, template.slice(0, template.indexOf("\n", 20_000) + 1).replaceAll("__SID__", "grown").replaceAll("__CWD__", "/home/m0/proj0"));
  const cliGrown = await push(0);
  console.log(`incremental push of one grown session (a fresh CLI process, Node + tsx start-up included): ${sec(cliGrown.ms)}, CPU ${cliGrown.cpuS.toFixed(2)} s, ${cliGrown.summary.bytes_sent} bytes (goal ≤ 1 s)`);
  const growth = template.slice(0, template.indexOf("\n", 20_000) + 1).replaceAll("__SID__", "grown").replaceAll("__CWD__", "/home/m0/proj0");
  await fs.appendFile(grown, growth);
  const oneShot = performance.now();
  const grownAgain = await pushOnce([{ kind: "claude", path: roots[0]! }], { server: server.url, token: "tok-m0" });
  console.log(`incremental push of one grown session (the push itself, in process, every head hashed): ${sec(performance.now() - oneShot)}, ${grownAgain.bytes_sent} bytes (goal ≤ 1 s)`);
  // --watch remembers the heads of the files it hashed: the next push after a growth hashes only what changed.
  const headCache: HeadCache = new Map();
  await pushOnce([{ kind: "claude", path: roots[0]! }], { server: server.url, token: "tok-m0", headCache });
  await fs.appendFile(grown, growth);
  const watched = performance.now();
  const watchedPush = await pushOnce([{ kind: "claude", path: roots[0]! }], { server: server.url, token: "tok-m0", headCache });
  console.log(`incremental push of one grown session as --watch makes it (heads remembered): ${sec(performance.now() - watched)}, ${watchedPush.bytes_sent} bytes (goal ≤ 1 s)`);
  await server.close();
  if (process.env.BENCH_KEEP !== "1") await fs.rm(DIR, { recursive: true, force: true, maxRetries: 5 });
}

void main().catch((error: unknown) => {
  console.error(error);
  // The team server and the rsync daemon would keep the process alive.
  process.exit(1);
});
