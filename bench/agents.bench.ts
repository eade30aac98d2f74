/**
 * The agents behind the source contract at a heavy user's scale (issue 38): `npx tsx bench/agents.bench.ts`.
 * Generates (bench/agents-home-generator.ts) BENCH_SESSIONS sessions per agent (default 2,000)
 * over BENCH_PROJECTS projects (default 20) from the real files of ../shared/corpus/agents-home
 * and the readers' fixtures — Gemini CLI chats (legacy `.json`, the same as `.jsonl`, the JSONL
 * fixtures), Copilot CLI `session-state/<uuid>/events.jsonl`, an OpenCode `opencode.db` (WAL) and
 * an OpenCode `storage/` tree, Aider project folders of many runs — plus BENCH_LONG (default 5)
 * long sessions (≥ 2,000 workspace lines) per agent, and as many Claude Code sessions from
 * ../shared/corpus/claude-code (with long ones cut to the agents' long sessions' sizes). Then for
 * each agent alone it prints:
 * - prepare on a fresh workspace (in-process `prepareWorkspace`, then the catalog rows
 *   `refreshCatalog`; and the CLI `casefile prepare`, which does both, with its peak RSS) against
 *   the yardstick `cp -r` of that agent's files + `wc -l` of them, timed before and after (goal ≤ 3×),
 *   then once more on a second fresh workspace, with a yardstick after it ("again": a second look
 *   in another disk window, the code warm),
 *   and against `cp -r` + `wc -l` of the session files prepare wrote (one file a session: the
 *   floor where an agent keeps many sessions in one file, Aider's history or OpenCode's database);
 *   and the CPU time of each (this process's user + system during prepare, the copy's and wc's),
 *   whose ratio a machine busy with other work changes less than the wall times';
 * - a second CLI prepare and an in-process sync with nothing changed, and a sync after one new session;
 * - pages: `list_sessions` (first page of the largest project: first call, then p50 of 5 once
 *   the first visit's background work is done),
 *   `read_session_lines` 2,000-line compact windows of the long sessions (first read of each, p50,
 *   then again, p50), a first read of a window holding 4 MiB of each long session (a process of
 *   its own, persisted blocks removed: the same transcript whatever a line holds), a first read of
 *   the dashboard viewer's 200-line window of each (likewise), `session_overview` first call p50 over the long sessions, `search_sessions`
 *   `<word> agent:<source>` p50 over 5 words (after a full-text fill, timed) — and the same for
 *   Claude Code sessions of the same bytes (and at least 2,000 lines) prepared into their own workspace.
 * Nothing the bench made is removed within 40 s before a timed prepare or yardstick (see {@link settle}).
 * Figures only, never timed assertions. Env: BENCH_SESSIONS, BENCH_PROJECTS, BENCH_LONG,
 * BENCH_ONLY (comma-separated rows: gemini-cli,copilot-cli,opencode,opencode-storage,aider),
 * BENCH_SKIP_CLI=1, BENCH_DIR (default a temp dir), BENCH_KEEP=1 (leave what it made).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { agentOf, BENCH_SOURCES, CORPUS, generateAgents, generateClaude, type BenchSource, type GeneratedSource } from "./agents-home-generator";

import { closeCatalog } from "@/lib/catalog/catalog";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { requestRiskFill } from "@/lib/catalog/refresh-risk";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { callTool } from "@/lib/tools/registry";
import { CompactStore } from "@/lib/session-reader/compact-store";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getWorkspaceLineIndex, resolveSession, workspaceIndexDir } from "@/lib/workspace/sessions";
import { syncWorkspace } from "@/lib/workspace/sync";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20);
const LONG = Number(process.env.BENCH_LONG ?? 5);
const ONLY = process.env.BENCH_ONLY ? (process.env.BENCH_ONLY.split(",") as BenchSource[]) : BENCH_SOURCES;
const SKIP_CLI = process.env.BENCH_SKIP_CLI === "1";
const WINDOW = 2000;
/** Bytes of transcript a second cold window covers (at most {@link WINDOW} lines): a page of the same content whatever a line holds. */
const WINDOW_BYTES = 4 << 20;
const WORDS = ["file", "test", "error", "add", "run"];

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const msf = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

