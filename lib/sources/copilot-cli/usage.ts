/** Copilot CLI token usage: one entry per model of a `session.shutdown` (docs/sources/copilot-cli.md, agent-formats.md §2). */
import type { AgentTokenUsage } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { count } from "@/lib/sources/copilot-cli/fields";

/**
 * The tokens one CLI run accounts for, from its `session.shutdown` data: one entry per key of
 * `modelMetrics` (`{<model>: {usage: {inputTokens, outputTokens, cacheReadTokens,
 * cacheWriteTokens, reasoningTokens?}}}`), in the file's key order.
 *
 * Copilot's `inputTokens` includes cache reads and writes, and its `outputTokens` (the API's
 * completion tokens) includes reasoning; so `input = inputTokens − cacheReadTokens −
 * cacheWriteTokens` (fresh input, never below 0), `output = outputTokens − reasoningTokens` (when
 * reasoning fits inside it), `reasoning = reasoningTokens`. Copilot records no price, so
 * `costUsd` is null. The counters restart with each run (they are not running totals), so a
 * session's usage is the sum over its shutdown lines. `agentMetrics` (per-agent breakdown of the
 * same tokens) and `assistant.usage` events are not counted: they would count tokens twice.
 * A model entry without a `usage` object is skipped; a missing counter counts 0.
 */
export function shutdownUsage(data: JsonObject): AgentTokenUsage[] {
  const metrics = asObject(data.modelMetrics);
  if (metrics === null) return [];
  const usages: AgentTokenUsage[] = [];
  for (const [model, metric] of Object.entries(metrics)) {
    const usage = asObject(asObject(metric)?.usage);
    if (usage === null) continue;
    const inputTokens = count(usage, "inputTokens");
    const outputTokens = count(usage, "outputTokens");
    const cacheRead = count(usage, "cacheReadTokens");
    const cacheWrite = count(usage, "cacheWriteTokens");
    const reasoning = count(usage, "reasoningTokens");
    usages.push({
      model,
      input: Math.max(0, inputTokens - cacheRead - cacheWrite),
      output: reasoning <= outputTokens ? outputTokens - reasoning : outputTokens,
      cacheRead,
      cacheWrite,
      reasoning,
      costUsd: null,
      approximate: false,
    });
  }
  return usages;
}
