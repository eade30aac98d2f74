/** The stored session scan: a fresh process skips the pass over the transcripts. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import type { SessionOverviewInput, SessionOverviewResult } from "@/lib/forensics/schema";
import { freshProcess } from "@/lib/testing/fresh-process";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

const at = (minute: number) => `2026-05-12T01:${String(minute).padStart(2, "0")}:00Z`;
const user = (minute: number, text: string) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: text } });
const call = (minute: number) =>
  JSON.stringify({ type: "assistant", timestamp: at(minute), message: { role: "assistant", id: `m${minute}`, content: [{ type: "tool_use", id: `t${minute}`, name: "Read", input: { file_path: "a.ts" } }], usage: { input_tokens: 3, output_tokens: 4 } } });
const result = (minute: number) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${minute - 1}`, content: "x", is_error: true }] } });
const reply = (minute: number) => JSON.stringify({ type: "assistant", timestamp: at(minute), message: { role: "assistant", id: `r${minute}`, content: [{ type: "text", text: "done" }], usage: { input_tokens: 1, output_tokens: 2 } } });

/** A fresh module graph: what a new process sees (no scan in memory). */
async function freshOverview() {
  freshProcess();
  const { sessionOverview } = await import("@/lib/forensics/overview");
  const { sessionAuditEvents } = await import("@/lib/ledger/session-audit");
  return (ctx: CoreContext, input: SessionOverviewInput) => sessionOverview(ctx, input, sessionAuditEvents);
}

describe("the stored session scan (a fresh process skips the pass over the transcripts)", () => {
  it("answers from the stored scan while the files are unchanged, and rebuilds when one changes", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: [user(0, "read a.ts"), call(1), result(2), reply(3)].join("\n") + "\n" }]);
    const ctx = createCoreContext(root, { now: () => new Date("2026-05-13T00:00:00Z") });
    const ids = { project_key: TEST_PROJECT_KEY, session_ref: "S0001" };
    const first = (await (await freshOverview())(ctx, ids)) as SessionOverviewResult;
    expect(first.diagnostics.event_types).toHaveProperty("user_message");
    expect(first.diagnostics.tools.by_tool.Read).toEqual({ called: 1, succeeded: 0, failed: 1 });

    const dir = path.join(root, ".casefile", "forensics");
    const [name] = await fs.readdir(dir);
    expect(name).toMatch(/^[0-9a-f]{64}\.scan$/);
    const again = (await (await freshOverview())(ctx, ids)) as SessionOverviewResult;
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));

    // Proof that the fresh process read the stored scan: an edit of the stored file shows through…
    const file = path.join(dir, name!);
    const stored = await fs.readFile(file);
    await fs.writeFile(file, Buffer.from(stored.toString("latin1").replace('"user_message"', '"user_mesXage"'), "latin1"));
    const tampered = (await (await freshOverview())(ctx, ids)) as SessionOverviewResult;
    expect(tampered.diagnostics.event_types).toHaveProperty("user_mesXage");

    // …until a transcript changes (size or mtime): then the scan is rebuilt and stored again.
    const transcript = path.join(root, "projects", TEST_PROJECT_KEY, "sessions", "claude-code", "s0001.jsonl");
    await fs.utimes(transcript, new Date("2026-05-12T02:00:00Z"), new Date("2026-05-12T02:00:00Z"));
    const rebuilt = (await (await freshOverview())(ctx, ids)) as SessionOverviewResult;
    expect(rebuilt.diagnostics.event_types).toHaveProperty("user_message");
    expect(JSON.stringify(rebuilt.diagnostics)).toBe(JSON.stringify(first.diagnostics));

    // A torn or foreign file is ignored, never an error.
    await fs.writeFile(file, "not a scan");
    expect(JSON.stringify(await (await freshOverview())(ctx, ids))).toBe(JSON.stringify(rebuilt));
  });
});
