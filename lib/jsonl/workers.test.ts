/** Tests of splitFileRanges, mapRangesOnPool and bundledEntry. */
import fs from "node:fs/promises";
import { getPriority } from "node:os";
import path from "node:path";
import { threadId, type Worker } from "node:worker_threads";

import { afterEach, describe, expect, it, vi } from "vitest";

import { countRange } from "@/lib/jsonl/__fixtures__/count-range";
import { nestedCount } from "@/lib/jsonl/__fixtures__/nested-count";
import { buildLineIndex } from "@/lib/jsonl/line-index";
import { mapRangesOnPool, RangePool, splitFileRanges } from "@/lib/jsonl/range-pool";
import { BACKGROUND_WORKER_NICE, bundledEntry, inBackground, maxRunningWorkers, rangeCount, startWorker, WORKER_LIMITS, WORKERS_ONLY_ENV, yieldToForeground, type LineRange, type RangeTask } from "@/lib/jsonl/workers";
import { makeTempDir } from "@/lib/testing/shared";

afterEach(() => {
  vi.unstubAllEnvs();
});

const spawn = () => startWorker(import.meta.url, "./__fixtures__/count-stream-worker.ts");

/** 40 records; record 7 holds a raw U+2028 (two physical lines), record 20 ends in \r\n. */
async function sampleFile(): Promise<string> {
  const dir = await makeTempDir();
  const file = path.join(dir, "s.jsonl");
  const records = Array.from({ length: 40 }, (_, i) => JSON.stringify({ i, pad: "x".repeat(i * 7) }).replace(i === 7 ? "xx" : "\u0000", "x\u2028x"));
  await fs.writeFile(file, records.map((r, i) => r + (i === 20 ? "\r\n" : "\n")).join(""));
  return file;
}

describe("splitFileRanges", () => {
  it("covers every line once, in order, starting each range after a \\n", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const bytes = await fs.readFile(file);
    for (const parts of [1, 2, 3, 7]) {
      const ranges = await splitFileRanges(file, index, parts);
      expect(ranges.length).toBeLessThanOrEqual(parts);
      expect(ranges[0]!.firstLine).toBe(1);
      expect(ranges.at(-1)!.lastLine).toBe(index.lineCount);
      expect(ranges.at(-1)!.endByte).toBe(index.size);
      ranges.forEach((r, i) => {
        if (i > 0) {
          expect(r.firstLine).toBe(ranges[i - 1]!.lastLine + 1);
          expect(r.startByte).toBe(ranges[i - 1]!.endByte);
          expect(bytes[r.startByte - 1]).toBe(0x0a);
        }
      });
    }
    expect(index.lineCount).toBe(41);
  });
});

/** {@link mapRangesOnPool}'s results, in range order. */
async function mapRanges<A, R>(spawnWorker: () => Worker | Promise<Worker>, task: RangeTask<A, R>, file: string, ranges: readonly LineRange[], arg: A): Promise<R[]> {
  const results: R[] = [];
  await mapRangesOnPool(spawnWorker, task, file, ranges, arg, (result, index) => {
    expect(index).toBe(results.length);
    results.push(result);
  });
  return results;
}

