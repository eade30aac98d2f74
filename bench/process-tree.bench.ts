/**
 * Everything `npm start` leaves running (issue 36 item 2): `npx tsx bench/process-tree.bench.ts`.
 * Starts `npm start -- --port PORT` with HOME set to BENCH_HOME (default: a fresh folder, so the
 * demo), waits for the first page, waits for the start-up sync to end (the process tree idle),
 * browses a few pages over HTTP, then prints every process of the tree with its RSS, PSS (its
 * share of pages shared with others, such as Node's own code) and peak RSS, and their sums. The
 * requirement: ≤ 350 MB in all, no tsx or esbuild process.
 * Env: BENCH_HOME (a HOME with ~/.claude/projects or ~/.codex, else the demo is shown),
 * BENCH_SESSIONS=N (a fresh HOME gets N small Claude Code sessions in 100 projects),
 * BENCH_PORT (3230), BENCH_COMMAND (default `npm start --`; e.g. `npx tsx server/cli/main.ts start`),
 * BENCH_KEEP=1 keeps a generated HOME.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { claudeLines } from "@/lib/testing/transcripts";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const PORT = Number(process.env.BENCH_PORT ?? 3230);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 0);
const COMMAND = (process.env.BENCH_COMMAND ?? "npm start --").split(" ");
const BASE = `http://127.0.0.1:${PORT}`;

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

type Proc = { pid: number; ppid: number; depth: number; rssKb: number; pssKb: number; peakKb: number; cmd: string };

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Every process under `pid` (itself included), from /proc, parents first. */
function tree(pid: number, depth = 0): Proc[] {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    let pssKb = 0;
    try {
      pssKb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1] ?? 0);
    } catch {
      /* no smaps_rollup (old kernel) */
    }
    const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ").replaceAll(REPO + "/", "");
    const self: Proc = { pid, ppid: field("PPid"), depth, rssKb: field("VmRSS"), pssKb, peakKb: field("VmHWM"), cmd };
    return [self, ...children(pid).flatMap((child) => tree(child, depth + 1))];
  } catch {
    return [];
  }
}

