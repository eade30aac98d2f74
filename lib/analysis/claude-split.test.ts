/** Tests of the Claude scan split in ranges: path tokens, the record walk, map and reduce. */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

import { PATHISH, mapClaudeRange, pathTokens, type ClaudeFacts } from "@/lib/analysis/claude-map";
import { walkRecords } from "@/lib/jsonl/record-walk";
import { reduceClaudeFacts, scanClaudeSession } from "@/lib/analysis/scan-claude";
import { splitRecordRanges } from "@/lib/jsonl/record-walk";
import { RangePool } from "@/lib/jsonl/range-pool";
import { startWorker } from "@/lib/jsonl/workers";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE, makeTempDir } from "@/lib/testing/shared";

/**
 * Every record of the whole file, the plain way (reference): the bytes split on `\n`, each record
 * on the line after the previous one's physical breaks (contract §1.6; a `\r` before the `\n` is
 * part of it): [line, length, first bytes].
 */
async function streamed(file: string): Promise<[number, number, string][]> {
  const bytes = await fs.readFile(file);
  const out: [number, number, string][] = [];
  let line = 1;
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const rec = bytes.subarray(start, nl === -1 ? bytes.length : nl);
    out.push([line, rec.length, rec.toString("latin1", 0, 16)]);
    const inner = nl !== -1 && rec.at(-1) === 0x0d ? rec.subarray(0, -1) : rec;
    line += 1 + (inner.toString("latin1").match(/[\r\v\f\x1c\x1d\x1e]|\xc2\x85|\xe2\x80[\xa8\xa9]/g)?.length ?? 0);
    start = nl === -1 ? bytes.length : nl + 1;
  }
  return out;
}

/** The same through walkRecords over `parts` ranges, lines rebased as the reduce does. */
async function walked(file: string, parts: number, chunkBytes?: number): Promise<[number, number, string][]> {
  const { size } = await fs.stat(file);
  const out: [number, number, string][] = [];
  let offset = 0;
  for (const range of await splitRecordRanges(file, size, parts)) {
    const base = offset;
    const end = await walkRecords(file, range.startByte, range.endByte, (bytes, line) => void out.push([base + line, bytes.length, bytes.toString("latin1", 0, 16)]), { chunkBytes });
    offset += end.nextLine - 1;
  }
  return out;
}

describe("pathTokens", () => {
  it("finds exactly the matches of the path-token regex, in order (random texts)", () => {
    // A fixed pseudo-random sequence: the same texts on every run.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const alphabet of [["a", "Z", "1", ".", ".", "_", "-", "@", "+", "~", " ", "/", "é", "\\", "x", "9", ":"], ["a", "1", ".", "b", "_", " "]]) {
      for (let i = 0; i < 5_000; i++) {
        let text = "";
        for (let j = Math.floor(next() * 40); j > 0; j--) text += alphabet[Math.floor(next() * alphabet.length)];
        const found: string[] = [];
        pathTokens(text, (t) => found.push(t));
        expect(found, JSON.stringify(text)).toEqual([...text.matchAll(PATHISH)].map((m) => m[0]));
      }
    }
  });
});

describe("walkRecords", () => {
  it("yields the records and physical line numbers of a plain split, whatever the split and read size", async () => {
    const dir = await makeTempDir();
    const file = path.join(dir, "breaks.jsonl");
    // Raw U+2028/U+2029/U+0085, \v, \f, \x1c, lone \r, \r\n, blank records, a long record, no final \n.
    const records = [
      '{"a":"x\u2028y"}',
      '{"b":"\u2029\u0085\u000b\u000c\u001c\u001d\u001e"}',
      "",
      '{"c":"lone\rcr"}\r',
      "{}",
      JSON.stringify({ long: "z\u2028".repeat(3000) }),
      '{"é":"\u00e9\u2027\u2030"}',
      '{"end":1}',
    ];
    await fs.writeFile(file, records.join("\n"));
    const expected = await streamed(file);
    for (const parts of [1, 2, 3, 5]) for (const chunk of [7, 64, 1 << 16]) expect(await walked(file, parts, chunk)).toEqual(expected);
  });

  it.skipIf(!HAS_SHARED)("matches a plain split on every Claude Code corpus transcript", async () => {
    const files = (await listFilesRecursive(path.join(SHARED_DIR, "corpus/claude-code"))).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(await walked(file, 3, 4096), file).toEqual(await streamed(file));
  });
});

describe("scanClaudeSession map/reduce", () => {
  it.skipIf(!HAS_SHARED)("gives the one-range result for every split of every corpus transcript", async () => {
    if (!HAS_SHARED) return console.warn(SKIP_SHARED_MESSAGE);
    const files = (await listFilesRecursive(path.join(SHARED_DIR, "corpus/claude-code"))).filter((f) => f.endsWith(".jsonl"));
    for (const file of files) {
      const whole = await scanClaudeSession(file, 10_000);
      const { size } = await fs.stat(file);
      for (const parts of [2, 3, 8]) {
        const ranges = await splitRecordRanges(file, size, parts);
        const facts = await Promise.all(ranges.map((range) => mapClaudeRange(file, range)));
        expect(reduceClaudeFacts(facts, 10_000), `${file} in ${parts}`).toEqual(whole);
      }
    }
  });
});

describe("scanClaudeSession in workers", () => {
  it.skipIf(!HAS_SHARED)("a range mapped in the worker entry reduces to the one-thread result", async () => {
    const file = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl");
    const { size } = await fs.stat(file);
    const ranges = await splitRecordRanges(file, size, 2);
    expect(ranges).toHaveLength(2);
    const warn = vi.spyOn(console, "warn");
    const pool = new RangePool<undefined, ClaudeFacts>(() => startWorker(import.meta.url, "./claude-worker.ts"), 1, { workersOnly: true });
    const facts: ClaudeFacts[] = [];
    try {
      // Started before the pass, the worker maps both ranges: no in-thread fallback.
      expect(await pool.ready()).toBe(1);
      await pool.map(mapClaudeRange, file, ranges, undefined, (part) => facts.push(part));
    } finally {
      await pool.close();
    }
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(reduceClaudeFacts(facts, 10_000)).toEqual(await scanClaudeSession(file, 10_000));
  });
});
