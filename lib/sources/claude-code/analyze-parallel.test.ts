/** Claude analysis over byte ranges in worker threads. */
import { readdirSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { buildLineIndex, type LineIndex } from "@/lib/jsonl/line-index";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/**
 * Issue 13: a big transcript is read in byte ranges on every core (worker threads) and folded in
 * file order. `CASEFILE_WORKERS` forces that path on small files: the analysis and the line index
 * it hands out must be exactly those of the one-thread pass.
 */
const saved = process.env.CASEFILE_WORKERS;
afterEach(() => {
  delete process.env.CASEFILE_WORKERS_MIN_BYTES;
  if (saved === undefined) delete process.env.CASEFILE_WORKERS;
  else process.env.CASEFILE_WORKERS = saved;
});

async function analyse(file: string, workers: number): Promise<{ analysis: unknown; index: LineIndex | null }> {
  process.env.CASEFILE_WORKERS = String(workers);
  process.env.CASEFILE_WORKERS_MIN_BYTES = "0";
  let index: LineIndex | null = null;
  const analysis = await analyzeClaudeTranscript(file, null, { onIndex: (i) => (index = i) });
  return { analysis, index };
}

async function expectSameAcrossRanges(file: string): Promise<void> {
  const one = await analyse(file, 1);
  const { scannedFromByte: _full, ...built } = await buildLineIndex(file);
  for (const workers of [3]) {
    const many = await analyse(file, workers);
    expect(many.analysis).toEqual(one.analysis);
    expect({ ...many.index!, starts: Array.from(many.index!.starts) }).toEqual({ ...built, starts: Array.from(built.starts) });
  }
}

describe("Claude analysis over byte ranges in worker threads", () => {
  it("agrees with the one-thread pass on a file with odd lines", async () => {
    const dir = await makeTempDir();
    const file = path.join(dir, "odd.jsonl");
    const human = (ms: number, content: unknown) => JSON.stringify({ type: "user", timestamp: new Date(Date.UTC(2026, 4, 12, 0, 0, 0, ms)).toISOString(), cwd: "/p", sessionId: "s", message: { role: "user", content } });
    const assistant = (id: string, tokens: unknown) => JSON.stringify({ type: "assistant", timestamp: "2026-05-12T00:00:01Z", message: { id, role: "assistant", usage: { output_tokens: tokens }, content: [{ type: "text", text: "x\u2028y" }] } });
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push(human(i * 10, i % 3 === 0 ? "   " : `prompt ${i}`), assistant(`a${i % 7}`, i), i % 5 === 0 ? '{"type":"user","broken":' : assistant(`b${i}`, 1) + "\r");
    await fs.writeFile(file, lines.join("\n") + "\n");
    await expectSameAcrossRanges(file);
  });

  // Workers take a while to start on a loaded runner: the largest corpus transcripts suffice
  // (every corpus file goes through the fold in analyze-bytes.test.ts).
  const corpus = path.join(SHARED_DIR, "corpus", "claude-code");
  const files = HAS_SHARED
    ? readdirSync(corpus, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl"))
        .map((f) => ({ f, size: statSync(path.join(corpus, f)).size }))
        .sort((a, b) => b.size - a.size || (a.f < b.f ? -1 : 1))
        .slice(0, 4)
        .map(({ f }) => f)
    : [];
  describe.skipIf(!HAS_SHARED)(`the largest corpus transcripts ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
    it.each(files)("%s", async (file) => {
      await expectSameAcrossRanges(path.join(SHARED_DIR, "corpus", "claude-code", file));
    });
  });
});
