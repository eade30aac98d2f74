/** Figures of a read transcript, for tests to assert exact numbers. */
import type { AgentTranscript } from "@/lib/sources/common/agent-source";

/** Records, turns, tool calls, error lines, trigger lines and usage totals (cost rounded to 1e-9 USD). */
export function tally(t: AgentTranscript) {
  const usage = { entries: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0, costUsd: 0 };
  for (const record of t.records) {
    for (const u of record.usage) {
      usage.entries += 1;
      usage.input += u.input;
      usage.output += u.output;
      usage.cacheRead += u.cacheRead;
      usage.cacheWrite += u.cacheWrite;
      usage.reasoning += u.reasoning;
      usage.costUsd += u.costUsd ?? 0;
    }
  }
  usage.costUsd = Math.round(usage.costUsd * 1e9) / 1e9;
  return {
    records: t.records.length,
    turns: t.turns.length,
    toolCalls: t.records.reduce((n, r) => n + r.calls.length, 0),
    errorLines: t.records.filter((r) => r.isError).map((r) => r.line),
    triggerLines: t.records.filter((r) => r.trigger).map((r) => r.line),
    usage,
  };
}
