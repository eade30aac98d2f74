/**
 * Start-up sync benchmark (issue 12, item 1): `npx tsx bench/sync.bench.ts [sessions]`.
 * Writes 1,000 Claude Code sessions (20 turns each, 25 projects) under bench/.tmp/sync, syncs a
 * workspace from them once (cold), then prints the start-up sync on the 1,000 unchanged sessions
 * (goal ≤ 1 s) and on the 1,000 sessions after one of them grew (goal ≤ 1.5 s), median of 5 runs each.
 */
import { appendFile, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { BENCH_TMP_DIR } from "@/bench/big-session";
import { createCoreContext } from "@/lib/context";
import { claudeLines } from "@/lib/testing/transcripts";
import { syncWorkspace, type SyncSummary } from "@/lib/workspace/sync";

const SESSIONS = Number(process.argv[2] ?? 1000);
const PROJECTS = 25;
const TURNS = 20;
const RUNS = 5;

const id = (n: number) => `be4c0000-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function timed(fn: () => Promise<SyncSummary>): Promise<{ ms: number; summary: SyncSummary }> {
  const start = performance.now();
  const summary = await fn();
  return { ms: performance.now() - start, summary };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const base = path.join(BENCH_TMP_DIR, "sync");
  await rm(base, { recursive: true, force: true });
  const sources = path.join(base, "sources");
  const files: string[] = [];
  for (let n = 1; n <= SESSIONS; n += 1) {
    const project = `-home-bench-proj${n % PROJECTS}`;
    await mkdir(path.join(sources, project), { recursive: true });
    const file = path.join(sources, project, `${id(n)}.jsonl`);
    await writeFile(file, claudeLines(id(n), `/home/bench/proj${n % PROJECTS}`, TURNS));
    files.push(file);
  }
  const ctx = createCoreContext(path.join(base, "workspace"));
  const cold = await timed(() => syncWorkspace(ctx, { sources: { claude: [sources], codex: [], demo: false } }));
  console.log(`cold sync: ${SESSIONS} sessions, ${cold.summary.files_read} files read, ${cold.ms.toFixed(0)} ms`);

  const unchanged: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const run = await timed(() => syncWorkspace(ctx));
    if (run.summary.files_read !== 0 || !run.summary.unchanged) throw new Error("an unchanged sync read or wrote something");
    unchanged.push(run.ms);
  }
  console.log(`start-up sync, ${SESSIONS} unchanged sessions: median ${median(unchanged).toFixed(0)} ms (runs: ${unchanged.map((m) => m.toFixed(0)).join(", ")}; goal ≤ 1000 ms)`);

  const grown: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await appendFile(files[i]!, claudeLines(id(i + 1), `/home/bench/proj${(i + 1) % PROJECTS}`, 1, TURNS + 1));
    const run = await timed(() => syncWorkspace(ctx));
    if (run.summary.files_read !== 1) throw new Error(`a one-file growth read ${run.summary.files_read} files`);
    grown.push(run.ms);
  }
  console.log(`start-up sync, ${SESSIONS} sessions, one grown: median ${median(grown).toFixed(0)} ms (runs: ${grown.map((m) => m.toFixed(0)).join(", ")}; goal ≤ 1500 ms)`);
}

void main();
