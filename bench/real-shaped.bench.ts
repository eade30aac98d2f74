/**
 * Real-shaped benchmark (issue 13), not a test: `npm run bench:real-shaped`.
 *
 * For the ≥ 900 MB Claude Code and ≥ 300 MB Codex sessions of `bench/real-shaped.ts` it prints:
 *  - prepare (a fresh workspace with that one session) vs `cp` + `wc -l` of the same file, in
 *    one run, median of `--runs` (default 3);
 *  - through the HTTP door (`next start`, POST /api/tools/<name>) and the MCP door (stdio):
 *    2,000-line compact `read_session_lines` windows from the middle, cold (windows never read
 *    before, line index persisted) and warm (the same window again), p50/p95; `list_sessions`
 *    for the project;
 *  - the session page's first transcript rows in Chromium (cold = first visit after the server
 *    started, then warm visits), and the project's session list page;
 *  - peak RSS of the server and of the MCP process (process tree, sampled every 50 ms, and
 *    VmHWM).
 * Goals (issue 13): prepare ≤ 3× cp+wc; window p50 ≤ 50 ms, p95 ≤ 100 ms; first rows ≤ 1 s;
 * session list ≤ 300 ms; RSS < 300 MB.
 *
 * Flags: `--runs N`, `--prepare-dir DIR` (prepare workspaces and cp copies go there), `--skip-prepare`, `--only-prepare`, `--skip-browser`, `--fresh-workspace` (prepare the
 * shared workspace again with the current code), `--idle` (time the windows once the server is idle: index complete), `--skip-mcp`, `--heap-snapshot` (write a heap snapshot of the server after the HTTP
 * part, into the app dir, via --heapsnapshot-signal), `--workspace DIR` (prepare/reuse that workspace instead of
 * <dir>/workspace), `--label NAME` (results also written as JSON to
 * /tmp/casefile-bench/real-shaped/results-<label>.json). Needs a `next build` (built when
 * missing). The machine is shared: run it a few times and read medians.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { chromium } from "@playwright/test";


import { APP_DIR, startBenchServer } from "./bench-server";
import { ensureRealShapedSessions, ensureRealShapedWorkspace, prepareRealShaped, REAL_SHAPED_DIR, type RealShapedSessions, type RealShapedWorkspace } from "./real-shaped";

const PORT = Number(process.env.CASEFILE_BENCH_PORT ?? 3107);
const WINDOW = 2000;

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const RUNS = Number(flag("--runs") ?? 3);
const LABEL = flag("--label") ?? "latest";
const SKIP_PREPARE = args.includes("--skip-prepare");
const ONLY_PREPARE = args.includes("--only-prepare");
const FRESH_WORKSPACE = args.includes("--fresh-workspace");
const SKIP_BROWSER = args.includes("--skip-browser");
const IDLE = args.includes("--idle");
const WORKSPACE = flag("--workspace");
const HEAP_SNAPSHOT = args.includes("--heap-snapshot");
const SKIP_MCP = args.includes("--skip-mcp");
/** `--prepare-dir DIR`: where the prepare runs write their workspaces and cp copies (default: the shared real-shaped dir). */
const PREPARE_DIR = flag("--prepare-dir") ?? REAL_SHAPED_DIR;

