/** Codex analysis over byte ranges in worker threads. */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { buildLineIndex, type LineIndex } from "@/lib/jsonl/line-index";
import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { CodexUsageLog } from "@/lib/sources/codex/token-usage";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/**
 * Issue 13: prepare's first pass (no fingerprints) reads a big envelope-format rollout in byte
 * ranges on every core and folds the records in file order. `CASEFILE_WORKERS` with
 * `CASEFILE_WORKERS_MIN_BYTES=0` forces that path on small files: the analysis, the per-turn
 * usage and the line index must be exactly those of the one-thread pass that parses every line.
 */
const saved = process.env.CASEFILE_WORKERS;
afterEach(() => {
  delete process.env.CASEFILE_WORKERS_MIN_BYTES;
  if (saved === undefined) delete process.env.CASEFILE_WORKERS;
  else process.env.CASEFILE_WORKERS = saved;
});

/**
 * The analysis, usage and line index of `file` on `workers` threads (1: this thread only, every
 * line parsed); with `withIndex` false no `onIndex` is passed (index null).
 */
async function analysed(file: string, workers: number, withIndex = true, skim = workers > 1) {
  process.env.CASEFILE_WORKERS = String(workers);
  process.env.CASEFILE_WORKERS_MIN_BYTES = "0";
  const usageLog = new CodexUsageLog();
  let index: LineIndex | null = null;
  const onIndex = withIndex ? (i: LineIndex) => (index = i) : undefined;
  const analysis = await analyzeCodexTranscript(file, null, usageLog, { fingerprints: false, skim, onIndex });
  const starts = index === null ? null : Array.from((index as LineIndex).starts);
  return { analysis, usage: usageLog.usageOf(analysis.turns), index: index === null ? null : { ...(index as LineIndex), starts } };
}

async function expectSameOnWorkers(file: string): Promise<void> {
  const one = await analysed(file, 1);
  const many = await analysed(file, 3);
  expect(many, file).toEqual(one);
  // The one-thread skim (prepare's pass below the pool's size: envelopes skimmed, shared records) alike.
  expect(await analysed(file, 1, true, true), file).toEqual(one);
  // prepare's first pass asks for no index (selectCodexSession without onIndex).
  expect(await analysed(file, 3, false), file).toEqual({ ...one, index: null });
  if (one.index !== null) {
    const { scannedFromByte: _full, ...built } = await buildLineIndex(file);
    expect(one.index, file).toEqual({ ...built, starts: Array.from(built.starts) });
  }
}

function rolloutFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name));
}

const line = (o: unknown) => JSON.stringify(o);
const ts = (s: number) => new Date(Date.UTC(2026, 4, 11, 8, 0, s)).toISOString();
const meta = (id: string, extra: Record<string, unknown> = {}) => line({ timestamp: ts(0), type: "session_meta", payload: { id, cwd: "/w", originator: "codex-tui", ...extra } });

/** A rollout of `turns` turns with odd lines: \r and U+2028 terminators, blank and malformed lines, long context. */
function rollout(first: string, turns: number, middle: string[] = []): string {
  const lines = [first];
  for (let i = 0; i < turns; i++) {
    lines.push(line({ timestamp: ts(i), type: "turn_context", payload: { cwd: "/w", instructions: "i".repeat(i * 97) } }));
    lines.push(line({ timestamp: ts(i), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: `prompt ${i}` }] } }));
    lines.push(line({ timestamp: ts(i), type: "event_msg", payload: { type: "user_message", message: `prompt ${i}` } }) + (i % 4 === 0 ? "\r" : ""));
    lines.push(line({ timestamp: ts(i), type: "response_item", payload: { type: "reasoning", summary: [{ type: "summary_text", text: `think\u2028${i}` }] } }));
    lines.push(line({ timestamp: ts(i), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 10 * i, output_tokens: 5 * i, total_tokens: 15 * i }, last_token_usage: { output_tokens: 5 } } } }));
    if (i % 7 === 3) lines.push("", '{"timestamp":"broken",');
    if (i === turns >> 1) lines.push(...middle);
    lines.push(line({ timestamp: ts(i), type: "event_msg", payload: { type: "task_complete" } }));
  }
  return `${lines.join("\n")}\n`;
}

describe("Codex analysis over byte ranges in worker threads", () => {
  // The first pool of the run waits for the worker bundle to be built: until then this thread
  // maps every range of a small file, and the workers' half would go untested.
  beforeAll(async () => {
    const dir = await makeTempDir("codex-pool-");
    const file = path.join(dir, "warm-up.jsonl");
    writeFileSync(file, rollout(meta("019e0000-0000-7000-8000-000000000009"), 100));
    await analysed(file, 3);
  }, 60_000);

  const cases: [string, () => string][] = [
    ["an envelope rollout with odd lines", () => rollout(meta("019e0000-0000-7000-8000-000000000001"), 100)],
    ["a malformed first line (read in one thread)", () => rollout('{"timestamp":', 30)],
    ["a legacy header first (read in one thread)", () => rollout(line({ id: "981d779b-eff6-469e-bb55-b423fe135b79", timestamp: ts(0), instructions: "" }), 30)],
    ["a child session (stops at line 1)", () => rollout(meta("019e0000-0000-7000-8000-000000000002", { thread_source: "subagent" }), 30)],
    ["an excluding session_meta mid-file (the fold stops there)", () => rollout(meta("019e0000-0000-7000-8000-000000000003"), 60, [meta("019e0000-0000-7000-8000-000000000004", { originator: "prompt_diary" })])],
  ];
  it.each(cases)("agrees with the one-thread pass on %s", async (_name, make) => {
    const dir = await makeTempDir("codex-pool-");
    const file = path.join(dir, "rollout-2026-05-11T08-00-00-019e0000-0000-7000-8000-000000000001.jsonl");
    writeFileSync(file, make());
    await expectSameOnWorkers(file);
  });

  it("the mid-file exclusion stops before the end and hands out no line index", async () => {
    const dir = await makeTempDir("codex-pool-");
    const file = path.join(dir, "rollout-2026-05-11T08-00-00-019e0000-0000-7000-8000-000000000003.jsonl");
    const text = rollout(meta("019e0000-0000-7000-8000-000000000003"), 60, [meta("019e0000-0000-7000-8000-000000000004", { originator: "prompt_diary" })]);
    writeFileSync(file, text);
    const many = await analysed(file, 3);
    expect(many.index).toBeNull();
    expect(many.analysis.reportReason).not.toBeNull();
    expect(many.analysis.lineCount).toBeLessThan(text.split("\n").length - 1);
  });

  it.skipIf(!HAS_SHARED)(`agrees on every Codex transcript of the corpus and the fixture workspaces${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, async () => {
    const files = [...rolloutFiles(path.join(SHARED_DIR, "corpus", "codex")), ...rolloutFiles(path.join(SHARED_DIR, "fixtures")).filter((f) => f.split(path.sep).includes("codex"))];
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) await expectSameOnWorkers(file);
  }, 60_000);
});
