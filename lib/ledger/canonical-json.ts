import crypto from "node:crypto";

/**
 * Canonical JSON for content addressing (seed 002 "Serialized to a canonical JSON string
 * (deterministic key ordering)"): object keys sorted by UTF-16 code unit at every depth, compact
 * separators, `undefined` members dropped and non-finite numbers written `null` as JSON.stringify
 * does. Identical inputs give identical text, so identical hashes. Never throws for JSON values.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** SHA-256 hex of a UTF-8 string. */
export const sha256Text = (text: string): string => crypto.hash("sha256", text, "hex");
