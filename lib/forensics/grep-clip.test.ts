/** Issue 36: a hit far into a long line comes with the text around its match, so its snippet starts near it. */
import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { grepJsonl, MAX_RAW_CHARS } from "@/lib/forensics/grep";
import { type GrepJsonlResult, grepJsonlInputSchema } from "@/lib/forensics/schema";
import { highlightRegex, matchSnippet } from "@/lib/format/text-match";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

/** A Claude tool-result line of about `size` characters with `word` `at` characters into its content. */
function toolResultLine(word: string, at: number, size: number): string {
  const content = `${"x".repeat(at)} ${word} ${"y".repeat(size - at)}`;
  return JSON.stringify({ parentUuid: "8e49228f-e3c6-4399-b4ce-75a7a8f5fb92", isSidechain: false, type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content }] } });
}

describe("grep_jsonl on a line longer than its raw cap", () => {
  it("returns the characters around a match past the cap, and the line's start for a match within it", async () => {
    const far = toolResultLine("needle", 30_000, 60_000);
    const near = toolResultLine("needle", 100, 60_000);
    const root = await buildTestWorkspace([{ ref: "S0001", content: `${far}\n${near}\n` }]);
    const result = (await grepJsonl(createCoreContext(root), grepJsonlInputSchema.parse({ project_key: TEST_PROJECT_KEY, pattern: "needle" }))) as GrepJsonlResult;
    expect(result.entries.map((e) => [e.line_number, e.raw_clipped, e.raw.length])).toEqual([
      [1, true, MAX_RAW_CHARS],
      [2, true, MAX_RAW_CHARS],
    ]);
    const [first, second] = result.entries as [GrepJsonlResult["entries"][0], GrepJsonlResult["entries"][0]];
    expect(far.includes(first.raw)).toBe(true);
    expect(first.raw).toContain(" needle ");
    expect(second.raw).toBe(near.slice(0, MAX_RAW_CHARS));

    // The project search page's snippet of each: near the match, not the record's first keys.
    for (const entry of result.entries) {
      const snippet = matchSnippet(entry.raw, highlightRegex("needle"), 110);
      expect(snippet).not.toContain("parentUuid");
      expect(snippet.indexOf("needle")).toBeGreaterThan(0);
      expect(snippet.indexOf("needle")).toBeLessThan(120);
    }
  });
});
