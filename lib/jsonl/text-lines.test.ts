/** Tests of the in-memory line reader (physicalLines, textRecords) against the oracle and walkRecords. */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { walkRecords } from "@/lib/jsonl/record-walk";
import { byteCopyLines, physicalLines, textRecords } from "@/lib/jsonl/text-lines";
import { makeTempDir } from "@/lib/testing/shared";
import { seededRandom } from "@/lib/testing/random";
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
  "\r\n\r\n",
  "a\u2028\r\nb\x85\n\u2029",
  "bad \xff\ufffd utf8\n\u00e9\r",
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
      expect(textRecords(Buffer.from(text)), JSON.stringify(text)).toEqual(walked);
    }
  });

  it("gives the `\\n` split's records, the same from bytes as from text, on random texts", async () => {
    const dir = await makeTempDir("text-lines-random-");
    const random = seededRandom(27);
    const alphabet = ["a", "{}", "\n", "\r", "\r\n", "\u2028", "\u0085", "\v", "é", "\u2029"];
    for (let k = 0; k < 60; k++) {
      const text = Array.from({ length: Math.floor(random() * 16) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join("");
      const records = textRecords(text);
      const split = text.split("\n");
      if (text.endsWith("\n") || text === "") split.pop();
      expect(records.map((r) => r.text), JSON.stringify(text)).toEqual(split);
      expect(textRecords(Buffer.from(text)), JSON.stringify(text)).toEqual(records);
      const file = path.join(dir, `${k}.jsonl`);
      await fs.writeFile(file, text);
      const walked: { line: number; text: string }[] = [];
      await walkRecords(file, 0, Infinity, (bytes, line) => void walked.push({ line, text: bytes.toString("utf8") }));
      expect(records, JSON.stringify(text)).toEqual(walked);
    }
  });

  it("keeps a record with a raw U+2028 whole and numbers the next one after it", () => {
    expect(textRecords('{"s":"a\u2028b"}\n{"s":"c"}\n')).toEqual([
      { line: 1, text: '{"s":"a\u2028b"}' },
      { line: 3, text: '{"s":"c"}' },
    ]);
  });
});

describe("byteCopyLines (issue 38: an agent's workspace file written as read)", () => {
  it("gives physicalLines of the decoded bytes, and the bytes only when they are those lines each ended by \\n", () => {
    const random = seededRandom(38);
    const alphabet = ["a", "{}", "\n", "\n", "\r", "\r\n", "\u2028", "\u0085", "\v", "é", "✓", "\u2029"];
    const invalid = Buffer.from([0xe2, 0x80]);
    for (let k = 0; k < 200; k++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join("");
      const data = random() < 0.1 ? Buffer.concat([Buffer.from(text), invalid]) : Buffer.from(text);
      const copy = byteCopyLines(data);
      expect(copy.lines, JSON.stringify(text)).toEqual(physicalLines(data.toString("utf8")));
      const exact = data.equals(Buffer.from(copy.lines.length === 0 ? "" : `${copy.lines.join("\n")}\n`));
      expect(copy.bytes === data, JSON.stringify(text)).toBe(exact);
    }
  });
});
