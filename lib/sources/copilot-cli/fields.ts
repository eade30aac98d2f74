/** Small readers of Copilot CLI event fields (agent-formats.md §2): strings, counts, times, visible words. */
import type { JsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";

/** `obj[key]` when it is a non-empty string, else null. */
export function str(obj: JsonObject | null, key: string): string | null {
  const value = obj?.[key];
  return typeof value === "string" && value !== "" ? value : null;
}

/** `obj[key]` as a token count: a finite non-negative number, else 0 (a missing or malformed counter counts nothing). */
export function count(obj: JsonObject | null, key: string): number {
  const value = obj?.[key];
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/**
 * An event's `timestamp` as ISO 8601 UTC with `Z` (millisecond precision), or null when it is
 * missing, naive or not a date. Copilot writes `2026-06-27T16:20:57.566Z`, kept as written.
 */
export function isoTime(value: unknown): string | null {
  const ms = parseAwareTimestamp(value);
  if (ms === null) return null;
  const iso = new Date(ms).toISOString();
  return value === iso ? value : iso;
}

/**
 * Keys whose string values no reader sees as words: ids that correlate events, and opaque
 * payloads (encrypted reasoning, base64 assets). Everything else under an event's `data` is text.
 */
const OPAQUE_KEYS = new Set(["encryptedContent", "reasoningOpaque", "blob", "data", "mcpMeta", "uiResource"]);

function isIdKey(key: string): boolean {
  return key === "id" || key.endsWith("Id") || key.endsWith("Ids");
}

/**
 * Appends every string a reader can see inside `value` (objects and arrays walked depth-first, in
 * key order) to `out`: tool inputs, hook inputs and outputs, unknown events' payloads. Ids and
 * opaque payloads ({@link OPAQUE_KEYS}) are skipped. Linear in the size of `value`.
 */
export function collectStrings(value: unknown, out: string[]): void {
  if (typeof value === "string") {
    if (value !== "") out.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collectStrings(item, out);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (OPAQUE_KEYS.has(key) || isIdKey(key)) continue;
    collectStrings(item, out);
  }
}

/** {@link collectStrings} of `value`, as one string (one value a line). */
export function visibleText(value: unknown): string {
  const out: string[] = [];
  collectStrings(value, out);
  return out.join("\n");
}

/** The non-empty parts joined by newlines: a record's `text` built from its pieces. */
export function joinText(parts: readonly (string | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p !== "").join("\n");
}
