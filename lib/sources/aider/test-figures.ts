/** Test helper: the figures of an Aider session that the fixture and corpus tests assert exactly. */
import type { AgentTranscript } from "@/lib/sources/common/agent-source";

/** Counts and totals of one transcript (cost rounded to 6 decimals, null when no line has one). */
export type TranscriptFigures = {
  records: number;
  turns: number;
  calls: number;
  files: string[];
  results: number;
  errors: number;
  modelChanges: string[];
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number | null;
  startedAt: string | null;
  warnings: number;
};

/** The figures of `t`. */
export function figuresOf(t: AgentTranscript): TranscriptFigures {
  const usage = t.records.flatMap((r) => r.usage);
  const costs = usage.map((u) => u.costUsd).filter((c): c is number => c !== null);
  const sum = (pick: (u: (typeof usage)[number]) => number) => usage.reduce((total, u) => total + pick(u), 0);
  return {
    records: t.records.length,
    turns: t.turns.length,
    calls: t.records.reduce((n, r) => n + r.calls.length, 0),
    files: t.records.flatMap((r) => r.calls.flatMap((c) => c.files)),
    results: t.records.reduce((n, r) => n + r.results.length, 0),
    errors: t.records.filter((r) => r.isError).length,
    modelChanges: t.records.flatMap((r) => r.events.filter((e) => e.kind === "model_change").map((e) => e.detail)),
    input: sum((u) => u.input),
    output: sum((u) => u.output),
    cacheRead: sum((u) => u.cacheRead),
    cacheWrite: sum((u) => u.cacheWrite),
    costUsd: costs.length === 0 ? null : Math.round(costs.reduce((a, b) => a + b, 0) * 1e6) / 1e6,
    startedAt: t.startedAt,
    warnings: t.warnings.length,
  };
}
