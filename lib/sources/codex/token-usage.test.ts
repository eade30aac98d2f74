/** Codex output tokens and display usage per turn. */
import { describe, expect, it } from "vitest";

import { analyzeCodexLines } from "@/lib/sources/codex/analyze-core";
import { codex, toLines } from "@/lib/sources/codex/rollout-builder";

type Rec = Record<string, unknown>;
const analyse = (records: (Rec | string)[]) => analyzeCodexLines(toLines(records), null);
const output = (records: (Rec | string)[]) => analyse(records).turns.map((t) => t.outputTokens);
const tok = (input: number, out: number, last: number, ms = 0) => codex.tokens({ input, output: out }, last, ms);

describe("Codex output tokens per turn (contract §1.8 step 6)", () => {
  it("counts every response once, even with duplicate snapshots", () => {
    const records = [codex.user("go", 0), codex.assistant("a", 1), tok(1000, 50, 50, 2), tok(1000, 50, 50, 3), codex.assistant("b", 4), tok(2100, 120, 70, 5), codex.taskComplete(6)];
    expect(output(records)).toEqual([120]);
  });

  it("an echo does not split the turn, and cumulative totals are differenced per turn", () => {
    const records = [
      codex.user("a", 0), codex.userEvent("a", 0), codex.assistant("x", 1), tok(900, 100, 100, 2), codex.taskComplete(3),
      codex.taskStarted(4), codex.turnContext(5), codex.user("b", 6), codex.assistant("y", 7), tok(2000, 250, 150, 8), codex.taskComplete(9),
    ];
    const analysis = analyse(records);
    expect(analysis.turns.map((t) => [t.turn_start_line, t.turn_end_line, t.outputTokens])).toEqual([[1, 5, 100], [8, 11, 150]]);
    expect(analysis.turns.map((t) => t.usage)).toEqual([
      { inputTokens: 900, outputTokens: 100, totalTokens: 1000 },
      { inputTokens: 1100, outputTokens: 150, totalTokens: 1250 },
    ]);
  });

  it("takes the baseline from snapshots before the first trigger", () => {
    const records = [codex.meta(), tok(4000, 500, 100, 0), codex.user("go", 1), codex.assistant("a", 2), tok(5000, 650, 150, 3), codex.taskComplete(4)];
    const [turn] = analyse(records).turns;
    expect(turn).toMatchObject({ outputTokens: 150, usage: { inputTokens: 1000, outputTokens: 150, totalTokens: 1150 } });
  });

  it.each([
    ["no snapshot at all", [codex.user("go", 0), codex.assistant("a", 1), codex.taskComplete(2)]],
    ["missing baseline (first snapshot is not a fresh start)", [codex.user("go", 0), codex.assistant("a", 1), tok(1, 300, 100, 2), codex.taskComplete(3)]],
    ["a decreasing total", [codex.user("go", 0), codex.assistant("a", 1), tok(1, 100, 100, 2), codex.assistant("b", 3), tok(1, 50, 50, 4), codex.taskComplete(5)]],
    ["generation after the last snapshot", [codex.user("go", 0), codex.assistant("a", 1), tok(1, 100, 100, 2), codex.call("shell", {}, 3), codex.taskComplete(4)]],
    ["an open last turn", [codex.user("go", 0), codex.assistant("a", 1), tok(1, 100, 100, 2)]],
    ["zero tokens although something was generated", [tok(1, 100, 100, 0), codex.user("go", 1), codex.assistant("a", 2), tok(2, 100, 0, 3), codex.taskComplete(4)]],
    ["a context-only token event", [codex.user("go", 0), codex.assistant("a", 1), codex.tokens(null, 0, 2), codex.taskComplete(3)]],
  ])("is unknown with %s", (_name, records) => {
    expect(output(records)).toEqual([null]);
  });

  it.each([-1, 1.5, "5", true, null])("is unknown when output_tokens is %j", (bad) => {
    const snapshot = tok(1, 100, 100, 2);
    (((snapshot.payload as Rec).info as Rec).total_token_usage as Rec).output_tokens = bad;
    expect(output([codex.user("go", 0), codex.assistant("a", 1), snapshot, codex.taskComplete(3)])).toEqual([null]);
  });

  it("accepts zero when nothing was generated, and turn_aborted / task_failed as terminal", () => {
    expect(output([tok(1, 100, 100, 0), codex.user("go", 1), tok(2, 100, 0, 2), codex.taskComplete(3)])).toEqual([0]);
    expect(output([codex.user("go", 0), codex.assistant("a", 1), tok(1, 40, 40, 2), codex.turnAborted(3)])).toEqual([40]);
    const failed = { ...codex.taskComplete(3), payload: { type: "task_failed" } };
    expect(output([codex.user("go", 0), codex.assistant("a", 1), tok(1, 40, 40, 2), failed])).toEqual([40]);
  });

  it("a later trigger closes a turn without task_complete", () => {
    expect(output([codex.user("a", 0), codex.assistant("x", 1), tok(1, 100, 100, 2), codex.user("b", 3), codex.assistant("y", 4)])).toEqual([100, null]);
  });

  it("malformed lines or untimestamped triggers make every turn unknown", () => {
    const good = [codex.user("go", 0), codex.assistant("a", 1), tok(1, 100, 100, 2), codex.taskComplete(3)];
    expect(output([...good, "{oops"])).toEqual([null]);
    expect(output([...good, { ...codex.userEvent("later"), timestamp: null }])).toEqual([null]);
  });
});

describe("Codex display usage per turn", () => {
  it("is known for an open turn whose last snapshot is final, and null without a snapshot", () => {
    const analysis = analyse([codex.user("a", 0), codex.assistant("x", 1), tok(300, 20, 20, 2), codex.user("b", 3), codex.assistant("y", 4)]);
    expect(analysis.turns.map((t) => t.usage)).toEqual([
      { inputTokens: 300, outputTokens: 20, totalTokens: 320 },
      { inputTokens: null, outputTokens: null, totalTokens: null },
    ]);
    const open = analyse([codex.user("a", 0), codex.assistant("x", 1), tok(300, 20, 20, 2), codex.assistant("more", 3)]).turns[0]!;
    expect(open).toMatchObject({ outputTokens: null, usage: { outputTokens: 20 } });
  });

  it("is unknown without a baseline or after a reset", () => {
    expect(analyse([codex.user("a", 0), tok(300, 50, 20, 2)]).turns[0]!.usage.outputTokens).toBeNull();
    expect(analyse([tok(300, 50, 50, 0), codex.user("a", 1), tok(100, 60, 10, 2)]).turns[0]!.usage.inputTokens).toBeNull();
  });
});
