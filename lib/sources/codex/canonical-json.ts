/**
 * Canonical JSON for fork fingerprints (contract §1.8 step 5): Python
 * `json.dumps(value, sort_keys=True, ensure_ascii=True)`: keys sorted by code point, `", "` and
 * `": "` separators, every character outside printable ASCII (space to `~`) escaped as
 * `\uXXXX` per UTF-16 unit. Fingerprints only need to agree with each other, so the known gap
 * (floats such as `1.0` print as `1`) is harmless. Pure; never throws.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return quoteAscii(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(", ")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort(compareCodePoints);
    return `{${keys.map((key) => `${quoteAscii(key)}: ${canonicalJson(record[key])}`).join(", ")}}`;
  }
  return "null";
}

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

// NOTE: fork fingerprints re-serialize every Codex line at prepare (issue 13 profile); most
// strings and keys need no escaping and most key pairs no code-point walk, so both take a
// fast path that gives the same output.
const NEEDS_ESCAPE = /[\\"]|[^ -~]/;
const SURROGATE = /[\ud800-\udfff]/;

function quoteAscii(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  const escaped = text.replace(/[\\"]|[^ -~]/g, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `"${escaped}"`;
}

function compareCodePoints(a: string, b: string): number {
  // Without surrogates, UTF-16 unit order is code point order.
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const left = Array.from(a);
  const right = Array.from(b);
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const diff = (left[i]!.codePointAt(0) ?? 0) - (right[i]!.codePointAt(0) ?? 0);
    if (diff !== 0) return diff;
  }
  return left.length - right.length;
}