/** The CPU time (user + system) this process spent since `since` (a `process.cpuUsage()`), in ms. */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** CPU ms of the yardstick's last run (its processes' user + system, through /usr/bin/time). */
let lastCpCpu = NaN;

/** What the bench made and no longer needs (the yardstick's copies, the CLI's workspace), removed by {@link removeLeftovers}. */
const leftovers: string[] = [];
/** When the bench last removed files (ms since the epoch). */
let lastRemoval = 0;

/** Removes {@link leftovers}, noting when (see {@link settle}). */
async function removeLeftovers(): Promise<void> {
  for (const p of leftovers.splice(0)) await fs.rm(p, { recursive: true, force: true });
  lastRemoval = Date.now();
}

/**
 * Waits until 40 s have passed since the bench last removed files. On ext4 without a journal
 * (the reference machine), making a file within 30 s of removing others costs a look-up of each
 * inode freed meanwhile (the kernel's find_inode_bit skips them: recently_deleted): after the
 * removal of a 2,000-file copy, each new file cost 0.3-0.9 ms of system time instead of ~0.02 ms,
 * so the step timed next (prepare, which makes two files a session) paid for the bench's own
 * clean-up and the yardstick before it did not.
 */
async function settle(): Promise<void> {
  const wait = lastRemoval + 40_000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Copies made by {@link cpAndWc}, each in a folder of its own. */
let copies = 0;

/**
 * The yardstick: `cp -r` of the folder and `wc -l` of every file copied (the page cache warm, as
 * for prepare) into a new folder named after `scratch`, left for {@link removeLeftovers}; its
 * CPU time in {@link lastCpCpu}.
 */
async function cpAndWc(from: string, scratchBase: string): Promise<number> {
  const scratch = `${scratchBase}-${++copies}`;
  leftovers.push(scratch);
  spawnSync("sync");
  const start = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "CPU=%U %S", "bash", "-c", 'cp -r "$1" "$2" && find "$2" -type f -print0 | xargs -0 cat | wc -l > /dev/null', "_", from, scratch], { stdio: ["ignore", "ignore", "pipe"] });
  const took = performance.now() - start;
  if (run.status !== 0) throw new Error(`cp + wc of ${from} failed: ${run.stderr.toString()}`);
  const [user, system] = (/CPU=([\d.]+) ([\d.]+)/.exec(run.stderr.toString()) ?? []).slice(1).map(Number);
  lastCpCpu = 1000 * ((user ?? NaN) + (system ?? NaN));
  return took;
}

/** The CLI as users start it (its bundle once built: bin/casefile.mjs). */
const CLI = path.join(REPO, "bin/casefile.mjs");

/** `casefile prepare` in a process of its own: wall time and peak RSS (through /usr/bin/time). */
function cliPrepare(workspace: string, flags: string[]): { ms: number; peakMb: number; out: string } {
  spawnSync("sync");
  const start = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "PEAK_KB=%M", process.execPath, CLI, "prepare", "--workspace", workspace, ...flags, "--json"], { cwd: REPO, maxBuffer: 256 << 20 });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`casefile prepare failed: ${run.stderr.toString().slice(-2000)}`);
  return { ms, peakMb: Number(/PEAK_KB=(\d+)/.exec(run.stderr.toString())?.[1] ?? 0) / 1024, out: run.stdout.toString() };
}

/** How long the CLI takes to start and do nothing much (`casefile --help`): part of every CLI figure. */
function cliStartup(): number {
  const start = performance.now();
  spawnSync(process.execPath, [CLI, "--help"], { cwd: REPO, stdio: "ignore" });
  return performance.now() - start;
}

type Pages = { bytes: number; list: { first: number; p50: number; rows: number }; readCold: number; readWarm: number; lines: number; overview: number; search: number; hits: number; fill: number; sameBytes: SameBytes; viewer: number };

