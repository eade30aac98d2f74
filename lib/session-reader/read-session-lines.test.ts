/** Tests of read_session_lines: error cases and results. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import type { CompactRecord, FullRecord } from "@/lib/session-reader/schema";
import { copyFixtureWorkspace, HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

const HINT = "request a 1-based line range contained by the session";

async function setup() {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(2500) }, { ref: "S0002", content: userLines(8) }]);
  return createCoreContext(root);
}

const req = (over: Record<string, unknown>) => ({ project_key: TEST_PROJECT_KEY, session_ref: "S0002", start_line: 1, end_line: 2, ...over });

describe("read_session_lines error cases (seed 000)", () => {
  it.each([
    [{ project_key: "Nope" }, "project_key", "unknown project_key 'Nope'", "use the project_key from the prepared workspace"],
    [{ session_ref: "S9999" }, "session_ref", `unknown session_ref 'S9999' for project '${TEST_PROJECT_KEY}'`, "use a session_ref listed in sessions.index.jsonl"],
    [{ start_line: 0 }, "start_line", "start_line 0 must be a positive 1-based line number", HINT],
    [{ start_line: 5, end_line: 3 }, "end_line", "end_line 3 must be >= start_line 5", HINT],
    [{ start_line: 9, end_line: 9 }, "start_line", "start_line 9 is past the session's last line 8", HINT],
    [{ start_line: 2, end_line: 9 }, "end_line", "end_line 9 is past the session's last line 8", HINT],
  ])("%j → %s", async (over, field, message, hint) => {
    const result = await readSessionLines(await setup(), req(over));
    expect(result).toEqual({ status: "invalid", errors: [{ field, message, hint }] });
  });

  it("reports a missing session file", async () => {
    const ctx = await setup();
    await fs.rm(path.join(ctx.workspaceRoot, "projects", TEST_PROJECT_KEY, "sessions", "claude-code", "s0002.jsonl"));
    expect(await readSessionLines(ctx, req({}))).toEqual({
      status: "invalid",
      errors: [{ field: "session_ref", message: "session file for session_ref 'S0002' is missing from the prepared workspace", hint: "ensure the prepared workspace still contains the copied session file" }],
    });
  });

  it("caps compact mode at exactly 2000 lines", async () => {
    const ctx = await setup();
    const ok = await readSessionLines(ctx, req({ session_ref: "S0001", start_line: 101, end_line: 2100 }));
    expect(ok.status).toBe("ok");
    if (ok.status === "ok") expect(ok.records).toHaveLength(2000);
    const tooBroad = await readSessionLines(ctx, req({ session_ref: "S0001", start_line: 101, end_line: 2101 }));
    expect(tooBroad).toEqual({
      status: "invalid",
      errors: [{ field: "end_line", message: "range 101-2101 spans 2001 lines; compact mode reads at most 2000 lines per call", hint: "request at most 2000 lines per call" }],
    });
  });

  it("caps full mode at exactly 100 lines", async () => {
    const ctx = await setup();
    const ok = await readSessionLines(ctx, req({ session_ref: "S0001", start_line: 1, end_line: 100, mode: "full" }));
    expect(ok.status === "ok" && ok.records.length).toBe(100);
    const tooBroad = await readSessionLines(ctx, req({ session_ref: "S0001", start_line: 1, end_line: 101, mode: "full" }));
    expect(tooBroad.status === "invalid" && tooBroad.errors[0]).toEqual({
      field: "end_line",
      message: "range 1-101 spans 101 lines; full mode reads at most 100 lines per call",
      hint: "request at most 100 lines in full mode, or use compact mode",
    });
  });

  it("rejects mistyped input field by field", async () => {
    const result = await readSessionLines(await setup(), { project_key: TEST_PROJECT_KEY, session_ref: "S0002", start_line: "1", end_line: 2.5, mode: "raw" });
    expect(result.status === "invalid" && result.errors.map((e) => e.field)).toEqual(["start_line", "end_line", "mode"]);
  });
});

describe("read_session_lines results", () => {
  it("returns the seed's compact shape with every field", async () => {
    const result = await readSessionLines(await setup(), req({ start_line: 2, end_line: 3 }));
    expect(result.status).toBe("ok");
    if (result.status !== "ok") return;
    expect(result).toMatchObject({ project_key: TEST_PROJECT_KEY, session_ref: "S0002", line_range: { start: 2, end: 3 }, mode: "compact" });
    const first = result.records[0] as CompactRecord;
    expect(Object.keys(first).sort()).toEqual(
      ["content_kinds", "duplicate_of", "line", "raw_bytes", "raw_sha256", "record_type", "role", "summary", "text_preview", "tool_results", "tool_uses", "truncated"].sort(),
    );
    expect(first).toMatchObject({ line: 2, record_type: "user", role: "user", summary: "User message.", text_preview: "message 2", truncated: false });
  });

  it("returns verbatim raw lines, byte counts and SHA-256 in full mode", async () => {
    const lines = ['{"type":"user","message":{"role":"user","content":"caf\u00e9 \u2028 x"}}', "not json at all", '{"type":"assistant"'];
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: lines.join("\n") }]));
    const result = await readSessionLines(ctx, { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1, end_line: 4, mode: "full" });
    // U+2028 inside the JSON string is a physical line break (contract §1.6): 4 lines, not 3.
    expect(result.status === "ok" && (result.records as FullRecord[]).map((r) => r.raw_line)).toEqual([
      '{"type":"user","message":{"role":"user","content":"café ',
      ' x"}}',
      "not json at all",
      '{"type":"assistant"',
    ]);
    const rec = (result.status === "ok" ? result.records[0] : null) as FullRecord;
    expect(rec.raw_bytes).toBe(Buffer.byteLength(rec.raw_line));
    expect(rec.raw_sha256).toBe(createHash("sha256").update(rec.raw_line).digest("hex"));
  });
});

describe.skipIf(!HAS_SHARED)(`prompt-diary session-reader fixture${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("reads the Codex and Claude sessions in compact and full mode", async () => {
    const ctx = createCoreContext(await copyFixtureWorkspace("session-reader/workspace"));
    const codex = await readSessionLines(ctx, { project_key: "ReportGenerator-e6ff7eeda632", session_ref: "S0001", start_line: 1, end_line: 8 });
    expect(codex.status).toBe("ok");
    const claude = await readSessionLines(ctx, { project_key: "ReportGenerator-e6ff7eeda632", session_ref: "S0002", start_line: 1, end_line: 2, mode: "full" });
    expect(claude.status === "ok" && claude.records).toHaveLength(2);
  });
});
