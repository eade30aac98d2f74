import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import type { AppError } from "@/lib/errors";
import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { codex, toJsonl } from "@/lib/sources/codex/rollout-builder";
import { codexTurnUsage } from "@/lib/sources/codex/turn-usage";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const tok = (input: number, output: number, last: number, ms = 0) => codex.tokens({ input, output }, last, ms);
const turn = (ref: string, start: number, end: number) => ({ turn_ref: ref, turn_start_line: start, turn_end_line: end });

async function file(records: Record<string, unknown>[]): Promise<string> {
  const target = path.join(await makeTempDir("casefile-codex-usage-"), "rollout.jsonl");
  await fs.writeFile(target, toJsonl(records));
  return target;
}

describe("codexTurnUsage", () => {
  it("differences cumulative totals per indexed turn; snapshots between turns move the baseline", async () => {
    const target = await file([
      codex.meta(), // 1
      codex.user("a", 1), codex.assistant("x", 2), tok(1000, 100, 100, 3), tok(1000, 100, 100, 4), codex.taskComplete(5), // 2-6
      codex.user("off-window", 6), codex.assistant("y", 7), tok(2500, 160, 60, 8), codex.taskComplete(9), // 7-10, not indexed
      codex.taskStarted(10), codex.user("b", 11), codex.assistant("z", 12), tok(4000, 200, 40, 13), // 11-14
    ]);
    const rows = await codexTurnUsage(target, [turn("T0001", 2, 6), turn("T0002", 12, 99)]);
    expect(rows).toEqual([
      { turn_ref: "T0001", input_tokens: 1000, output_tokens: 100, total_tokens: 1100 },
      { turn_ref: "T0002", input_tokens: 1500, output_tokens: 40, total_tokens: 1540 },
    ]);
  });

  it("is all null for a turn without a snapshot or past the end of the file", async () => {
    const target = await file([codex.user("a", 1), codex.assistant("x", 2)]);
    const unknown = { input_tokens: null, output_tokens: null, total_tokens: null };
    expect(await codexTurnUsage(target, [turn("T0001", 1, 2), turn("T0002", 5, 6)])).toEqual([
      { turn_ref: "T0001", ...unknown },
      { turn_ref: "T0002", ...unknown },
    ]);
    expect(await codexTurnUsage(target, [])).toEqual([]);
  });

  it("throws not_found for a missing file", async () => {
    const error = await codexTurnUsage("/nonexistent/rollout.jsonl", [turn("T0001", 1, 1)]).catch((e: unknown) => e);
    expect((error as AppError).code).toBe("not_found");
  });

  it.skipIf(!HAS_SHARED)(`agrees with the analysis on a real rollout${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, async () => {
    const rollout = path.join(SHARED_DIR, "corpus/codex/codemie-ai__codemie-code/src/agents/plugins/codex/tests/fixtures/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl");
    const analysis = await analyzeCodexTranscript(rollout, null);
    const rows = await codexTurnUsage(rollout, analysis.turns);
    expect(rows.map((r) => [r.input_tokens, r.output_tokens, r.total_tokens])).toEqual(analysis.turns.map((t) => [t.usage.inputTokens, t.usage.outputTokens, t.usage.totalTokens]));
    expect(rows[1]!.output_tokens).toBe(8744);
  });
});
