/**
 * OpenCode's token counting (agent-formats.md §3, docs/sources/opencode.md): what an assistant
 * message's `tokens` mean, by the OpenCode version that wrote them and the provider that answered.
 */
import type { AgentTokenUsage } from "@/lib/sources/common/agent-source";
import { asObject } from "@/lib/sources/common/json-object";
import { num, str } from "@/lib/sources/opencode/values";

/** `tokens` as OpenCode stores them on an assistant message or a `step-finish` part. */
export type OpenCodeTokens = { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number };

/**
 * Providers whose AI SDK reports `inputTokens` without cache reads (OpenCode's `excludesCachedTokens`:
 * the `anthropic` or `bedrock` provider metadata): their `tokens.input` was fresh input in every version.
 */
const CACHE_EXCLUSIVE_PROVIDERS = new Set(["anthropic", "amazon-bedrock", "google-vertex-anthropic"]);

/**
 * The first OpenCode release that subtracts cache reads from `inputTokens` before storing
 * `tokens.input` for every provider (anomalyco/opencode PR #4256, merged 2025-11-12; v1.0.62 is the
 * first release cut after that day). Older releases stored the SDK's raw `inputTokens`.
 */
export const FRESH_INPUT_SINCE = [1, 0, 62] as const;

/** Reads a `tokens` object; null when it is not one. Missing counts are 0. */
export function readTokens(value: unknown): OpenCodeTokens | null {
  const tokens = asObject(value);
  if (tokens === null) return null;
  const cache = asObject(tokens.cache);
  return {
    input: num(tokens.input) ?? 0,
    output: num(tokens.output) ?? 0,
    reasoning: num(tokens.reasoning) ?? 0,
    cacheRead: num(cache?.read) ?? 0,
    cacheWrite: num(cache?.write) ?? 0,
  };
}

/** Sum of several `tokens` (the steps of one message). */
export function addTokens(all: readonly OpenCodeTokens[]): OpenCodeTokens {
  const sum: OpenCodeTokens = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
  for (const t of all) {
    sum.input += t.input;
    sum.output += t.output;
    sum.reasoning += t.reasoning;
    sum.cacheRead += t.cacheRead;
    sum.cacheWrite += t.cacheWrite;
  }
  return sum;
}

/**
 * True when the session's `version` (`"0.15.0"`, `"1.2.10"`) is a release that stores fresh input
 * for every provider. An unreadable version, or a dev build (`0.0.0-…`), is taken as current.
 */
export function storesFreshInput(version: string | null): boolean {
  const match = version === null ? null : /^(\d+)\.(\d+)\.(\d+)(-.*)?$/.exec(version.trim());
  if (match === null) return true;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major === 0 && minor === 0 && patch === 0) return true;
  for (const [i, part] of [major, minor, patch].entries()) {
    const since = FRESH_INPUT_SINCE[i] ?? 0;
    if (part !== since) return part > since;
  }
  return true;
}

/**
 * Fresh input (cache reads and writes excluded) of recorded `tokens`:
 * - written by OpenCode ≥ {@link FRESH_INPUT_SINCE}, or by a cache-exclusive provider (Anthropic,
 *   Bedrock): `tokens.input` as recorded;
 * - written by an older OpenCode for any other provider (openai, github-copilot, openrouter, google,
 *   …), whose `inputTokens` include cache reads: `tokens.input − tokens.cache.read`, unless the cache
 *   read exceeds the input (then the input cannot include it and is taken as recorded).
 * Never negative (newer versions can store a negative input when a provider's count is already fresh).
 */
export function freshInput(tokens: OpenCodeTokens, providerID: string | null, version: string | null): number {
  const inclusive = !storesFreshInput(version) && !CACHE_EXCLUSIVE_PROVIDERS.has(providerID ?? "");
  const fresh = inclusive && tokens.cacheRead <= tokens.input ? tokens.input - tokens.cacheRead : tokens.input;
  return Math.max(0, fresh);
}

/**
 * The usage entry of one assistant message (agent-formats.md §3): its `tokens` (or, when it ran
 * several steps, the sum of its `step-finish` parts: OpenCode keeps only the last step's tokens on the
 * message but adds every step's cost), fresh input by {@link freshInput}, and its `cost` in USD.
 * Null when the message records no tokens and no cost.
 */
export function messageUsage(
  message: Record<string, unknown>,
  steps: readonly OpenCodeTokens[],
  version: string | null,
): AgentTokenUsage | null {
  const recorded = readTokens(message.tokens);
  const tokens = steps.length > 1 ? addTokens(steps) : (recorded ?? steps[0] ?? null);
  const cost = num(message.cost);
  if (tokens === null && cost === null) return null;
  const t = tokens ?? { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
  if (t.input + t.output + t.reasoning + t.cacheRead + t.cacheWrite === 0 && !cost) return null;
  return {
    model: str(message.modelID),
    input: freshInput(t, str(message.providerID), version),
    output: Math.max(0, t.output),
    cacheRead: Math.max(0, t.cacheRead),
    cacheWrite: Math.max(0, t.cacheWrite),
    reasoning: Math.max(0, t.reasoning),
    costUsd: cost,
    approximate: false,
  };
}
