import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { forEachLine } from "@/lib/forensics/line-chunks";
import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { makeTempDir } from "@/lib/testing/shared";

describe("forEachLine", () => {
  it("gives every physical line's text in order, across chunks and lines longer than a chunk", async () => {
    const lines = ['{"a":1}', "x".repeat(1_500_000), '{"b":"é"}\r', "y".repeat(900_000), "", "z\u2028w", "last"];
    const file = path.join(await makeTempDir(), "a.jsonl");
    await fs.writeFile(file, `${lines.slice(0, -1).join("\n")}\n${lines.at(-1)}`);
    const index = await buildLineIndex(file);
    const seen: string[] = [];
    await forEachLine(file, index, (n, text) => seen.push(`${n}:${text}`));
    const expected = (await readLineRange(file, index, 1, index.lineCount)).map((l) => `${l.line}:${l.text}`);
    expect(seen).toEqual(expected);
    expect(seen).toHaveLength(8); // "z\u2028w" is two physical lines
  });
});
