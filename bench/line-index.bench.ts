/**
 * Line index benchmark: `npx tsx bench/line-index.bench.ts`.
 * Prints cold build throughput, persisted-index load time, extension time after a 10 MiB
 * append, and readLineRange latency for 2000-line windows in the middle of a ≥ 1 GiB file.
 */
import { appendFile, open, rm, stat, truncate } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH_TMP_DIR, BIG_SESSION_BYTES, ensureBigSession } from "@/bench/big-session";
import { buildLineIndex, clearLineIndexCache, getLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { lineIndexCachePath } from "@/lib/jsonl/line-index-file";

const APPEND_BYTES = 10 << 20;
const WINDOW_LINES = 2000;
const RANGE_ITERATIONS = 50;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;
const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const prepared = await timed(() => ensureBigSession(BIG_SESSION_BYTES));
  const file = prepared.value;
  const size = (await stat(file)).size;
  console.log(`file: ${path.relative(process.cwd(), file)} (${(size / 1e9).toFixed(3)} GB), ready in ${fmt(prepared.ms)}`);

  const builds: number[] = [];
  let lineCount = 0;
  for (let i = 0; i < 3; i++) {
    const run = await timed(() => buildLineIndex(file));
    builds.push(run.ms);
    lineCount = run.value.lineCount;
  }
  const best = Math.min(...builds);
  console.log(`cold build: best of 3 ${fmt(best)} = ${(size / 1e6 / best).toFixed(2)} GB/s (${lineCount} lines; runs ${builds.map(fmt).join(", ")})`);

  const cacheDir = path.join(BENCH_TMP_DIR, "line-index-cache");
  await rm(cacheDir, { recursive: true, force: true });
  clearLineIndexCache();
  const persisted = await timed(() => getLineIndex(file, cacheDir));
  const cacheBytes = (await stat(lineIndexCachePath(cacheDir, path.resolve(file)))).size;
  const loads: number[] = [];
  for (let i = 0; i < 5; i++) {
    clearLineIndexCache();
    loads.push((await timed(() => getLineIndex(file, cacheDir))).ms);
  }
  loads.sort((a, b) => a - b);
  console.log(`first getLineIndex (build + persist): ${fmt(persisted.ms)}; index file ${(cacheBytes / 1e6).toFixed(2)} MB`);
  console.log(`persisted load (fresh process cache): median ${fmt(loads[2]!)}, best ${fmt(loads[0]!)} of 5`);

  const warm = await getLineIndex(file, cacheDir);
  await appendWholeLines(file, APPEND_BYTES);
  try {
    const extended = await timed(() => buildLineIndex(file, warm));
    const viaCache = await timed(() => getLineIndex(file, cacheDir));
    const fresh = await buildLineIndex(file);
    const same = fresh.lineCount === extended.value.lineCount && fresh.starts.every((s, i) => s === extended.value.starts[i]);
    console.log(
      `extension after appending ${(APPEND_BYTES / 2 ** 20).toFixed(0)} MiB: buildLineIndex ${fmt(extended.ms)} ` +
        `(rescanned from byte ${extended.value.scannedFromByte}), getLineIndex incl. atomic persist ${fmt(viaCache.ms)}; ` +
        `equals a fresh build: ${same}`,
    );
  } finally {
    await truncate(file, size);
  }

  const index = await getLineIndex(file, null);
  const middle = Math.floor(index.lineCount / 2);
  const spread = Math.floor(index.lineCount / 10);
  let seed = 42;
  const nextStart = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.max(1, middle - Math.floor(spread / 2) + (seed % spread));
  };
  for (let i = 0; i < 5; i++) {
    const start = nextStart();
    await readLineRange(file, index, start, start + WINDOW_LINES - 1);
  }
  const latencies: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RANGE_ITERATIONS; i++) {
    const start = nextStart();
    const run = await timed(() => readLineRange(file, index, start, start + WINDOW_LINES - 1));
    latencies.push(run.ms);
    bytes += run.value.reduce((sum, line) => sum + line.byteLength, 0);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `readLineRange ${WINDOW_LINES} lines (middle of file, warm index, ${RANGE_ITERATIONS} runs after 5 warm-ups): ` +
      `p50 ${fmt(percentile(latencies, 50))}, p95 ${fmt(percentile(latencies, 95))}, avg window ${(bytes / RANGE_ITERATIONS / 1e6).toFixed(2)} MB`,
  );
  console.log(`peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}

/** Appends the file's own first lines (about `bytes` bytes, whole lines) to its end. */
async function appendWholeLines(file: string, bytes: number): Promise<void> {
  const handle = await open(file, "r");
  const head = Buffer.alloc(bytes + (1 << 20));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const cut = head.indexOf(0x0a, bytes - 1) + 1;
  await appendFile(file, head.subarray(0, cut > 0 ? cut : bytes));
}

await main();