/** A cold compact window of {@link WINDOW_BYTES} of transcript in each long session: p50 time and lines. */
type SameBytes = { cold: number; lines: number };

/**
 * Page figures on a prepared workspace (catalog rows written), measured in a process of their own
 * (as a server answering: nothing else running, no result cached by an earlier measurement).
 */
function pages(ws: string, source: string, sessions: { id: string; bytes: number }[]): Pages {
  const run = spawnSync(process.execPath, [path.join(REPO, "node_modules/tsx/dist/cli.mjs"), fileURLToPath(import.meta.url), "--pages", ws, source, JSON.stringify(sessions)], { cwd: REPO, maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`pages of ${ws} failed: ${run.stderr.toString().slice(-2000)}`);
  console.log(`${source}: ${/risk fill after the first list: \d+ ms more/.exec(run.stderr.toString())?.[0] ?? "no risk fill timed"}`);
  const pages = JSON.parse(run.stdout.toString().trim().split("\n").at(-1)!) as Omit<Pages, "sameBytes" | "viewer">;
  const again = spawnSync(process.execPath, [path.join(REPO, "node_modules/tsx/dist/cli.mjs"), fileURLToPath(import.meta.url), "--same-bytes", ws, source, JSON.stringify(sessions)], { cwd: REPO, maxBuffer: 64 << 20 });
  if (again.status !== 0) throw new Error(`same-bytes windows of ${ws} failed: ${again.stderr.toString().slice(-2000)}`);
  const viewer = spawnSync(process.execPath, [path.join(REPO, "node_modules/tsx/dist/cli.mjs"), fileURLToPath(import.meta.url), "--viewer", ws, source, JSON.stringify(sessions)], { cwd: REPO, maxBuffer: 64 << 20 });
  if (viewer.status !== 0) throw new Error(`viewer windows of ${ws} failed: ${viewer.stderr.toString().slice(-2000)}`);
  return { ...pages, sameBytes: JSON.parse(again.stdout.toString().trim().split("\n").at(-1)!) as SameBytes, viewer: Number(viewer.stdout.toString().trim().split("\n").at(-1)) };
}

/** A context on workspace `ws` with no compact record in memory or on disk (a first visit's), and the workspace loaded. */
async function coldWorkspace(ws: string): Promise<{ ctx: CoreContext; loaded: Awaited<ReturnType<typeof loadWorkspace>> }> {
  const ctx: CoreContext = createCoreContext(ws);
  await CompactStore.removeAll(workspaceIndexDir(ctx));
  compactRecordCache.clear();
  return { ctx, loaded: await loadWorkspace(ctx) };
}

/** The project and index row of the session whose source id is `id`. */
function sessionOf(loaded: Awaited<ReturnType<typeof loadWorkspace>>, id: string) {
  const project = loaded.projects.find((p) => p.rows.some((r) => r.source_session_id === id))!;
  return { project, row: project.rows.find((r) => r.source_session_id === id)! };
}

/** Lines of a dashboard viewer window (components/viewer/queries `WINDOW_LINES.compact`). */
const VIEWER_LINES = 200;

/**
 * What the dashboard's viewer meets on a first visit: a first read of a {@link VIEWER_LINES}-line
 * compact window (`read_viewer_lines`, through the HTTP door) from the middle of each long session,
 * in a process of its own with the persisted blocks removed; p50 in ms.
 */
async function measureViewer(ws: string, sessions: { id: string; bytes: number }[]): Promise<number> {
  const { ctx, loaded } = await coldWorkspace(ws);
  const cold: number[] = [];
  for (const { id } of sessions) {
    const { project, row } = sessionOf(loaded, id);
    const start = Math.max(1, Math.floor((row.target_end_line - VIEWER_LINES) / 2) + 1);
    const input = { project_key: project.projectKey, session_ref: row.session_ref, start_line: start, end_line: Math.min(row.target_end_line, start + VIEWER_LINES - 1), mode: "compact" };
    const [ms, result] = await timed(() => callTool(ctx, "read_viewer_lines", input, { door: "http" }));
    if ((result as { status?: string }).status !== "ok") throw new Error(`read_viewer_lines ${JSON.stringify(input)}: ${JSON.stringify(result).slice(0, 500)}`);
    cold.push(ms);
  }
  closeCatalog(ctx);
  return p50(cold);
}

/**
 * A first read of a compact window holding {@link WINDOW_BYTES} of each long session (from its
 * middle, at most {@link WINDOW} lines), in a process of its own with the persisted blocks removed:
 * a 2,000-line window of an agent whose line holds a message with its tool calls and results
 * (Gemini) covers twice the transcript a Claude Code one does.
 */
async function measureSameBytes(ws: string, sessions: { id: string; bytes: number }[]): Promise<SameBytes> {
  const { ctx, loaded } = await coldWorkspace(ws);
  const cold: number[] = [];
  const lines: number[] = [];
  for (const { id } of sessions) {
    const { project, row } = sessionOf(loaded, id);
    const resolved = await resolveSession(ctx, project.projectKey, row.session_ref);
    if (!resolved.ok) throw new Error(`session ${id} does not resolve`);
    const index = await getWorkspaceLineIndex(ctx, resolved.session.filePath);
    const start = row.target_end_line > WINDOW ? Math.floor((row.target_end_line - WINDOW) / 2) + 1 : 1;
    const byteAt = (line: number) => (line <= index.lineCount ? index.starts[line - 1]! : index.size);
    let end = start;
    while (end < index.lineCount && end - start + 1 < WINDOW && byteAt(end + 2) - byteAt(start) <= WINDOW_BYTES) end++;
    const input = { project_key: project.projectKey, session_ref: row.session_ref, start_line: start, end_line: end, mode: "compact" };
    const [ms, result] = await timed(() => callTool(ctx, "read_session_lines", input, { door: "cli" }));
    if ((result as { status?: string }).status !== "ok") throw new Error(`read_session_lines ${JSON.stringify(input)}: ${JSON.stringify(result).slice(0, 500)}`);
    cold.push(ms);
    lines.push(end - start + 1);
  }
  closeCatalog(ctx);
  return { cold: p50(cold), lines: p50(lines) };
}

/** {@link pages} in this process: `sessions` are the source ids of the sessions to read. */
async function measurePages(ws: string, source: string, sessions: { id: string; bytes: number }[]): Promise<Omit<Pages, "sameBytes" | "viewer">> {
  const ctx: CoreContext = createCoreContext(ws);
  const call = async (name: string, input: object) => {
    const [ms, result] = await timed(() => callTool(ctx, name, input, { door: "cli" }));
    const r = result as { status?: string; message?: string };
    if (r.status === "invalid" || r.status === "error") throw new Error(`${name} ${JSON.stringify(input)}: ${JSON.stringify(result).slice(0, 500)}`);
    return [ms, result as unknown as Record<string, unknown>] as const;
  };
  const loaded = await loadWorkspace(ctx);
  const biggest = [...loaded.projects].sort((a, b) => b.rows.length - a.rows.length)[0]!;
  const [listFirst, listed] = await call("list_sessions", { project_key: biggest.projectKey });
  // A first visit starts background work (risk, warm-up) that slows the next calls a moment: the
  // p50 is taken once list calls are steady (two in a row within 20% of the fastest), as a returning visitor sees.
  let best = Infinity;
  for (let steady = 0, waited = 0; steady < 2 && waited < 30_000; waited += 500) {
    await new Promise((r) => setTimeout(r, 500));
    const ms = (await call("list_sessions", { project_key: biggest.projectKey }))[0];
    steady = ms <= 1.2 * Math.min(best, ms) ? steady + 1 : 0;
    best = Math.min(best, ms);
  }
  const listRuns: number[] = [];
  for (let i = 0; i < 5; i++) listRuns.push((await call("list_sessions", { project_key: biggest.projectKey }))[0]);
  // The first list's background risk fill (on a worker thread) is let finish: the reads below are timed alone.
  const [riskFill] = await timed(() => requestRiskFill(ctx));
  console.error(`risk fill after the first list: ${riskFill.toFixed(0)} ms more`);
  const targets = sessions.map(({ id }) => {
    for (const p of loaded.projects) {
      const row = p.rows.find((r) => r.source_session_id === id);
      if (row) return { project_key: p.projectKey, session_ref: row.session_ref, lines: row.target_end_line };
    }
    throw new Error(`session ${id} is not in ${ws}`);
  });
  const cold: number[] = [];
  const warm: number[] = [];
  const overview: number[] = [];
  for (const t of targets) {
    const start = t.lines > WINDOW ? Math.floor((t.lines - WINDOW) / 2) + 1 : 1;
    const window = { project_key: t.project_key, session_ref: t.session_ref, start_line: start, end_line: Math.min(t.lines, start + WINDOW - 1), mode: "compact" };
    cold.push((await call("read_session_lines", window))[0]);
    warm.push((await call("read_session_lines", window))[0]);
  }
  for (const t of targets) overview.push((await call("session_overview", { project_key: t.project_key, session_ref: t.session_ref }))[0]);
  const [fill] = await timed(() => requestFullTextFill(ws));
  const searches: number[] = [];
  const hits: number[] = [];
  for (const word of WORDS) {
    const [ms, found] = await call("search_sessions", { query: `${word} agent:${source}` });
    searches.push(ms);
    hits.push(Number(found.total));
  }
  closeCatalog(ctx);
  return {
    bytes: p50(sessions.map((s) => s.bytes)),
    list: { first: listFirst, p50: p50(listRuns), rows: Number(listed.count) },
    readCold: p50(cold),
    readWarm: p50(warm),
    lines: p50(targets.map((t) => t.lines)),
    overview: p50(overview),
    search: p50(searches),
    hits: p50(hits),
    fill,
  };
}

type Row = { source: string; sessions: number; bytes: number; prepare: number; again: { prepare: number; cp: number } | null; catalog: number; cpBefore: number; cpAfter: number; wsCp: number; cpu: { prepare: number; cp: number }; cli: number | null; cliPeakMb: number | null; resyncCli: number | null; resync: number | null; syncOne: number | null; pages: Pages };

function printPrepare(rows: Row[], startup: number | null): void {
  console.log("\nprepare of one agent's sessions on a fresh workspace (yardstick: cp -r + wc -l of its files, before / after; ratio against the smaller; again: a second prepare on a fresh workspace and its ratio to the yardsticks around it; ws cp+wc: of the session files prepare wrote)");
  console.log(["source".padEnd(18), "sessions", "bytes".padStart(9), "prepare".padStart(8), "+catalog".padStart(9), "cp+wc".padStart(14), "ratio".padStart(6), "again".padStart(13), "(+cat)".padStart(7), "ws cp+wc".padStart(9), "ratio".padStart(6), "CPU/cp CPU".padStart(16), "CLI".padStart(8), "ratio".padStart(6), "peak".padStart(7), "re-CLI".padStart(7), "re-sync".padStart(8), "sync+1".padStart(7)].join(" "));
  for (const r of rows) {
    const cp = Math.min(r.cpBefore, r.cpAfter);
    console.log(
      [
        r.source.padEnd(18),
        String(r.sessions).padStart(8),
        mb(r.bytes).padStart(9),
        sec(r.prepare).padStart(8),
        sec(r.catalog).padStart(9),
        `${sec(r.cpBefore)}/${(r.cpAfter / 1000).toFixed(2)}`.padStart(14),
        `${(r.prepare / cp).toFixed(1)}×`.padStart(6),
        (r.again === null ? "-" : `${sec(r.again.prepare)} ${(r.again.prepare / r.again.cp).toFixed(1)}×`).padStart(13),
        `${((r.prepare + r.catalog) / cp).toFixed(1)}×`.padStart(7),
        sec(r.wsCp).padStart(9),
        `${(r.prepare / r.wsCp).toFixed(1)}×`.padStart(6),
        `${sec(r.cpu.prepare)}/${(r.cpu.cp / 1000).toFixed(2)} ${(r.cpu.prepare / r.cpu.cp).toFixed(1)}×`.padStart(16),
        (r.cli === null ? "-" : sec(r.cli)).padStart(8),
        (r.cli === null ? "-" : `${(r.cli / cp).toFixed(1)}×`).padStart(6),
        (r.cliPeakMb === null ? "-" : `${r.cliPeakMb.toFixed(0)}MB`).padStart(7),
        (r.resyncCli === null ? "-" : sec(r.resyncCli)).padStart(7),
        (r.resync === null ? "-" : sec(r.resync)).padStart(8),
        (r.syncOne === null ? "-" : sec(r.syncOne)).padStart(7),
      ].join(" "),
    );
  }
  if (startup !== null) console.log(`(CLI figures include the CLI's start, ${sec(startup)} for \`casefile --help\`; re-CLI = a second \`casefile prepare\`, re-sync = in-process sync, both with nothing changed; sync+1 = in-process sync after one new session)`);
}

function printPages(rows: { source: string; pages: Pages; claude: Pages }[]): void {
  console.log(`\npages (in-process tools, as the dashboard's server calls them): agent|Claude Code (${SESSIONS} sessions over ${PROJECTS} projects each; Claude's long sessions of the agent's long sessions' bytes, at least ${WINDOW} lines)`);
  console.log(["source".padEnd(18), "list 1st/p50".padStart(24), "long MB".padStart(11), "lines".padStart(11), "cold".padStart(16), "warm".padStart(14), `cold ${WINDOW_BYTES >> 20} MiB`.padStart(22), `viewer ${VIEWER_LINES}`.padStart(16), "overview".padStart(16), "search".padStart(16), "hits".padStart(11), "fill".padStart(8)].join(" "));
  for (const { source, pages: a, claude: c } of rows) {
    const both = (x: number, y: number) => `${msf(x)}|${msf(y)}`.padStart(16);
    console.log(
      [
        source.padEnd(18),
        `${msf(a.list.first)}/${msf(a.list.p50)}|${msf(c.list.first)}/${msf(c.list.p50)}`.padStart(24),
        `${(a.bytes / 1e6).toFixed(1)}|${(c.bytes / 1e6).toFixed(1)}`.padStart(11),
        `${a.lines}|${c.lines}`.padStart(11),
        both(a.readCold, c.readCold),
        `${msf(a.readWarm)}|${msf(c.readWarm)}`.padStart(14),
        `${msf(a.sameBytes.cold)}|${msf(c.sameBytes.cold)} (${a.sameBytes.lines}|${c.sameBytes.lines})`.padStart(22),
        both(a.viewer, c.viewer),
        both(a.overview, c.overview),
        both(a.search, c.search),
        `${a.hits}|${c.hits}`.padStart(11),
        sec(a.fill).padStart(8),
      ].join(" "),
    );
  }
  console.log(`(each cell: agent|Claude; list_sessions of the largest project, first call / p50 of 5 once steady; read = 2,000-line compact window of each long session, first read and again, p50; cold ${WINDOW_BYTES >> 20} MiB = a first read of a window holding ${WINDOW_BYTES >> 20} MiB of each long session (its lines in brackets), p50, blocks removed first; viewer ${VIEWER_LINES} = a first read of the dashboard viewer's ${VIEWER_LINES}-line compact window from each long session's middle, p50, in a process of its own, blocks removed first; overview = first call, p50; search = p50 over ${WORDS.length} words with agent:<source>; fill = the agent workspace's full-text fill, Claude's filled before)`);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(CORPUS, "agents-home"))) throw new Error(`needs the corpus at ${CORPUS}`);
  const dir = process.env.BENCH_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), "casefile-agents-bench-")));
  await fs.rm(dir, { recursive: true, force: true });
  lastRemoval = Date.now();
  await fs.mkdir(dir, { recursive: true });
  try {
    await run(dir);
  } finally {
    await removeLeftovers();
    if (process.env.BENCH_KEEP !== "1") await fs.rm(dir, { recursive: true, force: true });
    else console.log(`left in ${dir}`);
  }
}

