/** Tests of the compact record cache. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildCompactRecords } from "@/lib/session-reader/compact";
import { COMPACT_BLOCK_LINES } from "@/lib/session-reader/compact-store";
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

/** A Codex record at line `n`, stamped `n` seconds (plus `ms`) after the first. */
function codexLineAt(n: number, record: Record<string, unknown>, ms = 0): Record<string, unknown> {
  return { timestamp: new Date(Date.UTC(2026, 4, 12, 1, 0, 0) + n * 1000 + ms).toISOString(), ...record };
}

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

  it("builds stored blocks in batches that judge echoes exactly as one pass over the file", async () => {
    // Echo pairs (a user's response then its event, an agent's event then its response) across
    // batch edges (32|33, 64|65, 532|533) and block edges (500|501, 1000|1001), and inside a
    // batch; a malformed line and a line whose bytes are not UTF-8 among them.
    const pairs = new Map<number, "user" | "assistant">([[32, "user"], [64, "assistant"], [90, "user"], [500, "assistant"], [532, "user"], [1000, "user"]]);
    const lines: (string | Buffer)[] = [JSON.stringify(codexLineAt(1, { type: "session_meta", payload: { id: "x", cwd: "/tmp/x" } }))];
    while (lines.length < 1100) {
      const n = lines.length + 1;
      const role = pairs.get(n);
      if (role !== undefined) {
        const text = `message ${n}`;
        const response = codexLineAt(n, { type: "response_item", payload: { type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text }] } }, role === "user" ? 0 : 40);
        const event = codexLineAt(n, { type: "event_msg", payload: { type: role === "user" ? "user_message" : "agent_message", message: text } }, role === "user" ? 40 : 0);
        lines.push(...(role === "user" ? [response, event] : [event, response]).map((r) => JSON.stringify(r)));
      } else if (n === 400) lines.push("not json");
      else if (n === 401) lines.push(Buffer.concat([Buffer.from('{"timestamp":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","type":"event_msg","payload":{}}')]));
      else lines.push(JSON.stringify(codexLineAt(n, { type: "event_msg", payload: { type: "token_count", info: null } })));
    }
    const content = Buffer.concat(lines.flatMap((l) => [Buffer.from(l), Buffer.from("\n")]));
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", source: "codex", content }]));
    const whole = buildCompactRecords(lines.map((l, i) => ({ line: i + 1, text: Buffer.from(l).toString("utf8"), bytes: Buffer.from(l) })), "codex");
    expect(whole.filter((r) => r.duplicate_of !== null).map((r) => r.line)).toEqual([33, 64, 91, 500, 533, 1001]);
    expect(lines.length).toBeGreaterThan(2 * COMPACT_BLOCK_LINES);
    compactRecordCache.clear();
    expect(await read(ctx, 1, lines.length)).toEqual(whole);
    // The stored blocks, read back by a later process (its record cache empty), agree too.
    compactRecordCache.clear();
    expect(await read(ctx, 1, lines.length)).toEqual(whole);
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
