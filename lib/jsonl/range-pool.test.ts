/** Tests of RangePool and withoutTsxLoader. */
import fs from "node:fs/promises";
import path from "node:path";
import { threadId } from "node:worker_threads";

import { describe, expect, it, vi } from "vitest";

import { countRange } from "@/lib/jsonl/__fixtures__/count-range";
import { buildLineIndex } from "@/lib/jsonl/line-index";
import { poolRanges, RangePool, splitFileRanges } from "@/lib/jsonl/range-pool";
import { inBackground, startWorker, withoutTsxLoader, type LineRange } from "@/lib/jsonl/workers";
import { makeTempDir } from "@/lib/testing/shared";

type Counted = Awaited<ReturnType<typeof countRange>>;
const spawn = () => startWorker(import.meta.url, "./__fixtures__/count-stream-worker.ts");

/** 60 records of growing length, one ending in \r\n. */
async function sampleFile(): Promise<string> {
  const dir = await makeTempDir();
  const file = path.join(dir, "s.jsonl");
  const records = Array.from({ length: 60 }, (_, i) => JSON.stringify({ i, pad: "x".repeat(i * 11) }));
  await fs.writeFile(file, records.map((r, i) => r + (i === 30 ? "\r\n" : "\n")).join(""));
  return file;
}

async function expected(file: string): Promise<[number, number][]> {
  const index = await buildLineIndex(file);
  const whole: LineRange = { firstLine: 1, lastLine: index.lineCount, startByte: 0, endByte: index.size };
  return (await countRange(file, whole, "t")).records;
}

