/**
 * A heavy user's whole history (issue 25): `npx tsx bench/many-sessions.bench.ts`.
 * Builds PROJECTS × SESSIONS_PER_PROJECT sessions of ~SESSION_BYTES each from real corpus lines
 * (../shared/corpus; every CODEX_EVERY-th project is Codex, the rest Claude Code; each session a
 * fresh id, each project its own cwd), then prints every figure of the issue's table:
 * prepare vs `cp -r` + `wc -l` (and prepare's peak RSS), server start to first answer, the home
 * page and a project page (3 loads each), list_projects / list_sessions over HTTP, a search
 * across every project, and the server's idle RSS (after start and after browsing). The server
 * runs as `npm start` runs it (`dashboardServerEnv`: its malloc and young-generation settings).
 * Defaults are the issue's size (200 × 100 × 540 KB ≈ 10.8 GB); env BENCH_PROJECTS,
 * BENCH_SESSIONS_PER_PROJECT, BENCH_SESSION_BYTES, BENCH_CODEX_EVERY, BENCH_DIR, BENCH_PORT
 * scale it. Needs `npx next build` first. Deletes what it made unless BENCH_KEEP=1; BENCH_REUSE=1
 * (with BENCH_KEEP=1) measures the server again on the workspace a kept run left;
 * BENCH_PREPARE_ONLY=1 stops after the prepare figures (no build needed).
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { dashboardServerEnv } from "@/server/cli/serve-command";

import { claudeCorpusTemplate, cutAt } from "./corpus-template";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const CORPUS = path.resolve(REPO, "../shared/corpus");
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 200);
const PER_PROJECT = Number(process.env.BENCH_SESSIONS_PER_PROJECT ?? 100);
const SESSION_BYTES = Number(process.env.BENCH_SESSION_BYTES ?? 540_000);
const CODEX_EVERY = Number(process.env.BENCH_CODEX_EVERY ?? 10);
const DIR = process.env.BENCH_DIR ?? "/work/.bench-many-sessions";
const PORT = Number(process.env.BENCH_PORT ?? 3225);
const PREPARE_ONLY = process.env.BENCH_PREPARE_ONLY === "1";
const SEARCH_PHRASE = '"auto-cleanup review tmux sessions"';

// A real Codex Desktop session with user turns (the codemie fixture has none: prepare skips it as "no human trigger").
const CODEX_TEMPLATE = path.join(CORPUS, "codex/jerometremblay__codex_log_viewer/codex_sessions/20260213134203_redacted_current_codex_session_jsonl_export.jsonl");
const CODEX_ID = "019c581e-8542-7bb1-b7e1-7e6221c3047c";

const uuid = (p: number, s: number) => `be25${String(p).padStart(4, "0")}-0000-4000-8000-${String(s).padStart(12, "0")}`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const sec = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Claude Code main transcripts of the corpus, to SESSION_BYTES (bench/corpus-template). */
function claudeTemplate(): string {
  return claudeCorpusTemplate(CORPUS, SESSION_BYTES);
}

/** The text up to the first line end at or after SESSION_BYTES characters. */
function cut(text: string): string {
  return cutAt(text, SESSION_BYTES);
}

function codexTemplate(): string {
  const lines = readFileSync(CODEX_TEMPLATE, "utf8").split("\n").filter((l) => l.trim() !== "");
  let text = lines.join("\n") + "\n";
  const body = lines.filter((l) => !l.includes('"type":"session_meta"')).join("\n") + "\n";
  while (text.length < SESSION_BYTES) text += body;
  return cut(text).replaceAll(CODEX_ID, "__SID__").replace(/"cwd":"[^"]*"/g, '"cwd":"__CWD__"');
}

async function generate(src: string): Promise<{ files: number; bytes: number }> {
  const claude = claudeTemplate();
  const codex = codexTemplate();
  let files = 0;
  let bytes = 0;
  for (let p = 0; p < PROJECTS; p += 1) {
    const isCodex = CODEX_EVERY > 0 && p % CODEX_EVERY === CODEX_EVERY - 1;
    const cwd = `/home/bench/project-${String(p).padStart(3, "0")}`;
    const dir = isCodex ? path.join(src, "codex", "2026", "05", String(p).padStart(3, "0")) : path.join(src, "claude", cwd.replaceAll("/", "-"));
    await fs.mkdir(dir, { recursive: true });
    const template = (isCodex ? codex : claude).replaceAll("__CWD__", cwd);
    for (let s = 0; s < PER_PROJECT; s += 1) {
      const id = uuid(p, s);
      const text = template.replaceAll("__SID__", id);
      await fs.writeFile(path.join(dir, isCodex ? `rollout-2026-05-11T11-26-55-${id}.jsonl` : `${id}.jsonl`), text);
      files += 1;
      bytes += Buffer.byteLength(text);
    }
  }
  return { files, bytes };
}