const results: Record<string, unknown> = { label: LABEL, at: new Date().toISOString(), runs: RUNS };
const ms = (n: number): string => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const sec = (n: number): string => `${(n / 1000).toFixed(2)} s`;
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number): number => {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const median = (xs: number[]): number => pct(xs, 50);

function record(key: string, value: unknown, line: string): void {
  results[key] = value;
  console.log(line);
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

// ---------------------------------------------------------------- prepare vs cp + wc -l

async function benchPrepare(sessions: RealShapedSessions): Promise<void> {
  for (const source of ["claude", "codex"] as const) {
    const file = sessions[source];
    const only: RealShapedSessions = source === "claude" ? { ...sessions, codexRoot: path.join(REAL_SHAPED_DIR, "none") } : { ...sessions, claudeRoot: path.join(REAL_SHAPED_DIR, "none") };
    await fs.mkdir(path.join(REAL_SHAPED_DIR, "none"), { recursive: true });
    const workspace = path.join(PREPARE_DIR, `prep-${source}`);
    const copy = path.join(PREPARE_DIR, `cp-${source}.jsonl`);
    await fs.mkdir(PREPARE_DIR, { recursive: true });
    const prep: number[] = [];
    const base: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // Each timing starts with no dirty pages left by the one before (the previous copy's
      // writeback would otherwise land in whichever measurement comes next).
      spawnSync("sync");
      const t0 = performance.now();
      const r = spawnSync("bash", ["-c", 'cp "$1" "$2" && wc -l "$2" > /dev/null', "_", file, copy], { stdio: "inherit" });
      if (r.status !== 0) throw new Error("cp + wc failed");
      base.push(performance.now() - t0);
      await fs.rm(copy, { force: true });
      // Like cp's target, the workspace does not exist yet: deleting the previous run's copy of
      // the session (~80 ms for 321 MB on ext4) is not part of preparing it.
      await fs.rm(workspace, { recursive: true, force: true });
      spawnSync("sync");
      const c0 = process.cpuUsage();
      prep.push(await prepareRealShaped(only, workspace));
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    await fs.rm(workspace, { recursive: true, force: true });
    const p = median(prep);
    const b = median(base);
    record(`prepare_${source}`, { prepare_ms: prep, prepare_cpu_ms: cpu, cp_wc_ms: base, ratio: p / b }, `prepare ${source}: ${sec(p)} vs cp + wc -l ${sec(b)} = ${(p / b).toFixed(2)}× (${(sessions[`${source}Stats`].bytes / 1e9 / (p / 1000)).toFixed(2)} GB/s; runs ${prep.map(sec).join(", ")} | ${base.map(sec).join(", ")}; prepare CPU user+sys ${cpu.map(sec).join(", ")})`);
  }
}

// ---------------------------------------------------------------- memory sampling

function treePids(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    const pid = out[i]!;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

function statusKb(pid: number, key: string): number {
  try {
    return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Samples the RSS of a process tree every 50 ms; `peakMb()` = max(sampled tree RSS, any VmHWM). */
class RssSampler {
  private peakKb = 0;
  /** The bench's current step: {@link phasePeaks} says which step the peak came from. */
  phase = "start";
  readonly phasePeaks = new Map<string, number>();
  private timer: NodeJS.Timeout;
  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 50);
  }
  sample(): void {
    const pids = treePids(this.pid);
    const sum = pids.reduce((n, p) => n + statusKb(p, "VmRSS"), 0);
    const hwm = Math.max(...pids.map((p) => statusKb(p, "VmHWM")));
    this.peakKb = Math.max(this.peakKb, sum, hwm);
    this.phasePeaks.set(this.phase, Math.max(this.phasePeaks.get(this.phase) ?? 0, Math.round(sum / 1024)));
  }
  peakMb(): number {
    this.sample();
    return this.peakKb / 1024;
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

// ---------------------------------------------------------------- HTTP door

type Door = {
  name: string;
  call: (tool: string, input: Record<string, unknown>) => Promise<unknown>;
};

function httpDoor(base: string): Door {
  return {
    name: "http",
    call: async (tool, input) => {
      const res = await fetch(`${base}/api/tools/${tool}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
      const text = await res.text();
      if (!res.ok) throw new Error(`${tool} → ${res.status}: ${text.slice(0, 300)}`);
      return text;
    },
  };
}

async function benchDoor(door: Door, ws: RealShapedWorkspace): Promise<void> {
  for (const [source, s] of [
    ["claude", ws.claudeSession],
    ["codex", ws.codexSession],
  ] as const) {
    const mid = Math.floor(s.lines / 2);
    const read = (start: number) => door.call("read_session_lines", { project_key: s.project_key, session_ref: s.session_ref, start_line: start, end_line: start + WINDOW - 1, mode: "compact" });
    const [first] = await timed(() => read(mid));
    const cold: number[] = [];
    for (let i = 1; i <= 15; i++) cold.push((await timed(() => read(mid + (i % 2 ? 1 : -1) * Math.ceil(i / 2) * WINDOW * 2)))[0]);
    const warm: number[] = [];
    for (let i = 0; i < 20; i++) warm.push((await timed(() => read(mid)))[0]);
    record(
      `${door.name}_window_${source}`,
      { first, cold, warm },
      `${door.name} ${source} 2,000-line compact window from the middle: first ${ms(first)}; cold p50 ${ms(median(cold))} p95 ${ms(pct(cold, 95))}; warm p50 ${ms(median(warm))} p95 ${ms(pct(warm, 95))}`,
    );
    const list: number[] = [];
    for (let i = 0; i < 5; i++) list.push((await timed(() => door.call("list_sessions", { project_key: s.project_key })))[0]);
    record(`${door.name}_list_${source}`, list, `${door.name} ${source} list_sessions: first ${ms(list[0]!)}, median ${ms(median(list))}`);
  }
}

// ---------------------------------------------------------------- server + Chromium

async function benchBrowser(base: string, ws: RealShapedWorkspace, rss: RssSampler): Promise<void> {
  const browser = await chromium.launch({
    executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    for (const [source, s] of [
      ["claude", ws.claudeSession],
      ["codex", ws.codexSession],
    ] as const) {
      const visit = async (url: string, selector: string): Promise<number> => {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        const page = await context.newPage();
        const t0 = performance.now();
        try {
          await page.goto(url, { waitUntil: "commit", timeout: 120_000 });
          await page.locator(selector).first().waitFor({ timeout: 120_000 });
          return performance.now() - t0;
        } catch {
          return Infinity; // timed out (printed as "Infinity ms")
        } finally {
          await context.close();
        }
      };
      const sessionUrl = `${base}/projects/${s.project_key}/sessions/${s.session_ref}`;
      const rows: number[] = [];
      rss.phase = `${source} session page`;
      for (let i = 0; i < 4; i++) rows.push(await visit(sessionUrl, '[data-testid="line-row"]'));
      record(`page_rows_${source}`, rows, `chromium ${source} session page, first transcript rows: cold ${ms(rows[0]!)}, warm median ${ms(median(rows.slice(1)))}`);
      const listUrl = `${base}/projects/${s.project_key}`;
      const list: number[] = [];
      rss.phase = `${source} project page`;
      for (let i = 0; i < 3; i++) list.push(await visit(listUrl, `a[href*="/sessions/${s.session_ref}"]`));
      record(`page_list_${source}`, list, `chromium ${source} project page, first session row: first ${ms(list[0]!)}, median ${ms(median(list))}`);
    }
  } finally {
    await browser.close();
  }
}

/** Sends SIGUSR2 to every node process of the server tree and waits for the snapshots to be written. */
async function heapSnapshot(root: number): Promise<void> {
  const before = new Set(readdirSync(APP_DIR).filter((f) => f.endsWith(".heapsnapshot")));
  // Next renames its server process (`next-server`): every process of the tree is a node process.
  const pids = treePids(root);
  for (const p of pids) process.kill(p, "SIGUSR2");
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const fresh = readdirSync(APP_DIR).filter((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    const sizes = fresh.map((f) => statusOfFile(path.join(APP_DIR, f)));
    await new Promise((r) => setTimeout(r, 1000));
    if (fresh.length >= pids.length && fresh.every((f, j) => statusOfFile(path.join(APP_DIR, f)) === sizes[j])) {
      console.log(`heap snapshots: ${fresh.join(", ")} (pids ${pids.join(", ")})`);
      return;
    }
  }
}

function statusOfFile(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}

/**
 * `--idle`: waits until the server's pipeline has nothing left to do (`workspace_status` ready:
 * synced, catalogued, the full-text index complete) and 10 s more for the background warm-up, so
 * the windows are timed on an idle server (issue 36 item 4), not beside a first fill.
 */
async function untilIdle(base: string): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < 1800; i++) {
    const res = await fetch(`${base}/api/tools/workspace_status`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const status = (await res.json()) as { phase?: string };
    if (status.phase === "ready") break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  console.log(`idle after ${ms(performance.now() - start)} (workspace_status ready, then 10 s)`);
}

async function benchHttp(ws: RealShapedWorkspace): Promise<void> {
  const server = await startBenchServer(ws.workspace, PORT, HEAP_SNAPSHOT ? "--heapsnapshot-signal=SIGUSR2" : "");
  const rss = new RssSampler(server.pid!);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    if (IDLE) await untilIdle(base);
    if (!SKIP_BROWSER) await benchBrowser(base, ws, rss);
    rss.phase = "http windows";
    await benchDoor(httpDoor(base), ws);
    rss.phase = "scroll";
    // scroll end to end the way the viewer does, to see what memory that leaves
    for (const s of [ws.claudeSession, ws.codexSession]) {
      for (let i = 0; i < 60; i++) {
        const start = Math.max(1, Math.floor((i / 60) * (s.lines - 200)));
        await (await fetch(`${base}/api/projects/${s.project_key}/sessions/${s.session_ref}/lines?start=${start}&end=${start + 199}&mode=compact`)).arrayBuffer();
      }
    }
    const peak = rss.peakMb();
    console.log(`  tree RSS peak (MB) by step: ${[...rss.phasePeaks].map(([k, v]) => `${k} ${v}`).join(", ")}`);
    if (HEAP_SNAPSHOT) await heapSnapshot(server.pid!);
    record("http_peak_rss_mb", peak, `server (next start) peak RSS with both sessions open, read and scrolled: ${peak.toFixed(0)} MB`);
  } finally {
    rss.stop();
    server.kill("SIGTERM");
  }
}

// ---------------------------------------------------------------- MCP door

async function benchMcp(ws: RealShapedWorkspace): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    // As users start it (`casefile mcp`: bin/casefile.mjs, the CLI's bundle in one process).
    args: [path.join(APP_DIR, "bin/casefile.mjs"), "mcp", "--workspace", ws.workspace],
    stderr: "ignore",
    cwd: APP_DIR,
  });
  const client = new Client({ name: "real-shaped-bench", version: "1" });
  await client.connect(transport);
  const rss = new RssSampler(transport.pid!);
  try {
    const door: Door = {
      name: "mcp",
      call: async (tool, input) => {
        const result = await client.callTool({ name: tool, arguments: input });
        if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content).slice(0, 300)}`);
        return result;
      },
    };
    await benchDoor(door, ws);
    const peak = rss.peakMb();
    record("mcp_peak_rss_mb", peak, `MCP server (stdio) peak RSS: ${peak.toFixed(0)} MB`);
  } finally {
    rss.stop();
    await client.close();
  }
}

// ---------------------------------------------------------------- main

const sessions = await ensureRealShapedSessions();
console.log(
  `real-shaped sessions (shared 2-core machine: figures are medians of a few runs): claude-code ${(sessions.claudeStats.bytes / 1e6).toFixed(0)} MB, ${sessions.claudeStats.lines} lines; codex ${(sessions.codexStats.bytes / 1e6).toFixed(0)} MB, ${sessions.codexStats.lines} lines`,
);
if (!SKIP_PREPARE) await benchPrepare(sessions);
if (ONLY_PREPARE) {
  await fs.writeFile(path.join(REAL_SHAPED_DIR, `results-${LABEL}.json`), `${JSON.stringify(results, null, 2)}\n`);
  process.exit(0);
}
const ws = await ensureRealShapedWorkspace({ fresh: FRESH_WORKSPACE, workspace: WORKSPACE ? path.resolve(WORKSPACE) : undefined });
console.log(`workspace ${ws.workspace}: claude ${ws.claudeSession.turns} turns, codex ${ws.codexSession.turns} turns`);
await benchHttp(ws);
if (!SKIP_MCP) await benchMcp(ws);
const out = path.join(REAL_SHAPED_DIR, `results-${LABEL}.json`);
await fs.writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: ${out}`);