describe("RangePool", () => {
  it("maps many ranges on this thread and a worker, handing results over in range order", async () => {
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 20);
    expect(ranges.length).toBeGreaterThan(10);
    const pool = new RangePool<string, Counted>(spawn, 1);
    try {
      expect(await pool.ready()).toBe(1);
      const seen: Counted[] = [];
      const order: number[] = [];
      await pool.map(countRange, file, ranges, "t", (r, i) => {
        seen.push(r);
        order.push(i);
      });
      expect(order).toEqual(ranges.map((_, i) => i));
      expect(seen.flatMap((r) => r.records)).toEqual(await expected(file));
      // The worker took the queue's front before this thread took its first range.
      expect(seen[0]!.threadId).not.toBe(threadId);
      expect(seen.some((r) => r.threadId === threadId)).toBe(true);
      // A second pass on the same workers.
      const again: Counted[] = [];
      await pool.map(countRange, file, ranges.slice(0, 5), "u", (r) => again.push(r));
      expect(again.map((r) => r.tag)).toEqual(["u", "u", "u", "u", "u"]);
    } finally {
      await pool.close();
    }
  });

  it("with workersOnly, leaves the ranges to running workers", async () => {
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 12);
    const pool = new RangePool<string, Counted>(spawn, 1, { workersOnly: true });
    try {
      expect(await pool.ready()).toBe(1);
      const seen: Counted[] = [];
      await pool.map(countRange, file, ranges, "t", (r) => seen.push(r));
      expect(seen.every((r) => r.threadId !== threadId)).toBe(true);
      expect(seen.flatMap((r) => r.records)).toEqual(await expected(file));
    } finally {
      await pool.close();
    }
  });

  it("maps every range on this thread when workers cannot start", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 6);
    const pool = new RangePool<string, Counted>(() => {
      throw new Error("no workers here");
    }, 2, { workersOnly: true });
    try {
      expect(await pool.ready()).toBe(0);
      const seen: Counted[] = [];
      await pool.map(countRange, file, ranges, "t", (r) => seen.push(r));
      expect(seen.every((r) => r.threadId === threadId)).toBe(true);
      expect(seen.flatMap((r) => r.records)).toEqual(await expected(file));
    } finally {
      await pool.close();
      warn.mockRestore();
    }
  });

  it("takes the process's worker slots: a second pool's worker waits until the first pool closes", async () => {
    vi.stubEnv("CASEFILE_WORKERS", "1");
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 8);
    const first = new RangePool<string, Counted>(spawn, 1, { workersOnly: true });
    let second: RangePool<string, Counted> | null = null;
    try {
      expect(await first.ready()).toBe(1);
      second = new RangePool<string, Counted>(spawn, 1, { workersOnly: true });
      let secondReady = false;
      const ready = second.ready().then((n) => {
        secondReady = true;
        return n;
      });
      // The one slot is held: the second pool's pass waits rather than mapping on this thread.
      const seen: Counted[] = [];
      const pass = second.map(countRange, file, ranges, "t", (r) => seen.push(r));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(secondReady).toBe(false);
      expect(seen).toEqual([]);
      const firstSeen: Counted[] = [];
      await first.map(countRange, file, ranges, "f", (r) => firstSeen.push(r));
      expect(firstSeen.flatMap((r) => r.records)).toEqual(await expected(file));
      await first.close();
      expect(await ready).toBe(1);
      await pass;
      expect(seen.flatMap((r) => r.records)).toEqual(await expected(file));
    } finally {
      await first.close();
      await second?.close();
      vi.unstubAllEnvs();
    }
  });

  it("gives a freed slot to a request's pool before background work that waited longer", async () => {
    vi.stubEnv("CASEFILE_WORKERS", "1");
    const holder = new RangePool<string, Counted>(spawn, 1, { workersOnly: true });
    const pools: RangePool<string, Counted>[] = [];
    try {
      expect(await holder.ready()).toBe(1);
      const order: string[] = [];
      const background = await inBackground(async () => new RangePool<string, Counted>(spawn, 1, { workersOnly: true }));
      const request = new RangePool<string, Counted>(spawn, 1, { workersOnly: true });
      pools.push(background, request);
      const both = [background.ready().then(() => order.push("background")), request.ready().then(() => order.push("request"))];
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(order).toEqual([]);
      await holder.close();
      await request.ready();
      await request.close();
      await Promise.all(both);
      expect(order).toEqual(["request", "background"]);
    } finally {
      await holder.close();
      for (const pool of pools) await pool.close();
      vi.unstubAllEnvs();
    }
  });

  it("gives a dead worker's ranges to the workers left, even when they are idle", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 2);
    expect(ranges.length).toBe(2);
    const pool = new RangePool<string, Counted>(spawn, 2, { workersOnly: true });
    try {
      expect(await pool.ready()).toBe(2);
      // The first worker takes both ranges and dies on the first; the second has none in flight.
      const seen: Counted[] = [];
      await pool.map(countRange, file, ranges, "die", (r) => seen.push(r));
      expect(seen.flatMap((r) => r.records)).toEqual(await expected(file));
    } finally {
      await pool.close();
      warn.mockRestore();
    }
  });

  it("rethrows an error of the task (in a worker too) and of onResult", async () => {
    const file = await sampleFile();
    const ranges = await splitFileRanges(file, await buildLineIndex(file), 6);
    const pool = new RangePool<string, Counted>(spawn, 1);
    try {
      await pool.ready();
      await expect(pool.map(countRange, path.join(file, "missing"), ranges, "t", () => undefined)).rejects.toThrow();
      await expect(
        pool.map(countRange, file, ranges, "t", (_, i) => {
          if (i === 2) throw new Error("reduce failed");
        }),
      ).rejects.toThrow("reduce failed");
    } finally {
      await pool.close();
    }
  });

  it("cuts a file in contiguous ranges after a \\n, at least 8 per thread, in 8 MiB then 1 MiB ones", async () => {
    const file = await sampleFile();
    const index = await buildLineIndex(file);
    const bytes = await fs.readFile(file);
    const ranges = poolRanges(file, index, 2);
    expect(ranges.length).toBeGreaterThan(10);
    expect(ranges[0]!.firstLine).toBe(1);
    expect(ranges.at(-1)!.lastLine).toBe(index.lineCount);
    expect(ranges.at(-1)!.endByte).toBe(index.size);
    ranges.forEach((r, i) => {
      if (i === 0) return;
      expect(r.firstLine).toBe(ranges[i - 1]!.lastLine + 1);
      expect(r.startByte).toBe(ranges[i - 1]!.endByte);
      expect(bytes[r.startByte - 1]).toBe(0x0a);
    });
    // A 40 MiB file of 1 KiB lines on one thread: 8 MiB ranges, then four of 1 MiB.
    const big = path.join(path.dirname(file), "big.jsonl");
    await fs.writeFile(big, `${"x".repeat(1023)}\n`.repeat(40 << 10));
    const sizes = poolRanges(big, await buildLineIndex(big), 1).map((r) => r.endByte - r.startByte);
    expect(sizes).toEqual([8, 8, 8, 8, 4, 1, 1, 1, 1].map((mib) => mib << 20));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(40 << 20);
  });
});

describe("withoutTsxLoader", () => {
  it("drops tsx's loader flags from a worker's execArgv and keeps the rest", () => {
    expect(withoutTsxLoader(["--require", "/x/node_modules/tsx/dist/preflight.cjs", "--import", "file:///x/node_modules/tsx/dist/loader.mjs"])).toEqual([]);
    expect(withoutTsxLoader(["--import", "tsx", "--max-old-space-size=512", "--import=tsx", "--require", "./other.cjs"])).toEqual(["--max-old-space-size=512", "--require", "./other.cjs"]);
  });
});
