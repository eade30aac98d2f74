/** Tests of walkRecords. */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { walkRecords } from "@/lib/jsonl/record-walk";
import { makeTempDir } from "@/lib/testing/shared";

async function writeFile(text: string): Promise<string> {
  const file = path.join(await makeTempDir("record-walk-"), "r.jsonl");
  await fs.writeFile(file, text);
  return file;
}

/** Every record as [line, text] and the walk's end, for each read size and both read modes. */
async function walkAll(file: string, startByte = 0, endByte = Infinity, stopAfter = Infinity) {
  const results = [];
  for (const chunkBytes of [1, 3, 64]) {
    for (const asyncReads of [false, true]) {
      const records: [number, string][] = [];
      const end = await walkRecords(file, startByte, endByte, (bytes, line) => records.push([line, bytes.toString("utf8")]) < stopAfter, { chunkBytes, asyncReads });
      results.push({ records, end });
    }
  }
  for (const r of results) expect(r).toEqual(results[0]);
  return results[0]!;
}

describe("walkRecords (a layer over the streaming line reader)", () => {
  it("joins the physical lines of a record and keeps the `\\r` of `\\r\\n`; numbers records by physical line", async () => {
    const file = await writeFile('{"a":"x\u2028y\u0085z"}\r\n\n{"b":"lone\rcr"}\nlast');
    expect(await walkAll(file)).toEqual({
      records: [[1, '{"a":"x\u2028y\u0085z"}\r'], [4, ""], [5, '{"b":"lone\rcr"}'], [7, "last"]],
      end: { nextLine: 7, lastLine: 7 },
    });
  });

  it("passes a record the stream ends inside (its last break not a `\\n`) whole, its line as nextLine", async () => {
    const file = await writeFile("a\nb\u2028c\u2029");
    expect(await walkAll(file)).toEqual({ records: [[1, "a"], [2, "b\u2028c\u2029"]], end: { nextLine: 2, lastLine: 2 } });
  });

  it("after a stop, nextLine is the stopping record's line plus one", async () => {
    const file = await writeFile("a\u2028b\nc\nd\n");
    expect(await walkAll(file, 0, Infinity, 1)).toEqual({ records: [[1, "a\u2028b"]], end: { nextLine: 2, lastLine: 1 } });
  });

  it("walks one byte range with local lines; an endByte past the file's end stops at the end; an empty range passes nothing", async () => {
    const file = await writeFile("a\nb\u000bc\nd\n");
    expect(await walkAll(file, 2, 6)).toEqual({ records: [[1, "b\u000bc"]], end: { nextLine: 3, lastLine: 1 } });
    expect(await walkAll(file, 2, 1000)).toEqual({ records: [[1, "b\u000bc"], [3, "d"]], end: { nextLine: 4, lastLine: 3 } });
    expect(await walkAll(file, 9, Infinity)).toEqual({ records: [], end: { nextLine: 1, lastLine: 0 } });
    expect(await walkAll(await writeFile(""))).toEqual({ records: [], end: { nextLine: 1, lastLine: 0 } });
  });
});
