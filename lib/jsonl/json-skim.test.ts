import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { parseJsonObject } from "@/lib/sources/common/json-object";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { SKIPPED_STRING, skimJsonObject, type SkimOptions } from "./json-skim";

const OPTIONS: SkimOptions = { fullChildrenOf: new Set(["message"]), keepKeys: new Set(["type"]) };
const skim = (text: string) => {
  const bytes = Buffer.from(text, "utf8");
  return skimJsonObject(bytes, 0, bytes.length, OPTIONS);
};

/** What a skim must keep of a fully parsed value (strings outside the kept places become ""). */
function pruned(value: unknown, depth: number, mode: number, key: string | null): unknown {
  if (typeof value === "string") return mode > 0 || (key !== null && OPTIONS.keepKeys.has(key)) ? value : SKIPPED_STRING;
  if (Array.isArray(value)) return value.map((v) => pruned(v, depth + 1, 0, null));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const childMode = depth === 0 ? (OPTIONS.fullChildrenOf.has(k) ? 1 : 0) : 0;
      const kept = typeof v === "string" ? (depth === 0 || mode > 0 || OPTIONS.keepKeys.has(k) ? v : SKIPPED_STRING) : pruned(v, depth + 1, childMode, k);
      Object.defineProperty(out, k, { value: kept, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

describe("skimJsonObject", () => {
  it("accepts and rejects exactly what JSON.parse does", () => {
    const cases = [
      '{"a":1}',
      ' {"a" : [1, 2.5e-3, -0, true, false, null, {"b":"c"}]} ',
      '{"a":"\\u00e9\\n\\"x\\\\"}',
      '{"a":"é ✓ \u2028"}',
      "{}",
      '{"__proto__":{"x":1},"y":2}',
      '{"a":1,"a":2}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":1e}',
      '{"a":-}',
      '{"a":+1}',
      '{"a":"\\x"}',
      '{"a":"\\u12G4"}',
      '{"a":"tab\there"}',
      '{"a":1,}',
      '{"a" 1}',
      '{a:1}',
      "{'a':1}",
      '{"a":1}x',
      '{"a":1',
      '{"a":"open',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":[1,]}',
      '{"a":[1 2]}',
      "[1,2]",
      '"str"',
      "",
      "   ",
      "\uFEFF{}",
      '{"a":1}\u00a0',
      '{"a":NaN}',
      '{"a":Infinity}',
      '{"a":"\u007f"}',
    ];
    for (const text of cases) {
      const full = parseJsonObject(text);
      const skimmed = skim(text);
      if (full === null) expect(skimmed, text).toBeNull();
      else expect(skimmed, text).toEqual(pruned(full, 0, 2, null));
    }
  });

  it("decodes only the strings it is asked for", () => {
    const value = skim('{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"big"}]},"toolUseResult":{"stdout":"big"}}');
    expect(value).toEqual({ type: "user", message: { role: "user", content: [{ type: "tool_result", content: SKIPPED_STRING }] }, toolUseResult: { stdout: SKIPPED_STRING } });
  });

  it("keeps __proto__ as an own member, as JSON.parse does", () => {
    const value = skim('{"__proto__":{"polluted":true}}')!;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
  });

  it("treats invalid UTF-8 like replacement decoding does", () => {
    const inString = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xe2, 0x28, 0xff]), Buffer.from('"}')]);
    expect(skimJsonObject(inString, 0, inString.length, OPTIONS)).toEqual(parseJsonObject(inString.toString("utf8")));
    const outside = Buffer.concat([Buffer.from('{"a":1'), Buffer.from([0xff]), Buffer.from("}")]);
    expect(skimJsonObject(outside, 0, outside.length, OPTIONS)).toBeNull();
  });

  it("gives up on absurd nesting", () => {
    expect(skim(`{"a":${"[".repeat(600)}${"]".repeat(600)}}`)).toBeUndefined();
  });
});

describe.skipIf(!HAS_SHARED)(`skimJsonObject on every corpus line ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  const files = HAS_SHARED
    ? readdirSync(path.join(SHARED_DIR, "corpus"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
    : [];
  it.each(files)("%s", (file) => {
    const bytes = readFileSync(path.join(SHARED_DIR, "corpus", file));
    let start = 0;
    while (start < bytes.length) {
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? bytes.length : nl;
      const full = parseJsonObject(bytes.toString("utf8", start, end));
      const skimmed = skimJsonObject(bytes, start, end, OPTIONS);
      expect(skimmed).toEqual(full === null ? null : pruned(full, 0, 2, null));
      start = end + 1;
    }
  });
});
