/**
 * Benchmark (not a test): read latency and server memory on a ≥ 1 GB session.
 *
 * Prints:
 *  - p50/p95 latency of a 2000-line compact `read_session_lines` window from the middle of the
 *    session, warm line index (target p50 ≤ 50 ms);
 *  - the dashboard server's peak RSS (VmHWM) while the session is open in the viewer and
 *    scrolled through via the lines API (target < 300 MB).
 *
 * Run: `npx tsx bench/viewer.bench.ts` (builds the app first when there is no .next build).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { createCoreContext } from "@/lib/context";
import { getLineIndex } from "@/lib/jsonl/line-index";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import { serializeIndex } from "@/lib/workspace/prepare-refs";
import { BENCH_TMP_DIR, BIG_SESSION_BYTES, ensureBigSession } from "./big-session";

const APP_DIR = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const PROJECT_KEY = "bench-000000000000";
const PORT = 3217;

async function buildWorkspace(bigFile: string): Promise<string> {
  const root = path.join(BENCH_TMP_DIR, "viewer-ws");
  const dir = path.join(root, "projects", PROJECT_KEY);
  const sessionFile = path.join(dir, "sessions", "claude-code", "big.jsonl");
  await fs.mkdir(path.dirname(sessionFile), { recursive: true });
  await fs.rm(sessionFile, { force: true });
  await fs.rm(path.join(root, ".casefile", "usage"), { recursive: true, force: true }); // measure the cold path
  await fs.link(bigFile, sessionFile); // a hard link: no second GB on disk
  const index = await getLineIndex(sessionFile, path.join(root, ".casefile", "index"));
  await fs.writeFile(path.join(root, "metadata.json"), JSON.stringify({ schema_version: 3, report_date: "2026-11-21", timezone: "UTC", status: "partial" }));
  await fs.writeFile(path.join(dir, "project.json"), JSON.stringify({ schema_version: 3, project_key: PROJECT_KEY, project_label: "bench" }));
  const turns = [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: index.lineCount }];
  await fs.writeFile(
    path.join(dir, "sessions.index.jsonl"),
    serializeIndex([{ session_ref: "S0001", source: "claude-code", source_session_id: "big", session_path: "sessions/claude-code/big.jsonl", target_start_line: 1, target_end_line: index.lineCount, turns }]),
  );
  return root;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measureReads(root: string): Promise<number> {
  const ctx = createCoreContext(root);
  const index = await getLineIndex(path.join(root, "projects", PROJECT_KEY, "sessions", "claude-code", "big.jsonl"), path.join(root, ".casefile", "index"));
  const mid = Math.floor(index.lineCount / 2);
  console.log(`session: ${index.lineCount} lines, ${(index.size / 1e9).toFixed(2)} GB`);
  const read = async (start: number) => {
    const t0 = performance.now();
    const result = await readSessionLines(ctx, { project_key: PROJECT_KEY, session_ref: "S0001", start_line: start, end_line: start + 1999 });
    const ms = performance.now() - t0;
    const bytes = result.status === "ok" ? (result.records as { raw_bytes: number }[]).reduce((n, r) => n + r.raw_bytes, 0) : 0;
    return { ms, bytes };
  };
  // Cold: distinct windows, record cache emptied before each read (only the line index is warm).
  const cold: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 60; i += 1) {
    compactRecordCache.clear();
    const r = await read(mid - 60_000 + i * 2000);
    cold.push(r.ms);
    bytes += r.bytes;
  }
  cold.sort((a, b) => a - b);
  console.log(`read_session_lines compact, 2000 lines from the middle, cold windows (avg ${(bytes / 60 / 1e6).toFixed(1)} MB of raw lines): p50 ${percentile(cold, 50).toFixed(1)} ms, p95 ${percentile(cold, 95).toFixed(1)} ms`);
  // Paging: each window overlaps the previous one by half, as a reader or agent pages through.
  compactRecordCache.clear();
  const paging: number[] = [];
  for (let i = 0; i < 60; i += 1) paging.push((await read(mid - 30_000 + i * 1000)).ms);
  paging.sort((a, b) => a - b);
  console.log(`read_session_lines compact, 2000 lines, windows overlapping by half (record cache): p50 ${percentile(paging, 50).toFixed(1)} ms, p95 ${percentile(paging, 95).toFixed(1)} ms`);
  return index.lineCount;
}

async function vmHwmKb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function measureServer(root: string, lineCount: number): Promise<void> {
  if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) spawnSync(process.execPath, [path.join(APP_DIR, "node_modules/next/dist/bin/next"), "build"], { cwd: APP_DIR, stdio: "inherit" });
  const server = spawn(process.execPath, [path.join(APP_DIR, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    cwd: APP_DIR,
    env: { ...process.env, CASEFILE_WORKSPACE: root },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; i < 100; i += 1) {
      if (await fetch(base).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const page = await fetch(`${base}/projects/${PROJECT_KEY}/sessions/S0001`);
    if (!page.ok) throw new Error(`viewer page answered ${page.status}`);
    await fetch(`${base}/api/projects/${PROJECT_KEY}/sessions?limit=50`);
    // Scroll through the whole session the way the viewer does: 200-line compact windows,
    // plus full-mode windows, spread from top to bottom.
    const steps = 150;
    for (let i = 0; i < steps; i += 1) {
      const start = Math.max(1, Math.floor((i / steps) * (lineCount - 200)));
      const compact = await fetch(`${base}/api/projects/${PROJECT_KEY}/sessions/S0001/lines?start=${start}&end=${start + 199}&mode=compact`);
      await compact.arrayBuffer();
      if (i % 10 === 0) await (await fetch(`${base}/api/projects/${PROJECT_KEY}/sessions/S0001/lines?start=${start}&end=${start + 99}&mode=full`)).arrayBuffer();
    }
    const peak = await vmHwmKb(server.pid!);
    console.log(`server peak RSS while the session is open and scrolled end to end: ${(peak / 1024).toFixed(0)} MB`);
  } finally {
    server.kill("SIGTERM");
  }
}

const big = await ensureBigSession(BIG_SESSION_BYTES);
const root = await buildWorkspace(big);
const lines = await measureReads(root);
await measureServer(root, lines);
