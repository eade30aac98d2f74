import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { CompactRecordCache, compactRecordCache, recordCost } from "@/lib/session-reader/record-cache";
import type { CompactRecord } from "@/lib/session-reader/schema";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

const ts = (ms: number) => new Date(Date.UTC(2026, 4, 12, 1, 0, 0, ms)).toISOString();
// A Codex user response on line 2 and its event echo on line 3 (+50 ms), among other lines.
const codexLines = [
  { timestamp: ts(0), type: "session_meta", payload: { id: "x", cwd: "/tmp/x" } },
  { timestamp: ts(10), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hello" }] } },
  { timestamp: ts(60), type: "event_msg", payload: { type: "user_message", message: "hello" } },
  { timestamp: ts(70), type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "hi" }] } },
].map((r) => JSON.stringify(r));

async function read(ctx: ReturnType<typeof createCoreContext>, start: number, end: number): Promise<CompactRecord[]> {
  const result = await readSessionLines(ctx, { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: start, end_line: end });
  if (result.status !== "ok") throw new Error(JSON.stringify(result));
  return result.records as CompactRecord[];
}

describe("compact record cache", () => {
  it("gives exactly the records of a cold read, echoes on window edges included", async () => {
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", source: "codex", content: codexLines.join("\n") + "\n" }]));
    compactRecordCache.clear();
    const cold = await read(ctx, 1, 4);
    expect(cold[2]!.duplicate_of).toBe(2);
    compactRecordCache.clear();
    await read(ctx, 3, 3); // line 3 alone: its echo partner is outside the window
    await read(ctx, 1, 2);
    expect(await read(ctx, 1, 4)).toEqual(cold);
  });

  it("misses after the file changes", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", source: "codex", content: codexLines.join("\n") + "\n" }]);
    const ctx = createCoreContext(root);
    await read(ctx, 1, 4);
    const file = path.join(root, "projects", TEST_PROJECT_KEY, "sessions", "codex", "s0001.jsonl");
    await fs.writeFile(file, [codexLines[0], "not json", codexLines[2], codexLines[3]].join("\n") + "\n");
    const after = await read(ctx, 1, 4);
    expect(after[1]!.summary).toBe("Malformed JSONL line.");
    expect(after[2]!.duplicate_of).toBeNull();
  });

  it("evicts least recently used records past its budget", () => {
    const record = (line: number) => ({ line, text_preview: "x".repeat(100), tool_uses: [], tool_results: [] }) as unknown as CompactRecord;
    const cost = recordCost(record(10));
    const cache = new CompactRecordCache(13 * cost); // 13 records of this size fit
    for (let line = 10; line < 30; line += 1) cache.set("v", record(line));
    expect(cache.get("v", 10)).toBeUndefined();
    expect(cache.get("v", 29)?.line).toBe(29);
    expect(cache.get("v", 17)?.line).toBe(17);
    expect(cache.get("v", 16)).toBeUndefined();
  });

  it("counts a record's bytes from its JSON, texts kept beside it included", () => {
    const small = { line: 1, text_preview: "x", tool_uses: [], tool_results: [] } as unknown as CompactRecord;
    const big = { line: 2, text_preview: "y".repeat(10_000), tool_uses: [], tool_results: [] } as unknown as CompactRecord;
    expect(recordCost(big) - recordCost(small)).toBe(3 * (JSON.stringify(big).length - JSON.stringify(small).length));
    // A cache of 10 big records' bytes keeps 10 big ones, or 100 small ones: bounded by bytes, not entries.
    const cache = new CompactRecordCache(10 * recordCost({ ...big, line: 10 }));
    for (let line = 10; line < 22; line += 1) cache.set("v", { ...big, line });
    expect(Array.from({ length: 12 }, (_, i) => i + 10).filter((line) => cache.get("v", line) !== undefined)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
    const many = new CompactRecordCache(10 * recordCost(big));
    for (let line = 1; line <= 100; line += 1) many.set("v", { ...small, line });
    expect(many.get("v", 1)?.line).toBe(1);
  });

  it("never caches a record larger than an eighth of its budget", () => {
    const big = { line: 1, text_preview: "z".repeat(5_000), tool_uses: [], tool_results: [] } as unknown as CompactRecord;
    const cache = new CompactRecordCache(7 * recordCost(big));
    cache.set("v", big);
    expect(cache.get("v", 1)).toBeUndefined();
  });
});
