/** Tests of shared values and their remembered texts. */
import { describe, expect, it } from "vitest";

import { canonicalJson, canonicalJsonReference } from "@/lib/json/canonical-json";

import { isShared, jsonText, shareValue } from "./shared-values";

const record = (line: number) => ({ line, kind: "assistant", text_preview: `line ${line} "quoted" é`, tool_uses: [{ name: "Bash", input_summary: "ls" }], tool_results: [], flags: { b: true, a: null, "10": 1, "2": 2 } });

function samples(): unknown[] {
  const shared = [1, 2, 3].map((l) => shareValue(record(l)));
  return [
    { status: "ok", project_key: "p", records: shared, line_range: { start: 1, end: 3 }, mode: "compact" },
    { z: shared[0], a: [shared[1], undefined, shared[2]], u: undefined, f: () => 1, n: NaN, i: -Infinity, d: new Date(0) },
    [shared[0], [shared[1]], { "1": shared[2], "01": 5, b: 1, a: 2, "4294967295": 3, "4294967294": 4 }],
    { records: [record(4), record(5)], nested: { deeper: [{ y: 1, x: [2, { b: 1, a: 0 }] }] } },
    { list: shared, ["__proto__"]: 1 },
    shared,
    "text",
    42,
    null,
    undefined,
  ];
}

describe("shared values (issue 13)", () => {
  it("canonicalJson stays byte-identical to the reference definition (seed 002 hashes)", () => {
    for (const value of samples()) {
      const expected = canonicalJsonReference(value);
      expect(canonicalJson(value)).toBe(expected);
      expect(canonicalJson(value)).toBe(expected); // the remembered path
    }
  });

  it("jsonText is exactly JSON.stringify", () => {
    for (const value of samples()) {
      expect(jsonText(value)).toBe(JSON.stringify(value));
      expect(jsonText(value)).toBe(JSON.stringify(value));
    }
  });

  it("a shared value is deep-frozen, so its remembered texts cannot go stale", () => {
    const value = shareValue(record(7));
    expect(isShared(value)).toBe(true);
    expect(isShared(record(7))).toBe(false);
    expect(() => {
      (value as { line: number }).line = 8;
    }).toThrow(TypeError);
    expect(() => {
      (value.tool_uses as unknown as unknown[]).push(1);
    }).toThrow(TypeError);
  });
});
