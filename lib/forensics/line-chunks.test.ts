/** Tests of the whole-line chunk readers (forEachLineChunk, forEachRangeChunk). */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { CHUNK_BYTES, forEachLineChunk, forEachRangeChunk } from "@/lib/forensics/line-chunks";
import { buildLineIndex, readLineRange, terminatorBytes } from "@/lib/jsonl/line-index";
import { makeTempDir } from "@/lib/testing/shared";

describe("forEachLineChunk", () => {
  it("holds every physical line in order, across chunks and lines longer than a chunk", async () => {
    const lines = ['{"a":1}', "x".repeat(1_500_000), '{"b":"é"}\r', "y".repeat(900_000), "", "z\u2028w", "last"];
    const file = path.join(await makeTempDir(), "a.jsonl");
    await fs.writeFile(file, `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)}`);
    const index = await buildLineIndex(file);
    const seen: string[] = [];
    await forEachLineChunk(file, index, (buf, base, first, last) => {
      for (let i = first; i <= last; i++) {
        const start = index.starts[i]! - base;
        const end = (i + 1 < index.lineCount ? index.starts[i + 1]! : index.size) - base;
        seen.push(`${i + 1}:${buf.toString("utf8", start, end - terminatorBytes(buf, start, end))}`);
      }
    });
    const expected = (await readLineRange(file, index, 1, index.lineCount)).map((l) => `${l.line}:${l.text}`);
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(8); // "z\u2028w" is two physical lines
  });
});

describe("forEachRangeChunk", () => {
  it("reads exactly the lines of a range, in whole-line chunks of at most CHUNK_BYTES (a longer line alone)", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => (i === 17 ? "L".repeat(CHUNK_BYTES + 10) : `{"i":${i},"pad":"${"p".repeat(60_000 + i)}"}`));
    const file = path.join(await makeTempDir(), "r.jsonl");
    const text = lines.map((l) => `${l}\n`).join("");
    await fs.writeFile(file, text);
    const index = await buildLineIndex(file);
    const [first, last] = [3, 36];
    const seen: number[] = [];
    let pieces = "";
    const shared = Buffer.alloc(CHUNK_BYTES);
    await forEachRangeChunk(file, index, first, last, (length) => (length <= shared.length ? shared.subarray(0, length) : Buffer.allocUnsafe(length)), (buf, base, a, b) => {
      expect(base).toBe(index.starts[a]);
      expect(buf.length).toBe((b + 1 < index.lineCount ? index.starts[b + 1]! : index.size) - base);
      if (a !== b) expect(buf.length).toBeLessThanOrEqual(CHUNK_BYTES);
      for (let i = a; i <= b; i++) seen.push(i);
      pieces += buf.toString("utf8");
    });
    expect(seen).toEqual(Array.from({ length: last - first + 1 }, (_, i) => first + i));
    expect(pieces).toBe(lines.slice(first, last + 1).map((l) => `${l}\n`).join(""));
  });

  it("goes on from the line a callback names when it stops early", async () => {
    const file = path.join(await makeTempDir(), "s.jsonl");
    await fs.writeFile(file, Array.from({ length: 6 }, (_, i) => `{"n":${i}}\n`).join(""));
    const index = await buildLineIndex(file);
    const firsts: number[] = [];
    await forEachLineChunk(file, index, (_buf, _base, a, b) => {
      firsts.push(a);
      return a < b ? a + 1 : undefined;
    });
    expect(firsts).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
