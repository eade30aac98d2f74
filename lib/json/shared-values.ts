/** Values shared read-only between calls (cached compact records), each serialized once per kind. */

/*
 * Registering a value deep-freezes it and lets {@link memoText} keep one serialization per value
 * and per kind (the response's `JSON.stringify`, the ledger's canonical JSON), so a warm window
 * only joins strings. The texts live as long as the value (a WeakMap): whoever bounds the values
 * (the record cache, by bytes) bounds them too.
 */

import { processWide } from "@/lib/cache/process-wide";

// One registry per process (lib/cache/process-wide), like the record cache that fills it, so a
// record shared by one of Next's bundle layers is known to every layer's copy of this module.
const shared = processWide("json:shared-values", () => new WeakSet<object>());
const memos = processWide("json:shared-texts", () => new Map<string, WeakMap<object, string | undefined>>());

/**
 * Deep-freezes `value` (plain objects and arrays) and registers it as shared: from now on any
 * attempt to change it throws (strict mode). Returns `value`.
 */
export function shareValue<T extends object>(value: T): T {
  freezeDeep(value);
  shared.add(value);
  return value;
}

/** True when `value` was registered by {@link shareValue}. */
export function isShared(value: unknown): boolean {
  return typeof value === "object" && value !== null && shared.has(value);
}

/**
 * `serialize(value)`, remembered per shared value under `kind` (e.g. "json", "canonical"):
 * computed once, then returned as is. `serialize` must be a pure function of the value.
 */
export function memoText(kind: string, value: object, serialize: (value: object) => string | undefined): string | undefined {
  let memo = memos.get(kind);
  if (!memo) memos.set(kind, (memo = new WeakMap()));
  if (memo.has(value)) return memo.get(value);
  const text = serialize(value);
  memo.set(value, text);
  return text;
}

function freezeDeep(value: object): void {
  if (Object.isFrozen(value)) return;
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (typeof v === "string") {
      if (v.length >= DETACH_MIN_CHARS) o[key] = detached(v);
    } else if (typeof v === "object" && v !== null) freezeDeep(v);
  }
  Object.freeze(value);
}

/** Strings this short are copied by the engine whenever sliced or joined: they never hold another string alive. */
const DETACH_MIN_CHARS = 13;

/**
 * `text` as a string of its own. A trimmed preview is a slice or a join of slices of the text it
 * was cut from (a tool's whole output), and the engine keeps that whole text alive for as long as
 * the slice lives: a cached record kept ~2.4x the bytes the record cache counts (a Gemini window:
 * 17 MB for its 7 MB). Concatenating makes the engine copy it flat, once, and the copy's slice
 * holds only that copy.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

/**
 * Which own values of a plain object or array lead to shared values: the serializers below walk
 * only those levels themselves and hand everything else to the native serializer whole.
 */
export function leadsToShared(value: object): boolean {
  if (Array.isArray(value)) return value.length > 0 && isShared(value[0]);
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (isShared(v) || (Array.isArray(v) && v.length > 0 && isShared(v[0]))) return true;
  }
  return false;
}

/**
 * Exactly `JSON.stringify(value)` for JSON data (plain objects, arrays, primitives), reusing the
 * remembered text of shared values inside it (see {@link shareValue}).
 */
export function jsonText(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  if (isShared(value)) return memoText("json", value, (v) => JSON.stringify(v));
  if (Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value)) return JSON.stringify(value);
  if (!leadsToShared(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? "," : ""}${jsonText(value[i]) ?? "null"}`;
    return `${out}]`;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return JSON.stringify(value);
  let out = "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const text = jsonText((value as Record<string, unknown>)[key]);
    if (text === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}
