/** Tests of shared values and their remembered texts. */
import v8 from "node:v8";
import vm from "node:vm";
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

  it("a shared value's strings hold none of the texts they were cut from (the record cache's bytes are what it counts)", () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const before = heap();
    // 40 tool outputs of 1 MB, each kept only through a head + tail preview of 200 characters.
    const kept = Array.from({ length: 40 }, (_, i) => {
      const output = `${i}`.padEnd(1 << 20, `output ${i} `);
      return shareValue({ line: i, preview: `${output.slice(0, 100)}\n...\n${output.slice(-100)}`, parts: [output.slice(5, 300)] });
    });
    const grown = heap() - before;
    expect(kept[3]!.preview.startsWith("3output 3 ")).toBe(true);
    expect(grown).toBeLessThan(8 << 20);
  });
});
