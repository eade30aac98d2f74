// The catalog's line extraction read ahead on a worker: facts, positions and the half-written last line.
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { lineFacts } from "@/lib/catalog/extract";
import { extractFileLines, LinePrefetch, wholeFileRange } from "@/lib/catalog/extract-lines";
import { lineTokens, termTokens, wordsAt } from "@/lib/catalog/trigram-tokens";
import { makeTempDir } from "@/lib/testing/shared";

const user = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: text } });
const toolUse = (file: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: file } }] } });
const toolError = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "ENOENT: no such file" }] } });

describe("extractFileLines (the catalog's lines, extracted ahead on a worker)", () => {
  let dir = "";
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it("gives each whole non-blank physical line its facts, the position after it, and leaves a half-written last line out", async () => {
    dir = await makeTempDir("casefile-extract-lines-");
    const file = path.join(dir, "s.jsonl");
    // Line 2 holds a raw U+2028, which ends a physical line (contract §1.6): lines 2 and 3.
    const lines = [user("first question"), `{"type":"user","message":{"role":"user","content":"split\u2028here"}}`, "", toolUse("src/auth.ts"), toolError, "   ", user("last whole")];
    const whole = lines.join("\n") + "\n";
    const tail = '{"type":"user","message":{"con';
    await fs.writeFile(file, whole + tail);
    const got = await extractFileLines(file, await wholeFileRange(file), 64);
    expect(got.size).toBe(Buffer.byteLength(whole + tail));
    expect(got.consumed).toBe(Buffer.byteLength(whole));
    // Physical lines: 1, 2 (ends at U+2028), 3 (the rest), 4 blank, 5, 6, 7 blank, 8.
    expect(got.lastLine).toBe(8);
    expect(Array.from(got.lines)).toEqual([1, 2, 3, 5, 6, 8]);
    expect(got.head).toEqual(Uint8Array.from(Buffer.from(whole).subarray(0, 64)));
    expect(wordsAt(got.words, 0).toString("latin1")).toBe(lineTokens(lineFacts(lines[0]!).text));
    expect(wordsAt(got.words, 0).toString("latin1").split(" ").filter(Boolean)).toEqual(expect.arrayContaining(termTokens("first question")));
    expect(got.tools[3]).toBe("Read");
    expect(got.files[3]).toBe("src/auth.ts");
    expect(got.calls[3]).toBe("t1");
    // The result answers call t1: filed under its tool and file too, as a tool line.
    expect(got.tools[4]).toBe("Read");
    expect(got.files[4]).toBe("src/auth.ts");
    // Lines 2 and 3 are the halves of a record cut by U+2028: not JSON, read as they are (role other).
    expect(Array.from(got.roles)).toEqual([0, 3, 3, 1, 2, 0]);
    expect(Array.from(got.errors)).toEqual([0, 0, 0, 0, 1, 0]);
    // Each line's byte span: the bytes it is read back from.
    const bytes = Buffer.from(whole);
    for (const [k, line] of Array.from(got.lines).entries()) expect(lineTokens(lineFacts(bytes.toString("utf8", got.starts[k], got.starts[k]! + got.lens[k]!)).text), `line ${line}`).toBe(wordsAt(got.words, k).toString("latin1"));
    expect(got.ends[got.ends.length - 1]).toBe(got.consumed);
    expect(got.ends[0]).toBe(Buffer.byteLength(lines[0]!) + 1);
  });

  it("hands the same result over from its worker, in the order files were queued, and none for a file it was not asked for", async () => {
    dir ||= await makeTempDir("casefile-extract-lines-");
    const a = path.join(dir, "a.jsonl");
    const b = path.join(dir, "b.jsonl");
    await fs.writeFile(a, `${user("alpha")}\n`);
    await fs.writeFile(b, `${user("beta")}\n${toolUse("b.ts")}\n`);
    const prefetch = new LinePrefetch(4096);
    try {
      prefetch.want(a);
      prefetch.want(b);
      const [ga, gb] = await Promise.all([prefetch.take(a), prefetch.take(b)]);
      expect(ga).toEqual(await extractFileLines(a, await wholeFileRange(a), 4096));
      expect(gb?.files).toEqual(["", "b.ts"]);
      expect(prefetch.take(a)).toBeUndefined();
    } finally {
      await prefetch.close();
    }
  });
});
