/** Tests of LineWindows: lines read a window at a time equal the line index's own reads. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { seededRandom } from "@/lib/testing/random";
import { makeTempDir } from "@/lib/testing/shared";

const BREAKS = ["\n", "\r\n", "\r", "\u2028"];

describe("LineWindows", () => {
  it("gives every line's bytes as readLineRange does, scanning forward, backward or at random, whatever the window", async () => {
    const dir = await makeTempDir("line-windows-");
    const random = seededRandom(25);
    for (let f = 0; f < 12; f++) {
      // Lines from empty to longer than the window, mixed terminators, with or without a final break.
      const parts: string[] = [];
      const n = 1 + Math.floor(random() * 40);
      for (let i = 0; i < n; i++) {
        const len = random() < 0.1 ? 300 + Math.floor(random() * 300) : Math.floor(random() * 40);
        parts.push(`{"i":${i},"t":"${"é".repeat(len)}"}`, i < n - 1 || random() < 0.5 ? BREAKS[Math.floor(random() * BREAKS.length)]! : "");
      }
      const file = path.join(dir, `f${f}.jsonl`);
      await writeFile(file, parts.join(""));
      const index = await buildLineIndex(file);
      const expected = (await readLineRange(file, index, 1, index.lineCount)).map((l) => l.text);
      for (const windowBytes of [1, 64, 256, 1 << 16]) {
        const forward = new LineWindows(file, index, windowBytes);
        const backward = new LineWindows(file, index, windowBytes);
        const mixed = new LineWindows(file, index, windowBytes);
        const got = { forward: [] as string[], backward: [] as string[], mixed: [] as string[] };
        for (let l = 1; l <= index.lineCount; l++) got.forward.push((await forward.line(l, "end")).toString("utf8"));
        for (let l = index.lineCount; l >= 1; l--) got.backward.unshift((await backward.line(l, "start")).toString("utf8"));
        const order = Array.from({ length: index.lineCount }, (_, i) => i + 1).sort(() => random() - 0.5);
        const byLine = new Map<number, string>();
        for (const l of order) byLine.set(l, (await mixed.line(l, random() < 0.5 ? "end" : "start")).toString("utf8"));
        got.mixed = expected.map((_, i) => byLine.get(i + 1)!);
        expect(got).toEqual({ forward: expected, backward: expected, mixed: expected });
      }
    }
  });

  it("rejects a line outside the index, and reports a file shorter than its index", async () => {
    const dir = await makeTempDir("line-windows-");
    const file = path.join(dir, "a.jsonl");
    await writeFile(file, '{"a":1}\n{"b":2}\n');
    const index = await buildLineIndex(file);
    const windows = new LineWindows(file, index);
    await expect(windows.line(0, "end")).rejects.toThrow(RangeError);
    await expect(windows.line(3, "start")).rejects.toThrow(RangeError);
    await writeFile(file, '{"a":1}\n');
    await expect(new LineWindows(file, index).line(2, "start")).rejects.toMatchObject({ code: "io_error" });
  });
});
