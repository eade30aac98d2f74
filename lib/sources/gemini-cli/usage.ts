/** Gemini CLI token counting (agent-formats.md §1, "Tokens"; docs/sources/gemini-cli.md). */
import type { AgentTokenUsage } from "@/lib/sources/common/agent-source";
import { isJsonObject } from "@/lib/sources/common/json-object";

/**
 * The usage of one `gemini` message's `tokens: {input, output, cached, thoughts, tool, total}`
 * (agent-formats.md §1): `input` there INCLUDES `cached`, so fresh input = `input − cached`
 * (never below 0); `tool` (the API's `toolUsePromptTokenCount`, prompt tokens outside `input`,
 * `total = input + output + thoughts + tool`) is added to fresh input, being prompt-side; cache read
 * = `cached`; there is no cache write; reasoning = `thoughts` (billed as output, reported apart).
 * So `input + cacheRead + output + reasoning = total`. A message without `model` still counts
 * (model null); no cost is recorded. Missing or non-numeric fields count 0. Null when `tokens` is
 * not an object (absent, or `null` before the response's usage arrived).
 */
export function geminiUsage(tokens: unknown, model: unknown): AgentTokenUsage | null {
  if (!isJsonObject(tokens)) return null;
  const input = count(tokens.input);
  const cached = count(tokens.cached);
  return {
    model: typeof model === "string" && model !== "" ? model : null,
    input: Math.max(0, input - cached) + count(tokens.tool),
    output: count(tokens.output),
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: count(tokens.thoughts),
    costUsd: null,
    approximate: false,
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
