/** Per-turn output tokens of Claude Code (contract §1.8 step 6). */
import { isJsonObject } from "@/lib/sources/common/json-object";

/**
 * Per-turn output-token accumulator for Claude Code (contract §1.8 step 6): the sum, over
 * distinct assistant message identities (`message.id`, else record `uuid`), of the maximum
 * `message.usage.output_tokens` seen. One API response is split over several lines that share
 * `message.id`, and early lines carry provisional usage, hence the maximum.
 */
export class ClaudeTurnUsage {
  private readonly messages = new Map<string, number>();
  private valid = true;

  /** Starts a new turn (drops what the previous turn saw). */
  reset(): void {
    this.messages.clear();
    this.valid = true;
  }

  /**
   * Observes one line of the turn: a parsed JSON object, or `null` for a malformed line (which
   * makes the turn unknown). Assistant records without a message, a string identity or a
   * non-negative integer `usage.output_tokens` also make the turn unknown.
   */
  observe(record: Record<string, unknown> | null): void {
    this.apply(claudeUsageFact(record));
  }

  /** Observes what one line contributes, computed by {@link claudeUsageFact} (possibly in a worker thread). */
  apply(fact: ClaudeUsageFact): void {
    if (fact === "skip") return;
    if (fact === "invalid") {
      this.valid = false;
      return;
    }
    this.messages.set(fact[0], Math.max(this.messages.get(fact[0]) ?? 0, fact[1]));
  }

  /** Output tokens of the turn so far, or null when unknown (invalid usage or no assistant message). */
  total(): number | null {
    if (!this.valid || this.messages.size === 0) return null;
    let sum = 0;
    for (const value of this.messages.values()) sum += value;
    return sum;
  }
}

/**
 * What one line contributes to {@link ClaudeTurnUsage} (structured-cloneable): `"skip"` for a
 * record that is not an assistant record, `"invalid"` for a malformed line (`null`) or an
 * assistant record without a message, a string identity or a non-negative integer
 * `usage.output_tokens` (the turn becomes unknown), else `[identity, output tokens]`.
 */
export type ClaudeUsageFact = "skip" | "invalid" | [identity: string, outputTokens: number];

/** The {@link ClaudeUsageFact} of one parsed line (`null` when malformed). Pure. */
export function claudeUsageFact(record: Record<string, unknown> | null): ClaudeUsageFact {
  if (record === null) return "invalid";
  if (record.type !== "assistant") return "skip";
  const message = record.message;
  if (!isJsonObject(message)) return "invalid";
  // Python `message.get("id") or record.get("uuid")`: any falsy id falls back to the uuid.
  const identity = pythonTruthy(message.id) ? message.id : record.uuid;
  const usage = isJsonObject(message.usage) ? message.usage.output_tokens : undefined;
  if (typeof identity !== "string" || typeof usage !== "number" || !Number.isInteger(usage) || usage < 0) return "invalid";
  return [identity, usage];
}

function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return true;
}
