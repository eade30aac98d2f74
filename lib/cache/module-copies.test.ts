/** Caches stay one per process whichever copy of a module asks. */
import { describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { freshProcess } from "@/lib/testing/fresh-process";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

const at = (minute: number) => `2026-05-12T01:${String(minute).padStart(2, "0")}:00Z`;
const lines = [
  { type: "user", timestamp: at(0), message: { role: "user", content: "read a.ts" } },
  { type: "assistant", timestamp: at(1), message: { role: "assistant", id: "m1", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "a.ts" } }], usage: { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 10 } } },
  { type: "user", timestamp: at(2), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "x" }] } },
  { type: "assistant", timestamp: at(3), message: { role: "assistant", id: "m2", content: [{ type: "text", text: "done" }], usage: { input_tokens: 1, output_tokens: 2 } } },
].map((l) => JSON.stringify(l));

/** The modules whose caches are checked, as one copy of the module graph loads them. */
async function copy() {
  vi.resetModules();
  return {
    load: await import("@/lib/workspace/load"),
    sessions: await import("@/lib/workspace/sessions"),
    scan: await import("@/lib/forensics/scan"),
    records: await import("@/lib/session-reader/record-cache"),
    analysis: await import("@/lib/analysis/session-analysis"),
    values: await import("@/lib/json/shared-values"),
    synthesis: await import("@/lib/synthesis/synthesis-state"),
  };
}

describe("caches are one per process, whichever copy of a module asks (issue 13: Next loads lib/ once per bundle layer)", () => {
  it("two copies of the module graph share the loaded workspace, the session scan, the compact records and their texts, the analysis and the synthesis state", async () => {
    freshProcess();
    const root = await buildTestWorkspace([{ ref: "S0001", content: `${lines.join("\n")}\n` }]);
    const ctx = createCoreContext(root, { now: () => new Date("2026-05-13T00:00:00Z") });
    const a = await copy();
    const b = await copy();
    // Two copies indeed: each has its own functions and classes.
    expect(b.load.loadWorkspace).not.toBe(a.load.loadWorkspace);

    expect(await b.load.loadWorkspace(ctx)).toBe(await a.load.loadWorkspace(ctx));
    const session = (c: typeof a) => c.sessions.getSession(ctx, TEST_PROJECT_KEY, "S0001");
    const scanned = await a.scan.scanSession(ctx, await session(a));
    expect(await b.scan.scanSession(ctx, await session(b))).toBe(scanned);
    expect(b.records.compactRecordCache).toBe(a.records.compactRecordCache);
    // A value shared by one copy (a cached record) is known as shared, with its texts, to the other.
    const record = a.values.shareValue({ line: 1, text: "x" });
    expect(b.values.isShared(record)).toBe(true);
    const serialize = vi.fn((v: object) => JSON.stringify(v));
    expect(a.values.memoText("json", record, serialize)).toBe(b.values.memoText("json", record, serialize));
    expect(serialize).toHaveBeenCalledTimes(1);
    const analysed = await a.analysis.getSessionAnalysis(ctx, await session(a), 10_000);
    expect(await b.analysis.getSessionAnalysis(ctx, await session(b), 10_000)).toBe(analysed);
    expect(await b.synthesis.getSynthesisState(ctx, TEST_PROJECT_KEY)).toBe(await a.synthesis.getSynthesisState(ctx, TEST_PROJECT_KEY));
  });
});
