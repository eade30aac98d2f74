/** Small readers for OpenCode's JSON values: times in ms, strings, numbers, the words of an input. */

/** ISO 8601 UTC (`…Z`) of a time in ms since the epoch (OpenCode's `time.*` fields), or null when it is not one. */
export function msToIso(value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** `value` when it is a string, else null. */
export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** `value` when it is a finite number, else null. */
export function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Deepest nesting {@link stringValues} descends: tool inputs are shallow; this only stops pathological ones. */
const MAX_DEPTH = 8;

/**
 * Every string inside a JSON value (object values, array items, nested), in document order: the
 * words of a tool's input a reader can see. `data:` URLs (inline attachments, base64) are skipped.
 */
export function stringValues(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === "string") {
    if (!value.startsWith("data:")) out.push(value);
  } else if (depth < MAX_DEPTH && typeof value === "object" && value !== null) {
    for (const item of Array.isArray(value) ? value : Object.values(value)) stringValues(item, out, depth + 1);
  }
  return out;
}
