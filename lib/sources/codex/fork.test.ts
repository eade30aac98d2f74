/** Tests of Codex fork inheritance (contract §1.8 step 5). */
import { describe, expect, it } from "vitest";

import { inheritedTurnStarts, type CodexForkHistory } from "@/lib/sources/codex/fork";
import { applyForkInheritance, sessionsNeedingForkHistory, type ForkableSession } from "@/lib/sources/codex/select";

/** A history whose turns start at lines 10, 20, 30… with the given fingerprints. */
const history = (parentId: string | null, fingerprints: string[]): CodexForkHistory => ({
  parentId,
  turns: fingerprints.map((fingerprint, i) => ({ startLine: (i + 1) * 10, fingerprint })),
});
const starts = (set: Set<number>) => [...set].sort((a, b) => a - b);

describe("inheritedTurnStarts (contract §1.8 step 5)", () => {
  it("drops only the leading turns found in the parent", () => {
    const selected = new Map([["P", history(null, ["a", "b"])]]);
    expect(starts(inheritedTurnStarts("C", history("P", ["a", "b", "c"]), selected))).toEqual([10, 20]);
    expect(starts(inheritedTurnStarts("C", history("P", ["a", "x", "b"]), selected))).toEqual([10]);
    expect(starts(inheritedTurnStarts("C", history("P", ["x", "a"]), selected))).toEqual([]);
  });

  it("uses the whole ancestor chain, and a known parent proves inheritance without its own parent", () => {
    const chain = new Map([["P", history("G", ["p"])], ["G", history(null, ["g"])]]);
    expect(starts(inheritedTurnStarts("C", history("P", ["g", "p", "c"]), chain))).toEqual([10, 20]);
    const orphanParent = new Map([["P", history("G-missing", ["p"])]]);
    expect(starts(inheritedTurnStarts("C", history("P", ["p", "c"]), orphanParent))).toEqual([10]);
  });

  it("keeps every turn for a missing parent, a cycle, an ambiguous ancestor or an unprovable fork", () => {
    expect(starts(inheritedTurnStarts("C", history("P", ["a"]), new Map()))).toEqual([]);
    const cycle = new Map([["P", history("C", ["a"])], ["C", history("P", ["a"])]]);
    expect(starts(inheritedTurnStarts("C", history("P", ["a"]), cycle))).toEqual([]);
    expect(starts(inheritedTurnStarts("C", history("P", ["a"]), new Map([["P", null]])))).toEqual([]);
    expect(starts(inheritedTurnStarts("C", null, new Map([["P", history(null, ["a"])]])))).toEqual([]);
    expect(starts(inheritedTurnStarts("C", history(null, ["a"]), new Map([["P", history(null, ["a"])]])))).toEqual([]);
  });
});

describe("applyForkInheritance", () => {
  const session = (source: string, id: string, fork: CodexForkHistory | null, lines: number[]): ForkableSession => ({
    source,
    sourceSessionId: id,
    sourcePath: `/src/${id}.jsonl`,
    turns: lines.map((l) => ({ turn_start_line: l, turn_end_line: l + 5 })),
    fork,
  });

  it("drops inherited leading turns, removes fully inherited forks with a reason, and leaves other sources alone", () => {
    const parent = session("codex", "P", history(null, ["a", "b"]), [10, 20]);
    const partial = session("codex", "C1", history("P", ["a", "c"]), [10, 20]);
    const full = session("codex", "C2", history("P", ["a", "b"]), [10, 20]);
    const claude = session("claude-code", "P", null, [1]);
    const skipped: { path: string; reason: string }[] = [];
    const kept = applyForkInheritance([parent, partial, full, claude], skipped);
    expect(kept.map((s) => [s.sourceSessionId, s.turns.map((t) => t.turn_start_line)])).toEqual([["P", [10, 20]], ["C1", [20]], ["P", [1]]]);
    expect(skipped).toEqual([{ path: "/src/C2.jsonl", reason: "Codex fork of P: every turn is inherited from its selected ancestors" }]);
  });

  it("an off-window parent turn still proves inheritance (fingerprints cover every trigger)", () => {
    const parent = session("codex", "P", history(null, ["off-day", "a"]), [20]);
    const child = session("codex", "C", history("P", ["off-day", "a", "new"]), [20, 30]);
    const kept = applyForkInheritance([parent, child], []);
    expect(kept[1]!.turns.map((t) => t.turn_start_line)).toEqual([30]);
  });
});

describe("sessionsNeedingForkHistory (fingerprints only where inheritance reads them, issue 13)", () => {
  const codex = (id: string, forkCandidate: { parentId: string | null } | null, source = "codex") => ({ source, sourceSessionId: id, forkCandidate });

  it("names qualifying forks and the selected ancestors their chain reaches, nothing else", () => {
    const sessions = [
      codex("G", { parentId: null }),
      codex("P", { parentId: "G" }),
      codex("C", { parentId: "P" }),
      codex("lonely", { parentId: null }),
      codex("orphan", { parentId: "missing" }),
      codex("unproven", null),
      codex("child-of-unproven", { parentId: "unproven" }),
      codex("X", { parentId: "G" }, "claude-code"),
    ];
    expect([...sessionsNeedingForkHistory(sessions)].sort()).toEqual(["C", "G", "P", "child-of-unproven", "orphan"]);
  });

  it("stops at a cycle", () => {
    expect([...sessionsNeedingForkHistory([codex("A", { parentId: "B" }), codex("B", { parentId: "A" })])].sort()).toEqual(["A", "B"]);
  });
});
