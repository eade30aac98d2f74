/** Canonical JSON for content addressing (seed 002) and its SHA-256. */
import crypto from "node:crypto";

import { isShared, leadsToShared, memoText } from "@/lib/json/shared-values";

/**
 * Canonical JSON for content addressing (seed 002 "Serialized to a canonical JSON string
 * (deterministic key ordering)"): object keys sorted by UTF-16 code unit at every depth, compact
 * separators, `undefined` members dropped and non-finite numbers written `null` as JSON.stringify
 * does. Identical inputs give identical text, so identical hashes. Never throws for JSON values.
 *
 * The text is by definition {@link canonicalJsonReference}'s (`JSON.stringify` of a copy with
 * sorted keys). Shared values (lib/json/shared-values) keep their remembered text; only the
 * levels above them are written here, in the same order.
 */
export function canonicalJson(value: unknown): string {
  return canonicalText(value) ?? "null";
}

/** The defining implementation of {@link canonicalJson}: `JSON.stringify` of a key-sorted copy. */
export function canonicalJsonReference(value: unknown): string {
  return reference(value) ?? "null";
}

const reference = (value: unknown): string | undefined => JSON.stringify(sortKeys(value));

/** The canonical text of `value`, or undefined where the reference omits it (undefined, functions, symbols). */
function canonicalText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return reference(value);
  if (isShared(value)) return memoText("canonical", value, reference);
  if (value instanceof Date || !leadsToShared(value)) return reference(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? "," : ""}${canonicalText(value[i]) ?? "null"}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = ordered(Object.keys(record));
  if (keys === null) return reference(value);
  let out = "{";
  let first = true;
  for (const key of keys) {
    const text = canonicalText(record[key]);
    if (text === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `keys` in the property order of the reference's rebuilt object: sorted by UTF-16 code unit,
 * except that array-index keys ("0", "17") come first in ascending numeric order (how the engine
 * orders an ordinary object's own keys). Null for a `__proto__` key (assigning it adds no key).
 */
function ordered(keys: string[]): string[] | null {
  let digits = false;
  for (const key of keys) {
    const c = key.charCodeAt(0);
    if (c >= 48 && c <= 57) digits = true;
    else if (key === "__proto__") return null;
  }
  keys.sort();
  if (!digits) return keys;
  const indexes = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return indexes.length === 0 ? keys : [...indexes, ...keys.filter((k) => !isArrayIndex(k))];
}

/** An array index: the canonical decimal form of an integer 0 … 2^32 − 2. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4294967294;
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
