/**
 * Live sync latency (issue 12, item 1: "indexed within 2 s"): `npx tsx bench/watch.bench.ts`.
 * Reuses the 1,000-session sources and workspace bench/sync.bench.ts leaves under
 * bench/.tmp/sync (run that first), starts the source watcher with its default debounce, and
 * prints, for a session added, grown and rewritten, the time from the write to its index row
 * showing the change (median of 3 each).
 */
import { appendFile, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { BENCH_TMP_DIR } from "@/bench/big-session";
import { createCoreContext } from "@/lib/context";
import { claudeLines } from "@/lib/testing/transcripts";
import { SourceWatcher } from "@/lib/workspace/source-watcher";

const base = path.join(BENCH_TMP_DIR, "sync");
const id = (n: number) => `be4c0000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const PROJECT = 7;
const dir = path.join(base, "sources", `-home-bench-proj${PROJECT}`);
const cwd = `/home/bench/proj${PROJECT}`;

/** Turn count of one session's index row, read from the workspace (null when absent). */
async function turnsOf(sessionId: string): Promise<number | null> {
  const projects = path.join(base, "workspace", "projects");
  for (const key of await readdir(projects)) {
    if (!key.startsWith(`proj${PROJECT}-`)) continue;
    const text = await readFile(path.join(projects, key, "sessions.index.jsonl"), "utf8").catch(() => "");
    for (const line of text.split("\n")) {
      if (!line.includes(sessionId)) continue;
      return (JSON.parse(line) as { turns: unknown[] }).turns.length;
    }
  }
  return null;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function main(): Promise<void> {
  const ctx = createCoreContext(path.join(base, "workspace"));
  let syncs = 0;
  const watcher = new SourceWatcher(ctx, { onSync: () => (syncs += 1), onError: (e) => console.error(e) });
  await watcher.start();
  await until(async () => syncs > 0);
  const figures: Record<string, number[]> = { added: [], grown: [], rewritten: [] };
  for (let run = 0; run < 3; run += 1) {
    const sid = id(90_000 + run * 10 + Math.floor(Math.random() * 10));
    const file = path.join(dir, `${sid}.jsonl`);
    let t = performance.now();
    await writeFile(`${file}.tmp`, claudeLines(sid, cwd, 2));
    await rename(`${file}.tmp`, file);
    await until(async () => (await turnsOf(sid)) === 2);
    figures.added!.push(performance.now() - t);

    t = performance.now();
    await appendFile(file, claudeLines(sid, cwd, 2, 3));
    await until(async () => (await turnsOf(sid)) === 4);
    figures.grown!.push(performance.now() - t);

    t = performance.now();
    await writeFile(`${file}.tmp`, claudeLines(sid, cwd, 1));
    await rename(`${file}.tmp`, file);
    await until(async () => (await turnsOf(sid)) === 1);
    figures.rewritten!.push(performance.now() - t);
  }
  await watcher.close();
  for (const [label, runs] of Object.entries(figures)) {
    const median = [...runs].sort((a, b) => a - b)[1]!;
    console.log(`live sync, 1000 sessions, a session ${label}: median ${median.toFixed(0)} ms from write to index row (runs: ${runs.map((r) => r.toFixed(0)).join(", ")}; goal ≤ 2000 ms)`);
  }
}

void main();
