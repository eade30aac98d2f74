import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { grepFile } from "@/lib/forensics/grep";
import { buildLineIndex } from "@/lib/jsonl/line-index";
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