async function run(dir: string): Promise<void> {
  const options = { sessions: SESSIONS, projects: PROJECTS, long: LONG };
  console.log(`agents bench: ${SESSIONS} sessions per agent over ${PROJECTS} projects, + ${LONG} long (≥ ${WINDOW} lines) each, in ${dir}`);
  const [genMs, generated] = await timed(async () => generateAgents(path.join(dir, "sources"), options, ONLY));
  const [claudeMs, claude] = await timed(async () => generateClaude(path.join(dir, "sources"), options, new Map([...generated].map(([s, g]) => [s, g.long]))));
  console.log(`generated in ${sec(genMs + claudeMs)}: ${[...generated.values()].map((g) => `${g.source} ${g.sessions} (${mb(g.bytes)})`).join(", ")}, claude-code ${claude.sessions} (${mb(claude.bytes)})`);

  // Claude Code, prepared once into its own workspace, for the page comparison.
  const claudeWs = path.join(dir, "ws-claude-code");
  await settle();
  const claudeCpu = process.cpuUsage();
  const [claudePrep] = await timed(() => prepareWorkspace(createCoreContext(claudeWs), { claudeRoots: [claude.root] }));
  const claudePrepCpu = cpuSince(claudeCpu);
  const [claudeCat] = await timed(() => refreshCatalog(createCoreContext(claudeWs)));
  const claudeCp = await cpAndWc(claude.root, path.join(dir, "cp-claude"));
  const claudeCpCpu = lastCpCpu;
  const claudeWsCp = await cpAndWc(path.join(claudeWs, "projects"), path.join(dir, "cp-claude"));
  await removeLeftovers();
  const claudeRow: Row = { source: "claude-code", sessions: claude.sessions, bytes: claude.bytes, prepare: claudePrep, again: null, catalog: claudeCat, cpBefore: claudeCp, cpAfter: claudeCp, wsCp: claudeWsCp, cpu: { prepare: claudePrepCpu, cp: claudeCpCpu }, cli: null, cliPeakMb: null, resyncCli: null, resync: null, syncOne: null, pages: null as unknown as Pages };
  // Its full-text index filled once here: each page measurement then finds it complete.
  const [claudeFill] = await timed(() => requestFullTextFill(claudeWs));
  console.log(`claude-code: prepare ${sec(claudePrep)} + catalog ${sec(claudeCat)} vs cp + wc ${sec(claudeCp)}; full-text fill ${sec(claudeFill)}`);

  const startup = SKIP_CLI ? null : cliStartup();
  const rows: Row[] = [];
  const pageRows: { source: string; pages: Pages; claude: Pages }[] = [];
  for (const source of ONLY) {
    const g = generated.get(source)!;
    rows.push(await benchSource(dir, g));
    const claudeLong = claude.long.get(source)!;
    pageRows.push({ source, pages: rows.at(-1)!.pages, claude: pages(claudeWs, "claude-code", claudeLong) });
    printPrepare([rows.at(-1)!], null);
    printPages([pageRows.at(-1)!]);
  }
  console.log("\n================ summary");
  printPrepare([...rows, claudeRow], startup);
  printPages(pageRows);
}

