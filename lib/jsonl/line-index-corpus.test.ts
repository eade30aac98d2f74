/** The line index over the real transcript corpus. */
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { splitPhysicalLines } from "@/lib/testing/split-lines";

const CORPUS_DIR = path.resolve(process.cwd(), "../shared/corpus");
const CORPUS_FILES = existsSync(CORPUS_DIR)
  ? readdirSync(CORPUS_DIR, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
      .map((name) => path.join(CORPUS_DIR, name))
  : [];

describe("line index over the real transcript corpus", () => {
  if (CORPUS_FILES.length === 0) {
    it.skip(`../shared corpus not present (looked for .jsonl files under ${CORPUS_DIR})`, () => {});
    return;
  }
  for (const file of CORPUS_FILES) {
    it(path.relative(CORPUS_DIR, file), async () => {
      const bytes = await readFile(file);
      const expected = splitPhysicalLines(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes));
      const index = await buildLineIndex(file);
      expect(index.lineCount).toBe(expected.length);
      expect(index.size).toBe(bytes.length);
      const lines = index.lineCount === 0 ? [] : await readLineRange(file, index, 1, index.lineCount);
      expect(lines.map((l) => l.text)).toEqual(expected);
      expect(lines.every((l, i) => l.line === i + 1)).toBe(true);
      // An odd chunk size puts many boundaries across chunk edges.
      const chunked = await buildLineIndex(file, undefined, { chunkBytes: 4099 });
      expect(Array.from(chunked.starts)).toEqual(Array.from(index.starts));
    });
  }
});
