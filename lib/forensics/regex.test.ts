/** Tests of grep patterns: the literal prefilter, anchors, tool families. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { RE2JS } from "re2js";

import { grepFile } from "@/lib/forensics/grep";
import { buildLineIndex } from "@/lib/jsonl/line-index";
import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { makeTempDir } from "@/lib/testing/shared";

import { toolFamily } from "@/lib/forensics/classify";
import { compileGrepPattern, requiredLiteral } from "@/lib/forensics/regex";

describe("grep pattern prefilter", () => {
  it.each([
    ['"type":"assistant"', '"type":"assistant"'],
    ['"name":"(Read|Bash)"', '"name":"'],
    ["exited with code [1-9]", "exited with code "],
    ["colou?r", "colo"],
    ["ab+c\\.json", "c.json"],
    ["(?i)hello", null],
    ["ab(?i)cdefg", null],
    ["[[:alpha:]]abc", "abc"],
    ["(a|\\Q)\\Ebcd)", null],
    ["(?:xy)Workscope ID: [0-9]+", "Workscope ID: "],
    ["foo|barbaz", null],
    ["[a-z]+", null],
  ])("requiredLiteral(%s) = %s", (pattern, expected) => {
    expect(requiredLiteral(pattern)).toBe(expected);
  });

  it("marks plain strings exact and reports RE2 syntax errors", () => {
    expect(compileGrepPattern("tool_use_id")).toMatchObject({ exact: true });
    expect(compileGrepPattern("tool_use_id\\d")).toMatchObject({ exact: false });
    expect(compileGrepPattern("(a")).toHaveProperty("error");
    expect(compileGrepPattern("(a)\\1")).toHaveProperty("error");
  });

  it("knows when every match starts with the needle, and folds ASCII case under a leading (?i)", () => {
    expect(compileGrepPattern("Workscope ID: [0-9]+")).toMatchObject({ needle: Buffer.from("Workscope ID: "), startsWithNeedle: true, exact: false });
    expect(compileGrepPattern("[0-9]+ Workscope ID")).toMatchObject({ needle: Buffer.from(" Workscope ID"), startsWithNeedle: false });
    expect(compileGrepPattern("(?i)error")).toMatchObject({ needle: Buffer.from("error"), ignoreCase: true, exact: true });
    // RE2 folds s and k to U+017F and U+212A: the needle stops there and the regex confirms.
    expect(compileGrepPattern("(?i)is_error")).toMatchObject({ needle: Buffer.from("_error"), ignoreCase: true, exact: false });
    expect(compileGrepPattern("(?i)(?s)error")).toMatchObject({ needle: null });
  });
});

describe("tool families", () => {
  it("maps Claude and Codex tools, refining shell commands by their first word", () => {
    expect(toolFamily("Read")).toBe("read");
    expect(toolFamily("MultiEdit")).toBe("edit");
    expect(toolFamily("apply_patch")).toBe("edit");
    expect(toolFamily("Task")).toBe("delegate");
    expect(toolFamily("WebFetch")).toBe("web");
    expect(toolFamily("exec_command", "sed -n '1,80p' a.ts")).toBe("read");
    expect(toolFamily("shell", "rg foo")).toBe("search");
    expect(toolFamily("Bash", "npm test")).toBe("run");
    expect(toolFamily("mcp__x__y")).toBe("other");
  });
});

describe("grep anchors", () => {
  it("matches ^ and $ at every line of a chunk, like grep", async () => {
    const file = path.join(await makeTempDir(), "a.jsonl");
    await fs.writeFile(file, '{"a":1}\n{"b":2}\n x{"c":3}\n{"d":4} \n');
    const index = await buildLineIndex(file);
    const lines = async (pattern: string) => {
      const out: number[] = [];
      const compiled = compileGrepPattern(pattern);
      if ("error" in compiled) throw new Error(compiled.error);
      await grepFile(file, index, compiled, (n) => out.push(n));
      return out;
    };
    expect(await lines('^\\{"')).toEqual([1, 2, 4]);
    expect(await lines("\\}$")).toEqual([1, 2, 3]);
    expect(await lines("^.{7}$")).toEqual([1, 2]);
  });
});

describe("grep over whole-line chunks", () => {
  it("finds exactly the lines a line-by-line RE2 test finds, whatever the breaks, needles per line and line length", async () => {
    const long = `{"big":"${"y".repeat(1_500_000)} Workscope ID: 42 tool_use_id"}`;
    const lines = [
      '{"type":"user","content":"Workscope ID: 20260113"}',
      `{"x":"${"Workscope ID: W ".repeat(20)}Workscope ID: 7"}`,
      `{"x":"${"Workscope ID: W ".repeat(20)}"}`,
      '{"name":"Read","is_error":true}\r\n{"name":"Bash"}\r{"name":"Edit"}\r\n\r\n{"a":1}\u2028{"b":2}\f',
      'before xa\u000bby after \u2028 "IS_ERROR":TRUE \u0085 Is_Error tool_use_id',
      "TAS\u212a task \u017fession SESSION",
      long,
      '{"name":"Bash","tool_use_id":"t1"} Workscope ID: 9',
      "",
      "tail without break tool_use_id",
    ];
    const file = path.join(await makeTempDir(), "a.jsonl");
    await fs.writeFile(file, lines.join("\n"));
    const index = await buildLineIndex(file);
    for (const pattern of ['"is_error":true', "Workscope ID: [0-9]+", "Workscope ID: W", '"name":"(Read|Bash)"', "tool_use_id", "(?i)is_error", "(?i)IS_ERROR\":true", "(?i)task", "(?i)session", "xa\u000bby", "^\\{\"", "\\}$", "^$", "^[^W]*$", "\\A\\{", "\\}\\z", "[0-9]{2}"]) {
      const compiled = compileGrepPattern(pattern);
      if ("error" in compiled) throw new Error(compiled.error);
      const ours: string[] = [];
      await grepFile(file, index, compiled, (n, decode) => ours.push(`${n}:${decode().length}`));
      const re = RE2JS.compile(pattern);
      const expected: string[] = [];
      for await (const line of streamLineBytes(file)) {
        const bytes = line.bytes.subarray(line.start, line.end);
        if (re.test(bytes)) expected.push(`${line.line}:${bytes.toString("utf8").length}`);
      }
      expect({ pattern, lines: ours }).toEqual({ pattern, lines: expected });
    }
  });
});

describe("grep and the event loop", () => {
  it("gives the event loop turns while it searches a large file", async () => {
    const line = `{"type":"assistant","text":"${"z".repeat(1000)}"}\n`;
    const file = path.join(await makeTempDir(), "big.jsonl");
    await fs.writeFile(file, line.repeat(20_000)); // ~20 MB
    const index = await buildLineIndex(file);
    const compiled = compileGrepPattern('"type":"assistant"');
    if ("error" in compiled) throw new Error(compiled.error);
    let lastLine = 0;
    const seenAtTurns: number[] = [];
    let running = true;
    const tick = () => {
      seenAtTurns.push(lastLine);
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    await grepFile(file, index, compiled, (n) => (lastLine = n));
    running = false;
    expect(lastLine).toBe(20_000);
    // Some turn ran after the first matches and before the last one.
    expect(seenAtTurns.some((n) => n > 0 && n < 20_000)).toBe(true);
  });
});