describe("mapRangesOnPool", () => {
  it("gives the same records as one in-thread pass, reading ranges on this thread and pool workers", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const whole: LineRange = { firstLine: 1, lastLine: index.lineCount, startByte: 0, endByte: index.size };
    const expected = (await countRange(file, whole, "t")).records;
    const ranges = await splitFileRanges(file, index, 3);
    expect(ranges.length).toBe(3);
    const parts = await mapRanges(spawn, countRange, file, ranges, "t");
    expect(parts.flatMap((p) => p.records)).toEqual(expected);
    expect(parts.map((p) => p.tag)).toEqual(["t", "t", "t"]);
  });

  it("reads a range in this thread when its worker cannot start", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const ranges = await splitFileRanges(file, index, 2);
    const broken = () => {
      throw new Error("no workers here");
    };
    const parts = await mapRanges(broken, countRange, file, ranges, "t");
    expect(parts.map((p) => p.threadId)).toEqual([threadId, threadId]);
    expect(parts.flatMap((p) => p.records).length).toBe(40);
  });

  it("reads every range in a worker, range 0 included, when the main thread must stay free", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const whole: LineRange = { firstLine: 1, lastLine: index.lineCount, startByte: 0, endByte: index.size };
    const expected = (await countRange(file, whole, "t")).records;
    const ranges = await splitFileRanges(file, index, 2);
    vi.stubEnv(WORKERS_ONLY_ENV, "1");
    const parts = await mapRanges(spawn, countRange, file, ranges, "t");
    expect(parts.flatMap((p) => p.records)).toEqual(expected);
    expect(parts.every((p) => p.threadId !== threadId)).toBe(true);
    // Without workers the ranges are still read, in this thread.
    const broken = () => {
      throw new Error("no workers here");
    };
    expect((await mapRanges(broken, countRange, file, ranges, "t")).map((p) => p.threadId)).toEqual([threadId, threadId]);
  });

  it("sends a lone big range to a worker when the main thread must stay free, a small one never", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const ranges = await splitFileRanges(file, index, 1);
    vi.stubEnv(WORKERS_ONLY_ENV, "1");
    vi.stubEnv("CASEFILE_WORKERS_MIN_BYTES", "0");
    const [big] = await mapRanges(spawn, countRange, file, ranges, "t");
    expect(big!.threadId).not.toBe(threadId);
    expect(big!.records.length).toBe(40);
    vi.stubEnv("CASEFILE_WORKERS_MIN_BYTES", String(index.size + 1));
    expect((await mapRanges(spawn, countRange, file, ranges, "t"))[0]!.threadId).toBe(threadId);
  });

  it("never runs more workers at once than the process's slots, however many passes overlap", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const ranges = await splitFileRanges(file, index, 3);
    vi.stubEnv(WORKERS_ONLY_ENV, "1");
    vi.stubEnv("CASEFILE_WORKERS", "2");
    let live = 0;
    let most = 0;
    const counted = async () => {
      const worker = await spawn();
      live += 1;
      most = Math.max(most, live);
      worker.once("exit", () => (live -= 1));
      return worker;
    };
    expect(maxRunningWorkers()).toBe(2);
    const [a, b] = await Promise.all([mapRanges(counted, countRange, file, ranges, "a"), mapRanges(counted, countRange, file, ranges, "b")]);
    expect(a.flatMap((p) => p.records)).toEqual(b.flatMap((p) => p.records));
    expect(a.flatMap((p) => p.records).length).toBe(40);
    expect(most).toBeLessThanOrEqual(2);
  });

  it.runIf(process.platform === "linux")("lowers the CPU priority of background work's workers only, never a request's nor the main thread's", async () => {
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 2);
    const own = getPriority();
    const low = Math.max(own, BACKGROUND_WORKER_NICE);
    vi.stubEnv(WORKERS_ONLY_ENV, "1");
    // Every range in the pool's worker (started before the pass), as [in a worker, its priority].
    const poolPass = async () => {
      const pool = new RangePool<string, Awaited<ReturnType<typeof countRange>>>(spawn, 1, { workersOnly: true });
      try {
        expect(await pool.ready()).toBe(1);
        const seen: [boolean, number][] = [];
        await pool.map(countRange, file, ranges, "t", (r) => seen.push([r.threadId !== threadId, r.priority]));
        return seen;
      } finally {
        await pool.close();
      }
    };
    // A request's pass: each at the process's priority.
    expect(await poolPass()).toEqual([[true, own], [true, own]]);
    // Background work's workers yield (serveRangeStream), however deep in the work the pool starts.
    expect(await inBackground(async () => {
      await Promise.resolve();
      return poolPass();
    })).toEqual([[true, low], [true, low]]);
    // The main thread is never lowered.
    expect(await inBackground(async () => yieldToForeground())).toBe(false);
    expect(getPriority()).toBe(own);
  });

  it("starts workers with bounded heaps in a server process", async () => {
    vi.stubEnv(WORKERS_ONLY_ENV, "1");
    const worker = await spawn();
    try {
      expect(worker.resourceLimits?.maxYoungGenerationSizeMb).toBe(WORKER_LIMITS.maxYoungGenerationSizeMb);
      expect(worker.resourceLimits?.maxOldGenerationSizeMb).toBe(WORKER_LIMITS.maxOldGenerationSizeMb);
    } finally {
      await worker.terminate();
    }
  });

  it("rethrows an error of the task itself", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const ranges = await splitFileRanges(file, index, 2);
    await expect(mapRanges(spawn, countRange, path.join(file, "missing"), ranges, "t")).rejects.toThrow();
  });
});

