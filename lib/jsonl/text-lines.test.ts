/** Tests of the in-memory line reader (physicalLines, textRecords) against the oracle and walkRecords. */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { walkRecords } from "@/lib/jsonl/record-walk";
import { physicalLines, textRecords } from "@/lib/jsonl/text-lines";
import { makeTempDir } from "@/lib/testing/shared";
import { splitPhysicalLines } from "@/lib/testing/split-lines";

const SAMPLES = [
  "",
  "\n",
  "a",
  "a\n",
  "a\r\nb\rc\n\nd",
  '{"a":"x\u2028y\u0085z"}\r\n\n{"b":"lone\rcr"}\nlast',
  "a\nb\u2028c\u2029",
  "\v\f\x1c\x1d\x1e\u2029\r",
  "x\r\r\n\n\r",
];

describe("physicalLines", () => {
  it("splits like Python splitlines (contract §1.6), the test oracle", () => {
    for (const text of SAMPLES) expect(physicalLines(text), JSON.stringify(text)).toEqual(splitPhysicalLines(text));
  });
});

describe("textRecords", () => {
  it("gives the records and physical lines walkRecords reads from the same bytes", async () => {
    const dir = await makeTempDir("text-lines-");
    for (const [i, text] of SAMPLES.entries()) {
      const file = path.join(dir, `${i}.jsonl`);
      await fs.writeFile(file, text);
      const walked: { line: number; text: string }[] = [];
      await walkRecords(file, 0, Infinity, (bytes, line) => void walked.push({ line, text: bytes.toString("utf8") }));
      expect(textRecords(text), JSON.stringify(text)).toEqual(walked);
    }
  });

  it("keeps a record with a raw U+2028 whole and numbers the next one after it", () => {
    expect(textRecords('{"s":"a\u2028b"}\n{"s":"c"}\n')).toEqual([
      { line: 1, text: '{"s":"a\u2028b"}' },
      { line: 3, text: '{"s":"c"}' },
    ]);
  });
});
