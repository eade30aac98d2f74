/** Tests of context-reset detection, the record walk and analyzeSessionFile on synthetic transcripts. */
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { analyzeSessionFile } from "@/lib/analysis/analyze-file";
import { detectContextResets } from "@/lib/analysis/context-resets";
import { walkRecords } from "@/lib/jsonl/record-walk";
import type { FileRead } from "@/lib/analysis/schema";
import { makeTempDir } from "@/lib/testing/shared";

const point = (line: number, cache_read: number) => ({ line, cache_read, cache_creation: 5, input: 3, output: 1 });

describe("detectContextResets (seed 003 algorithm)", () => {
  it("counts drops of more than the threshold from the previous non-zero value; zeros are skipped", () => {
    const resets = detectContextResets([point(1, 50_000), point(2, 0), point(3, 39_999), point(4, 30_000), point(5, 20_000)], 10);
    expect(resets).toEqual([{ session_line: 3, from_tokens: 50_000, to_tokens: 39_999, position_percent: 30, cache_creation_tokens: 5, total_input_tokens: 40_007 }]);
  });
  it("a drop of exactly the threshold is not a reset", () => {
    expect(detectContextResets([point(1, 20_000), point(2, 10_000)], 2)).toEqual([]);
  });
});

async function writeLines(lines: string[], tail = "\n"): Promise<string> {
  const file = path.join(await makeTempDir("analysis-"), "s.jsonl");
  await fs.writeFile(file, lines.join("\n") + tail);
  return file;
}

describe("walkRecords", () => {
  it("numbers records by physical line (contract §1.6): a raw U+2028 inside a string adds a line", async () => {
    const file = await writeLines(['{"a":"x\u2028y"}', "", '{"b":1}'], "");
    for (const asyncReads of [false, true]) {
      const got: [number, string][] = [];
      await walkRecords(file, 0, Infinity, (bytes, line) => void got.push([line, bytes.toString("utf8")]), { chunkBytes: 4, asyncReads });
      expect(got).toEqual([[1, '{"a":"x\u2028y"}'], [3, ""], [4, '{"b":1}']]);
    }
  });

  it("stops at the record whose callback returns false", async () => {
    const file = await writeLines(["a", "b", "c"]);
    const seen: string[] = [];
    await walkRecords(file, 0, Infinity, (bytes) => (seen.push(bytes.toString("utf8")), bytes.toString("utf8") !== "b"), { chunkBytes: 2 });
    expect(seen).toEqual(["a", "b"]);
  });
});

