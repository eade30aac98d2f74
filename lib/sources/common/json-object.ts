/** A parsed JSON object (JSONL record). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is a plain JSON object, else `null`. */
export function asObject(value: unknown): JsonObject | null {
  return isJsonObject(value) ? value : null;
}

/**
 * Parses one JSONL line into an object, or returns null when the line is not a JSON object
 * (invalid JSON, a blank line, or an array/scalar): the contract's "malformed line" (§1.6).
 * Never throws.
 */
export function parseJsonObject(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}
