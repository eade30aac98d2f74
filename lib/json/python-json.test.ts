/** Tests of pyDumps against Python's json.dumps. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { pyDumps } from "@/lib/json/python-json";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** Codex's fork-fingerprint JSON before its fast paths (issue 13) and the merge into pyDumps: the output must not change. */
function reference(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return quote(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(reference).join(", ")}]`;
  if (typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => {
      const left = Array.from(a);
      const right = Array.from(b);
      for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
        const diff = (left[i]!.codePointAt(0) ?? 0) - (right[i]!.codePointAt(0) ?? 0);
        if (diff !== 0) return diff;
      }
      return left.length - right.length;
    });
    return `{${keys.map((key) => `${quote(key)}: ${reference(record[key])}`).join(", ")}}`;
  }
  return "null";
}
const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };
const quote = (text: string) => `"${text.replace(/[\\"]|[^ -~]/g, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;

/** prompt-diary's compact-record `json.dumps(ensure_ascii=False, sort_keys=True)` as it was before the merge (lib/sources/common/py-compat). */
function referenceRaw(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return quoteRaw(value);
  if (typeof value === "number") return JSON.stringify(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) return `[${value.map(referenceRaw).join(", ")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort((a, b) => {
      const left = Array.from(a);
      const right = Array.from(b);
      for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
        const diff = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
        if (diff !== 0) return diff;
      }
      return left.length - right.length;
    });
    return `{${keys.map((key) => `${quoteRaw(key)}: ${referenceRaw((value as Record<string, unknown>)[key])}`).join(", ")}}`;
  }
  return "null";
}
const quoteRaw = (text: string) => `"${text.replace(/["\\\u0000-\u001f]/g, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;

const FORK = { sortKeys: true } as const;
const RAW = { ensureAscii: false, sortKeys: true } as const;

describe("pyDumps", () => {
  it("matches both references on keys and strings that need escaping or code-point order", () => {
    const value = { "\ud83d\ude00": 1, "\uffff": 2, b: 'q"\\\n\u00e9\ud800\u007f', a: [1.5, null, true, "plain", undefined, -0, Infinity], "": {}, B: "Z" };
    expect(pyDumps(value, FORK)).toBe(reference(value));
    expect(pyDumps(value, RAW)).toBe(referenceRaw(value));
  });

  it("ensure_ascii=False uses Python separators and sorted keys, keeps non-ASCII and lone surrogates raw, escapes control characters", () => {
    expect(pyDumps({ b: [1, 2.5, true, null], a: { d: "x", c: false } }, RAW)).toBe('{"a": {"c": false, "d": "x"}, "b": [1, 2.5, true, null]}');
    expect(pyDumps("é中😀\u2028", RAW)).toBe('"é中😀\u2028"');
    expect(pyDumps("\ud800", RAW)).toBe('"\ud800"');
    expect(pyDumps('q"\\\n\t\u0001\u001f', RAW)).toBe('"q\\"\\\\\\n\\t\\u0001\\u001f"');
    expect(pyDumps({ "\uffff": 1, "😀": 2 }, RAW)).toBe('{"\uffff": 1, "😀": 2}');
  });

  it("keeps the object's own key order unless sortKeys, and takes other separators", () => {
    expect(pyDumps({ b: 1, a: "é" })).toBe('{"b": 1, "a": "\\u00e9"}');
    expect(pyDumps({ b: 1, a: [1, 2] }, { separators: [",", ":"], sortKeys: true })).toBe('{"a":[1,2],"b":1}');
  });

  const files = HAS_SHARED
    ? readdirSync(path.join(SHARED_DIR, "corpus"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
    : [];
  describe.skipIf(!HAS_SHARED)(`every corpus line ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
    it.each(files)("%s", (file) => {
      for (const line of readFileSync(path.join(SHARED_DIR, "corpus", file), "utf8").split("\n")) {
        const value = parseJsonObject(line);
        expect(pyDumps(value, FORK)).toBe(reference(value));
        expect(pyDumps(value, RAW)).toBe(referenceRaw(value));
      }
    });
  });
});