/** prepare's source flags: each source folder the generation made (fewer than CODEX_EVERY projects have no Codex one). */
function sourceFlags(src: string): string[] {
  return (["claude", "codex"] as const).flatMap((kind) => (existsSync(path.join(src, kind)) ? [`--${kind}`, path.join(src, kind)] : []));
}

/** Wall time and peak RSS (KB) of a command, through /usr/bin/time. */
function timedCommand(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): { ms: number; peakKb: number } {
  const start = performance.now();
  const run = spawnSync("/usr/bin/time", ["-f", "PEAK_KB=%M", cmd, ...args], { cwd: REPO, env, stdio: ["ignore", "ignore", "pipe"], maxBuffer: 64 << 20 });
  if (run.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${run.stderr.toString().slice(-2000)}`);
  const out = run.stderr.toString();
  return { ms: performance.now() - start, peakKb: Number(/PEAK_KB=(\d+)/.exec(out)?.[1] ?? 0) };
}

function timedShell(script: string): number {
  const start = performance.now();
  execFileSync("bash", ["-c", script], { stdio: ["ignore", "ignore", "inherit"] });
  return performance.now() - start;
}

async function get(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  return { ms: performance.now() - start, status: res.status, bytes: body.byteLength };
}

async function post(url: string, input: object): Promise<{ ms: number; status: number; json: Record<string, unknown> }> {
  const start = performance.now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
  const json = (await res.json()) as Record<string, unknown>;
  return { ms: performance.now() - start, status: res.status, json };
}

/** Resident set of a process and its descendants, bytes (from /proc). */
function treeRss(pid: number): number {
  let total = 0;
  const kids = (p: number): number[] => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  const visit = (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      /* gone */
    }
    for (const k of kids(p)) visit(k);
  };
  visit(pid);
  return total;
}

/** CPU ticks of a process tree, to wait until the server is idle. */
function treeTicks(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      total += Number(f[11]) + Number(f[12]);
      for (const k of readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)) visit(k);
    } catch {
      /* gone */
    }
  };
  visit(pid);
  return total;
}

async function waitIdle(pid: number, maxMs: number): Promise<number> {
  const start = performance.now();
  let last = treeTicks(pid);
  let quiet = 0;
  while (performance.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = treeTicks(pid);
    quiet = now - last <= 2 ? quiet + 1 : 0;
    last = now;
    if (quiet >= 5) break;
  }
  return performance.now() - start;
}

async function threeLoads(label: string, fn: () => Promise<{ ms: number; status: number; bytes?: number }>): Promise<void> {
  const runs = [];
  for (let i = 0; i < 3; i += 1) runs.push(await fn());
  const bad = runs.find((r) => r.status !== 200);
  console.log(`${label.padEnd(44)} ${runs.map((r) => sec(r.ms)).join(" / ")}${runs[0]?.bytes ? ` (${(runs[0].bytes / 1024).toFixed(0)} KB)` : ""}${bad ? `  status ${bad.status}!` : ""}`);
}

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) throw new Error(`needs the corpus at ${CORPUS}`);
  if (!PREPARE_ONLY && !existsSync(path.join(REPO, ".next", "BUILD_ID"))) throw new Error("run `npx next build` first");
  if (process.env.BENCH_REUSE !== "1") await fs.rm(DIR, { recursive: true, force: true });
  try {
    await run();
  } finally {
    if (process.env.BENCH_KEEP !== "1") await fs.rm(DIR, { recursive: true, force: true });
  }
}

async function run(): Promise<void> {
  const src = path.join(DIR, "sources");
  const ws = path.join(DIR, "workspace");
  console.log(`many-sessions bench: ${PROJECTS} projects × ${PER_PROJECT} sessions × ~${(SESSION_BYTES / 1000).toFixed(0)} KB, every ${CODEX_EVERY}th project Codex`);
  if (process.env.BENCH_REUSE === "1" && existsSync(path.join(ws, "metadata.json"))) {
    console.log(`reusing the sessions and workspace in ${DIR} (BENCH_REUSE=1): no generation, cp or prepare figures`);
    return serve(ws);
  }
  const genStart = performance.now();
  const made = await generate(src);
  console.log(`generated ${made.files} sessions, ${mb(made.bytes)} in ${sec(performance.now() - genStart)}`);

  // The yardstick is timed before and after prepare (the page cache and the disk's writeback make
  // one copy of 10 GB vary by half): the ratio is given against both.
  const cpAndWc = async () => {
    const ms = timedShell(`cp -r '${src}' '${DIR}/cp-copy' && find '${DIR}/cp-copy' -name '*.jsonl' -print0 | xargs -0 cat | wc -l`);
    await fs.rm(path.join(DIR, "cp-copy"), { recursive: true, force: true });
    return ms;
  };
  const cpBefore = await cpAndWc();
  const prep = timedCommand(process.execPath, [path.join(REPO, "node_modules/tsx/dist/cli.mjs"), "server/cli/main.ts", "prepare", "--workspace", ws, ...sourceFlags(src), "--json"]);
  const cpAfter = await cpAndWc();
  const catalogBytes = statSync(path.join(ws, ".casefile", "catalog.sqlite")).size + (statSync(path.join(ws, ".casefile", "catalog.sqlite-wal"), { throwIfNoEntry: false })?.size ?? 0);
  console.log(`${"prepare (sync + catalog rows) vs cp -r + wc -l".padEnd(44)} ${sec(prep.ms)} vs ${sec(cpBefore)} before / ${sec(cpAfter)} after = ${(prep.ms / cpBefore).toFixed(1)}× / ${(prep.ms / cpAfter).toFixed(1)}×, peak RSS ${(prep.peakKb / 1024).toFixed(0)} MB, catalog ${mb(catalogBytes)}`);
  if (PREPARE_ONLY) return;
  return serve(ws);
}

/** The server's figures on a prepared workspace. */
async function serve(ws: string): Promise<void> {
  const base = `http://127.0.0.1:${PORT}`;
  const startAt = performance.now();
  const server = spawn(process.execPath, [path.join(REPO, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(PORT)], { cwd: REPO, env: dashboardServerEnv(process.env, ws), stdio: "ignore", detached: true });
  try {
    let first: { ms: number; status: number } | null = null;
    while (!first) {
      try {
        const r = await get(`${base}/`);
        if (r.status === 200) first = { ms: performance.now() - startAt, status: 200 };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
      if (performance.now() - startAt > 600_000) throw new Error("server did not answer in 10 minutes");
    }
    console.log(`${"server start to first answer (/)".padEnd(44)} ${sec(first.ms)}`);
    // The full-text index is filled by the server in the background after start: search says when
    // it covers everything. Meanwhile a project page is loaded every few seconds (issue 36: pages
    // answer while the index fills).
    const during: number[] = [];
    const fillKey = ((await post(`${base}/api/tools/list_projects`, {})).json.projects as { project_key: string }[])[0]!.project_key;
    for (;;) {
      const probe = await post(`${base}/api/tools/search_sessions`, { query: SEARCH_PHRASE, limit: 1 });
      const coverage = probe.json.coverage as { sessions_indexed: number; sessions_total: number } | undefined;
      if (probe.json.status === "ok") {
        console.log(`${"full-text index complete (background fill)".padEnd(44)} ${sec(performance.now() - startAt)} after start, ${coverage?.sessions_total ?? "?"} sessions`);
        if (during.length > 0) console.log(`${"project page while the index filled".padEnd(44)} ${during.length} loads: p50 ${sec([...during].sort((a, b) => a - b)[Math.floor(during.length / 2)]!)}, max ${sec(Math.max(...during))}`);
        break;
      }
      during.push((await get(`${base}/projects/${encodeURIComponent(fillKey)}`)).ms);
      if (performance.now() - startAt > 1_800_000) throw new Error(`full-text index not complete after 30 minutes: ${JSON.stringify(coverage)}`);
      await new Promise((r) => setTimeout(r, 5000));
    }
    const idleWait = await waitIdle(server.pid!, 300_000);
    console.log(`${"server idle after start (watcher's first sync)".padEnd(44)} after ${sec(idleWait)}, RSS ${mb(treeRss(server.pid!))}`);
    const projects = (await post(`${base}/api/tools/list_projects`, {})).json.projects as { project_key: string }[];
    const key = projects[Math.floor(projects.length / 2)]!.project_key;
    await threeLoads("home page (/)", () => get(`${base}/`));
    await threeLoads(`project page (${PER_PROJECT} sessions)`, () => get(`${base}/projects/${encodeURIComponent(key)}`));
    await threeLoads("list_projects (HTTP)", async () => ({ ...(await post(`${base}/api/tools/list_projects`, {})), bytes: 0 }));
    await threeLoads("list_sessions (HTTP)", async () => ({ ...(await post(`${base}/api/tools/list_sessions`, { project_key: key })), bytes: 0 }));
    const search = await post(`${base}/api/tools/search_sessions`, { query: SEARCH_PHRASE });
    console.log(`search_sessions "${SEARCH_PHRASE}": total ${String(search.json.total)} hits`);
    await threeLoads("search_sessions across every project (HTTP)", async () => ({ ...(await post(`${base}/api/tools/search_sessions`, { query: SEARCH_PHRASE })), bytes: 0 }));
    await threeLoads("search_sessions, a phrase found nowhere", async () => ({ ...(await post(`${base}/api/tools/search_sessions`, { query: uuid(7, 42) })), bytes: 0 }));
    await threeLoads("global search page (/search)", () => get(`${base}/search?q=${encodeURIComponent(SEARCH_PHRASE)}`));
    await waitIdle(server.pid!, 60_000);
    console.log(`${"server RSS idle after browsing".padEnd(44)} ${mb(treeRss(server.pid!))}`);
  } finally {
    // The whole process group: Next may have started workers of its own.
    process.kill(-server.pid!, "SIGTERM");
  }
}

await main();