describe("bundledEntry", () => {
  it("bundles a TypeScript worker entry once, with its @/ imports inlined and its inputs listed", async () => {
    const entry = path.resolve("lib/jsonl/__fixtures__/count-stream-worker.ts");
    const bundle = await bundledEntry(entry);
    expect(bundle).not.toBeNull();
    expect(await bundledEntry(entry)).toBe(bundle);
    const code = await fs.readFile(bundle!, "utf8");
    expect(code).toContain("serveRangeStream");
    expect(code).not.toContain("@/lib/");
    const inputs = JSON.parse(await fs.readFile(bundle!.replace(/\.mjs$/, ".inputs.json"), "utf8")) as { inputs: { file: string }[] };
    expect(inputs.inputs.map((i) => path.basename(i.file))).toEqual(expect.arrayContaining(["count-stream-worker.ts", "count-range.ts", "range-pool.ts", "workers.ts", "record-walk.ts"]));
  });
});

describe("a worker's own workers", () => {
  it("start from a bundled worker: its modules find worker entries beside their sources", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const whole: LineRange = { firstLine: 1, lastLine: index.lineCount, startByte: 0, endByte: index.size };
    const expected = (await countRange(file, whole, "t")).records;
    const pool = new RangePool<string, Awaited<ReturnType<typeof nestedCount>>>(() => startWorker(import.meta.url, "./__fixtures__/nested-count-worker.ts"), 1, { workersOnly: true });
    try {
      let got: Awaited<ReturnType<typeof nestedCount>> | null = null;
      await pool.map(nestedCount, file, [whole], "t", (r) => (got = r));
      // The outer task ran on a worker, and the worker it started read the range (not the outer thread in its place).
      expect(got!.outer).not.toBe(threadId);
      expect(got!.inner).not.toBe(got!.outer);
      expect(got!.inner).not.toBe(-1);
      expect(got!.records).toEqual(expected);
    } finally {
      await pool.close();
    }
  });
});

describe("rangeCount", () => {
  it("keeps small files in one range and honours CASEFILE_WORKERS", () => {
    vi.stubEnv("CASEFILE_WORKERS", undefined);
    expect(rangeCount(1 << 20)).toBe(1);
    expect(rangeCount(1 << 30)).toBeGreaterThanOrEqual(1);
    vi.stubEnv("CASEFILE_WORKERS", "1");
    expect(rangeCount(1 << 30)).toBe(1);
    vi.stubEnv("CASEFILE_WORKERS", "3");
    expect(rangeCount(1 << 30)).toBe(3);
    expect(rangeCount(1 << 20)).toBe(1);
    // A caller's own minimum, which the environment still overrides.
    expect(rangeCount(1 << 28, 1 << 29)).toBe(1);
    expect(rangeCount(1 << 29, 1 << 29)).toBe(3);
    vi.stubEnv("CASEFILE_WORKERS_MIN_BYTES", "0");
    expect(rangeCount(1 << 20)).toBe(3);
    expect(rangeCount(1 << 20, 1 << 29)).toBe(3);
  });
});