/** CPU ticks of the tree, to tell when the start-up sync and its background stages are done. */
function ticks(pid: number): number {
  return tree(pid).reduce((sum, p) => {
    try {
      const f = readFileSync(`/proc/${p.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return sum + Number(f[11]) + Number(f[12]);
    } catch {
      return sum;
    }
  }, 0);
}

/** Waits until the tree has used (almost) no CPU for 5 s in a row, at most `maxMs`. */
async function waitIdle(pid: number, maxMs: number): Promise<number> {
  const start = performance.now();
  let last = ticks(pid);
  let quiet = 0;
  while (performance.now() - start < maxMs && quiet < 5) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = ticks(pid);
    quiet = now - last <= 3 ? quiet + 1 : 0;
    last = now;
  }
  return performance.now() - start;
}

async function get(pathname: string): Promise<{ ms: number; status: number; bytes: number; error: string }> {
  const start = performance.now();
  const res = await fetch(`${BASE}${pathname}`);
  const body = Buffer.from(await res.arrayBuffer());
  return { ms: performance.now() - start, status: res.status, bytes: body.byteLength, error: res.ok ? "" : body.toString("utf8", 0, 300) };
}

async function tool(name: string, input: object): Promise<Record<string, unknown>> {
  const res = await fetch(`${BASE}/api/tools/${name}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  return (await res.json()) as Record<string, unknown>;
}

async function makeHome(): Promise<string> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-process-tree-"));
  for (let i = 0; i < SESSIONS; i += 1) {
    const project = `/home/bench/project-${String(i % 100).padStart(3, "0")}`;
    const dir = path.join(home, ".claude", "projects", project.replaceAll("/", "-"));
    if (i < 100) await fs.mkdir(dir, { recursive: true });
    const id = `7e57a000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    await fs.writeFile(path.join(dir, `${id}.jsonl`), claudeLines(id, project, 3 + (i % 5)));
  }
  return home;
}

function printTree(label: string, procs: Proc[]): void {
  console.log(`\n${label}: ${procs.length} process(es)`);
  console.log(`${"pid".padStart(7)} ${"ppid".padStart(7)} ${"RSS".padStart(7)} ${"PSS".padStart(7)} ${"peak".padStart(7)}  command`);
  for (const p of procs) console.log(`${String(p.pid).padStart(7)} ${String(p.ppid).padStart(7)} ${mb(p.rssKb).padStart(7)} ${mb(p.pssKb).padStart(7)} ${mb(p.peakKb).padStart(7)}  ${"  ".repeat(p.depth)}${p.cmd.slice(0, 140)}`);
  const sum = (f: (p: Proc) => number) => mb(procs.reduce((s, p) => s + f(p), 0));
  console.log(`${"in all".padStart(15)} ${sum((p) => p.rssKb).padStart(7)} ${sum((p) => p.pssKb).padStart(7)}`);
  const extra = procs.filter((p) => /tsx|esbuild/.test(p.cmd));
  console.log(extra.length === 0 ? "no tsx or esbuild process" : `tsx/esbuild processes: ${extra.map((p) => p.pid).join(", ")}`);
}

async function main(): Promise<void> {
  const generated = process.env.BENCH_HOME === undefined;
  const home = process.env.BENCH_HOME ?? (await makeHome());
  const hasReal = existsSync(path.join(home, ".claude", "projects")) || existsSync(path.join(home, ".codex"));
  console.log(`process-tree bench: \`${COMMAND.join(" ")} --port ${PORT}\` with HOME=${home} (${hasReal ? (SESSIONS ? `${SESSIONS} generated sessions` : "its sessions") : "no sessions: the demo"})`);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CODEX_HOME: path.join(home, ".codex") };
  delete env.CASEFILE_WORKSPACE;
  delete env.PORT;
  const started = performance.now();
  const log: string[] = [];
  // Its own process group, so the whole tree can be stopped at the end.
  const child = spawn(COMMAND[0]!, [...COMMAND.slice(1), "--port", String(PORT)], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  const pid = child.pid!;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${COMMAND.join(" ")} exited with ${child.exitCode}:\n${log.join("")}`);
      try {
        if ((await get("/")).status === 200) break;
      } catch {
        /* not listening yet */
      }
      if (performance.now() - started > 900_000) throw new Error(`no first page in 15 minutes:\n${log.join("")}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`first page (/) answered ${sec(performance.now() - started)} after the start`);
    const idle = await waitIdle(pid, 1_800_000);
    console.log(`tree idle (start-up sync and background stages done) ${sec(performance.now() - started)} after the start (waited ${sec(idle)})`);
    printTree("after start", tree(pid));

    const projects = ((await tool("list_projects", {})).projects ?? []) as { project_key: string }[];
    const key = projects[0]?.project_key;
    const pages = ["/", "/usage", "/audit", "/search?q=reply"];
    if (key) {
      const sessions = ((await tool("list_sessions", { project_key: key })).sessions ?? []) as { session_ref: string }[];
      pages.push(`/projects/${encodeURIComponent(key)}`, `/projects/${encodeURIComponent(key)}/synthesis`);
      for (const s of sessions.slice(0, 2)) {
        const at = `/projects/${encodeURIComponent(key)}/sessions/${encodeURIComponent(s.session_ref)}`;
        pages.push(at, `${at}/timeline`, `${at}/analysis`, `/api/projects/${encodeURIComponent(key)}/sessions/${encodeURIComponent(s.session_ref)}/lines?start=1&end=5`);
      }
    }
    console.log(`\n${projects.length} project(s); browsing ${pages.length} pages`);
    for (const page of pages) {
      const r = await get(page);
      console.log(`  ${String(r.status).padEnd(4)} ${sec(r.ms).padStart(8)} ${`${(r.bytes / 1024).toFixed(0)} KB`.padStart(7)}  ${page}${r.error ? `  ${r.error}` : ""}`);
    }
    await waitIdle(pid, 120_000);
    printTree("after browsing", tree(pid));
    if (process.env.BENCH_LOG === "1") console.log(`\n--- output of ${COMMAND.join(" ")} ---\n${log.join("")}`);
  } finally {
    try {
      process.kill(-pid, "SIGTERM");
    } catch {
      /* already gone */
    }
    await new Promise((r) => setTimeout(r, 500));
    if (generated && process.env.BENCH_KEEP !== "1") await fs.rm(home, { recursive: true, force: true });
  }
}

await main();