describe("analyzeSessionFile on a synthetic transcript", () => {
  const assistant = (id: string, cacheRead: number, content: unknown[]) =>
    JSON.stringify({ type: "assistant", message: { id, role: "assistant", content, usage: { input_tokens: 2, cache_creation_input_tokens: 7, cache_read_input_tokens: cacheRead, output_tokens: 3 } } });
  const result = (id: string, content: unknown, isError = false) =>
    JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, is_error: isError }] } });

  it("reads, batches, success, markers only at the start of tool_result content, reset before use", async () => {
    const file = await writeLines([
      JSON.stringify({ type: "user", message: { role: "user", content: "Workscope ID: 20260101-123456 — see <persisted-output> bug" } }),
      assistant("m1", 50_000, [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "/p/a.md" } }, { type: "tool_use", id: "t2", name: "Read", input: { file_path: "/p/b.md" } }]),
      result("t1", "<persisted-output>\nOutput too large"),
      result("t2", "nope", true),
      assistant("m2", 60_000, [{ type: "text", text: "Looking at a.md now" }]),
      assistant("m3", 20_000, [{ type: "text", text: "As a.md says" }]),
      assistant("m4", 21_000, [{ type: "tool_use", id: "t3", name: "Bash", input: { command: "ls" } }]),
    ]);
    const a = await analyzeSessionFile(file, "claude-code", 10_000, { toolResultFiles: ["t1.txt", "t3.txt"], hasSubagents: false, export: null });
    const reads = a.reads as FileRead[];
    expect(reads.map((r) => [r.sequence, r.line, r.batch, r.success, r.persisted, r.result_line, r.first_use_line, r.last_use_line, r.reset_before_use_line])).toEqual([
      [1, 2, 1, true, true, 3, 5, 6, 6],
      [2, 2, 1, false, false, 4, 5, null, null],
    ]);
    expect(a.markers).toEqual([{ line: 3, tool_use_id: "t1", marker: "<persisted-output>" }]);
    expect(a.marker_mentions_in_conversation).toBe(1);
    expect(a.workscope_id).toBe("20260101-123456");
    expect(a.persistence).toEqual({ persisted_reads: ["t1"], inline_reads: ["t2"], persisted_non_reads: [{ tool_use_id: "t3", tool_name: "Bash", file_name: "t3.txt" }] });
    expect(a.resets.map((r) => r.session_line)).toEqual([6]);
  });

  it("byte classification: spaced JSON, the 2.1.3x layout (content before the id), big results, marker text inside a file", async () => {
    const big = "x".repeat(70 << 10);
    const file = await writeLines([
      // Spaced JSON (not how Claude Code writes, but valid): the role and is_error are still found.
      '{"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/p/a.md"}}], "usage": {"cache_read_input_tokens": 50000}}}',
      '{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "no such file", "is_error": true}]}}',
      assistant("m2", 50_000, [{ type: "tool_use", id: "t2", name: "Read", input: { file_path: "/p/b.md" } }, { type: "tool_use", id: "t3", name: "Read", input: { file_path: "/p/c.md" } }]),
      // 2.1.3x: type and content first, the id after a long content.
      JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", content: [{ type: "text", text: `discusses <persisted-output> ${big}` }], tool_use_id: "t2" }] } }),
      // Over 64 KB: a success carrying the file, even with the words "is_error": true inside it.
      JSON.stringify({ type: "user", message: { role: "user", content: [{ tool_use_id: "t3", type: "tool_result", content: `"is_error":true ${big}` }] } }),
      JSON.stringify({ type: "user", message: { role: "user", content: [{ tool_use_id: "t9", type: "tool_result", content: "[Old tool result content cleared]" }] } }),
    ]);
    const a = await analyzeSessionFile(file, "claude-code");
    expect((a.reads as FileRead[]).map((r) => [r.tool_use_id, r.result_line, r.success])).toEqual([
      ["t1", 2, false],
      ["t2", 4, true],
      ["t3", 5, true],
    ]);
    expect(a.token_points.map((p) => p.line)).toEqual([1, 3]);
    // A file that discusses a marker is neither a marker nor a conversation mention; a result that is one is a marker.
    expect(a.markers).toEqual([{ line: 6, tool_use_id: "t9", marker: "[Old tool result content cleared]" }]);
    expect(a.marker_mentions_in_conversation).toBe(0);
  });

  it("a source without a figure says so instead of 0 (Codex: no reads, no cache creation)", async () => {
    const tc = (input: number, cached: number, total: number) =>
      JSON.stringify({ type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { total_tokens: total }, last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: 4 } } } });
    const file = await writeLines([tc(60_000, 50_000, 1), tc(60_000, 50_000, 1), tc(70_000, 30_000, 2)]);
    const a = await analyzeSessionFile(file, "codex");
    expect(a.token_points).toEqual([
      { line: 1, cache_read: 50_000, cache_creation: null, input: 10_000, output: 4 },
      { line: 3, cache_read: 30_000, cache_creation: null, input: 40_000, output: 4 },
    ]);
    expect(a.resets).toEqual([{ session_line: 3, from_tokens: 50_000, to_tokens: 30_000, position_percent: 100, cache_creation_tokens: null, total_input_tokens: 70_000 }]);
    expect(a.reads).toMatchObject({ value: null, reason: expect.stringMatching(/Read tool/) });
  });
});
