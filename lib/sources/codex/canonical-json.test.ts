import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { canonicalJson } from "@/lib/sources/codex/canonical-json";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** The implementation before its fast paths (issue 13): the output must not change. */
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

describe("canonicalJson", () => {
  it("matches the reference on keys and strings that need escaping or code-point order", () => {
    const value = { "\ud83d\ude00": 1, "\uffff": 2, b: 'q"\\\n\u00e9\ud800', a: [1.5, null, true, "plain"], "": {}, B: "Z" };
    expect(canonicalJson(value)).toBe(reference(value));
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
        expect(canonicalJson(value)).toBe(reference(value));
      }
    });
  });
});