async function benchSource(dir: string, g: GeneratedSource): Promise<Row> {
  const agent = agentOf(g.source);
  console.log(`\n---- ${g.source}: ${g.sessions} sessions, ${mb(g.bytes)} under ${g.root}`);
  const scratch = path.join(dir, `cp-${g.source}`);
  const ws = path.join(dir, `ws-${g.source}`);
  await settle();
  const cpBefore = await cpAndWc(g.copyRoot, scratch);
  const cpCpu = lastCpCpu;
  const cpuStart = process.cpuUsage();
  const [prepare, summary] = await timed(() => prepareWorkspace(createCoreContext(ws), { claudeRoots: [], agentRoots: { [agent]: [g.root] } }));
  const prepareCpu = cpuSince(cpuStart);
  const [catalog] = await timed(() => refreshCatalog(createCoreContext(ws)));
  const cpAfter = await cpAndWc(g.copyRoot, scratch);
  const cpu = { prepare: prepareCpu, cp: Math.min(cpCpu, lastCpCpu) };
  // What writing the workspace's session files costs at least: a copy of them (line indexes and catalog apart).
  const wsCp = await cpAndWc(path.join(ws, "projects"), scratch);
  // Timed again on a second fresh workspace, between two yardsticks: the disk's slow windows (see settle) show as a gap between the two runs.
  const [again] = await timed(() => prepareWorkspace(createCoreContext(`${ws}-again`), { claudeRoots: [], agentRoots: { [agent]: [g.root] } }));
  leftovers.push(`${ws}-again`);
  const cpAgain = Math.min(cpAfter, await cpAndWc(g.copyRoot, scratch));
  console.log(`prepare again ${sec(again)} vs cp + wc ${sec(cpAgain)}`);
  console.log(`prepare ${sec(prepare)} (${summary.sessions} sessions, ${summary.lines} lines, ${summary.skipped.length} skipped, ${summary.warnings.length} warnings) + catalog ${sec(catalog)} vs cp + wc ${sec(cpBefore)} / ${sec(cpAfter)}, of the workspace's session files ${sec(wsCp)}; CPU ${sec(cpu.prepare)} vs ${sec(cpu.cp)}`);
  let cli: number | null = null;
  let cliPeakMb: number | null = null;
  let resyncCli: number | null = null;
  let resync: number | null = null;
  let syncOne: number | null = null;
  if (!SKIP_CLI) {
    const cliWs = path.join(dir, `ws-cli-${g.source}`);
    const flags = [`--${agent}`, g.root];
    const first = cliPrepare(cliWs, flags);
    cli = first.ms;
    cliPeakMb = first.peakMb;
    resyncCli = cliPrepare(cliWs, flags).ms;
    [resync] = await timed(() => syncWorkspace(createCoreContext(cliWs)));
    g.addOne();
    const [ms, synced] = await timed(() => syncWorkspace(createCoreContext(cliWs)));
    syncOne = ms;
    console.log(`CLI prepare ${sec(cli)} (peak RSS ${cliPeakMb.toFixed(0)} MB), again ${sec(resyncCli)}; sync with nothing changed ${sec(resync)}, after one new session ${sec(syncOne)} (${synced.files_read} files read, ${synced.reused} reused)`);
    leftovers.push(cliWs);
  }
  const measured = pages(ws, agent, g.long);
  await removeLeftovers();
  return { source: g.source, sessions: summary.sessions, bytes: g.bytes, prepare, again: { prepare: again, cp: cpAgain }, catalog, cpBefore, cpAfter, wsCp, cpu, cli, cliPeakMb, resyncCli, resync, syncOne, pages: measured };
}

if (process.argv[2] === "--same-bytes") {
  const [ws, , sessions] = process.argv.slice(3) as [string, string, string];
  console.log(JSON.stringify(await measureSameBytes(ws, JSON.parse(sessions) as { id: string; bytes: number }[])));
  process.exit(0);
} else if (process.argv[2] === "--viewer") {
  const [ws, , sessions] = process.argv.slice(3) as [string, string, string];
  console.log(JSON.stringify(await measureViewer(ws, JSON.parse(sessions) as { id: string; bytes: number }[])));
  process.exit(0);
} else if (process.argv[2] === "--pages") {
  const [ws, source, sessions] = process.argv.slice(3) as [string, string, string];
  console.log(JSON.stringify(await measurePages(ws, source, JSON.parse(sessions) as { id: string; bytes: number }[])));
  // The catalog's background work (risk, warm-up) is not waited for.
  process.exit(0);
} else await main();
