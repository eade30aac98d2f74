/** Compact records of Codex lines and echoes (contract §1.7). */
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { splitPhysicalLines } from "@/lib/testing/split-lines";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { buildCompactRecord, buildCompactRecords } from "./compact";
import { TRIM_MARKER } from "@/lib/sources/common/trim";

const codex = (value: unknown) => buildCompactRecord({ line: 1, text: JSON.stringify(value), source: "codex" });
const item = (payload: Record<string, unknown>) => codex({ timestamp: "2026-05-28T00:00:00Z", type: "response_item", payload });
const event = (payload: Record<string, unknown>) => codex({ timestamp: "2026-05-28T00:00:00Z", type: "event_msg", payload });
const message = (role: string, text: string) =>
  item({ type: "message", role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text }] });

describe("Codex event_msg records", () => {
  it("user_message and agent_message keep their text", () => {
    const text = "Fix the build. ".repeat(400);
    expect(event({ type: "user_message", message: text })).toMatchObject({
      record_type: "event_msg:user_message",
      role: "user",
      content_kinds: ["text"],
      summary: "User message.",
      text_preview: text,
      truncated: false,
    });
    expect(event({ type: "agent_message", message: "Done." })).toMatchObject({
      role: "assistant",
      summary: "Agent message.",
      text_preview: "Done.",
    });
  });

  it("bounds user_message source context", () => {
    const record = event({ type: "user_message", message: "<environment_context>" + "x".repeat(900) });
    expect(record.summary).toBe("Source-generated context.");
    expect(record.truncated).toBe(true);
  });

  it("other payload types are generic", () => {
    expect(event({ type: "token_count", info: null })).toMatchObject({
      record_type: "event_msg:token_count",
      summary: "event_msg:token_count record.",
      role: null,
    });
  });
});

describe("Codex response_item records", () => {
  it("messages are summarised by role and keep text whole", () => {
    const long = "a".repeat(5000);
    expect(message("user", long)).toMatchObject({ summary: "User message.", text_preview: long, truncated: false });
    expect(message("assistant", "Hi")).toMatchObject({ summary: "Assistant message.", role: "assistant" });
  });

  it.each([
    ["developer", "<permissions instructions>" + "p".repeat(900), "Source-generated context."],
    ["system", "system prompt", "Source-generated context."],
    ["user", "# AGENTS.md instructions for /repo\n<INSTRUCTIONS>...", "Source-generated context."],
    ["user", "\n<subagent_notification>{...}", "Subagent notification."],
    ["user", "<turn_aborted>interrupted</turn_aborted>", "Turn interruption notification."],
    ["user", "A previous agent produced the plan below. Continue.", "Source-generated context."],
  ])("%s message %j → %s", (role, text, summary) => {
    const record = message(role, text);
    expect(record.summary).toBe(summary);
    expect(Buffer.byteLength(record.text_preview ?? "", "utf8")).toBeLessThan(600);
  });

  it("function_call and custom_tool_call become tool uses", () => {
    expect(item({ type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c" })).toMatchObject({
      record_type: "response_item:function_call",
      content_kinds: ["tool_use"],
      summary: "Tool call: shell.",
      tool_uses: [{ name: "shell", input_summary: '{"command":["ls"]}', truncated: false }],
      truncated: false,
    });
    const patch = "*** Begin Patch\n" + "+line\n".repeat(200);
    const custom = item({ type: "custom_tool_call", name: "apply_patch", input: patch, call_id: "c" });
    expect(custom).toMatchObject({ summary: "Tool call: apply_patch.", truncated: true });
    expect(custom.tool_uses[0]?.input_summary).toBe(patch.slice(0, 320) + TRIM_MARKER);
  });

  it("tool outputs become results of kind output", () => {
    const small = item({ type: "custom_tool_call_output", output: "Success.", call_id: "c" });
    expect(small).toMatchObject({ content_kinds: ["tool_result"], summary: "Tool result." });
    expect(small.tool_results).toEqual([
      { kind: "output", status: null, file_path: null, command: null, preview: "Success.", raw_bytes: 8, truncated: false },
    ]);
    const list = item({ type: "function_call_output", output: [{ type: "input_text", text: "a" }, { type: "input_image" }] });
    expect(list.tool_results[0]?.preview).toBe("a\n[input_image content unavailable]");
  });

  it("reasoning is omitted", () => {
    const record = item({ type: "reasoning", summary: [{ type: "summary_text", text: "private" }], encrypted_content: "x" });
    expect(record).toMatchObject({
      content_kinds: ["thinking"],
      summary: "Assistant reasoning omitted.",
      text_preview: null,
      truncated: true,
    });
    expect(JSON.stringify(record)).not.toContain("private");
  });

  it("unknown payloads and other envelopes are generic", () => {
    expect(item({ type: "ghost_snapshot" }).summary).toBe("response_item:ghost_snapshot record.");
    expect(codex({ type: "session_meta", payload: { id: "x" } }).summary).toBe("session_meta record.");
    expect(codex({ type: "turn_context", payload: {} }).summary).toBe("turn_context record.");
    // Legacy pre-envelope lines compact like their envelope equivalents; a state marker stays generic.
    expect(codex({ type: "message", role: "user", content: [] })).toMatchObject({ record_type: "response_item:message", summary: "User message." });
    expect(codex({ record_type: "state" }).record_type).toBe("unknown");
  });
});

describe("Codex echoes (contract §1.7)", () => {
  const line = (type: string, payload: Record<string, unknown>, timestamp: string) => JSON.stringify({ timestamp, type, payload });
  const response = (role: string, text: string, ts: string) =>
    line("response_item", { type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text }] }, ts);
  const userEvent = (text: string, ts: string) => line("event_msg", { type: "user_message", message: text }, ts);
  const agentEvent = (text: string, ts: string) => line("event_msg", { type: "agent_message", message: text }, ts);
  const build = (texts: string[], first = 1) =>
    buildCompactRecords(texts.map((text, i) => ({ line: first + i, text })), "codex");

  it("marks a user event echo and an assistant event echo", () => {
    const records = build([
      response("user", "Do it", "2026-05-28T00:00:00.000Z"),
      userEvent("Do it", "2026-05-28T00:00:00.100Z"),
      agentEvent("Done", "2026-05-28T00:00:05.000Z"),
      response("assistant", "Done", "2026-05-28T00:00:05.050Z"),
    ]);
    expect(records.map((r) => r.duplicate_of)).toEqual([null, 1, 4, null]);
    expect(records[1]).toMatchObject({ summary: "Echo of message at line 1.", text_preview: null, truncated: true });
    expect(records[2]).toMatchObject({ summary: "Echo of message at line 4.", text_preview: null, truncated: true });
    expect(records[0]?.text_preview).toBe("Do it");
  });

  it.each([
    ["gap over 100 ms", [response("user", "x", "2026-05-28T00:00:00Z"), userEvent("x", "2026-05-28T00:00:00.100001Z")]],
    ["event before response", [userEvent("x", "2026-05-28T00:00:00Z"), response("user", "x", "2026-05-28T00:00:00Z")]],
    ["different text", [response("user", "x", "2026-05-28T00:00:00Z"), userEvent("y", "2026-05-28T00:00:00Z")]],
    ["negative gap", [response("user", "x", "2026-05-28T00:00:01Z"), userEvent("x", "2026-05-28T00:00:00.999Z")]],
    ["naive timestamps", [response("user", "x", "2026-05-28T00:00:00"), userEvent("x", "2026-05-28T00:00:00")]],
    ["two events", [userEvent("x", "2026-05-28T00:00:00Z"), userEvent("x", "2026-05-28T00:00:00Z")]],
  ])("keeps both lines when: %s", (_name, texts) => {
    expect(build(texts).map((r) => r.duplicate_of)).toEqual([null, null]);
  });

  it("compares instants across time zones", () => {
    const texts = [response("user", "x", "2026-05-28T08:00:00+08:00"), userEvent("x", "2026-05-28T00:00:00.050Z")];
    expect(build(texts).map((r) => r.duplicate_of)).toEqual([null, 1]);
  });

  it("looks only inside the window unless context lines are given", () => {
    const original = { line: 9, text: response("user", "x", "2026-05-28T00:00:00Z") };
    const echo = { line: 10, text: userEvent("x", "2026-05-28T00:00:00Z") };
    expect(buildCompactRecords([echo], "codex")[0]?.duplicate_of).toBeNull();
    expect(buildCompactRecords([echo], "codex", { before: original })[0]?.duplicate_of).toBe(9);
    expect(buildCompactRecords([echo], "codex", { before: original })).toHaveLength(1);
  });

  it("is Codex-only", () => {
    const texts = [response("user", "x", "2026-05-28T00:00:00Z"), userEvent("x", "2026-05-28T00:00:00Z")];
    const records = buildCompactRecords(texts.map((text, i) => ({ line: i + 1, text })), "claude-code");
    expect(records.map((r) => r.duplicate_of)).toEqual([null, null]);
  });
});

const SESSION_001 = path.join(
  SHARED_DIR,
  "fixtures/prompt-diary/session-reader/workspace/projects/ReportGenerator-e6ff7eeda632/sessions/codex/session-001.jsonl",
);

describe.skipIf(!HAS_SHARED)(`fixture session-001.jsonl (Codex) ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  const records = () => {
    const lines = splitPhysicalLines(readFileSync(SESSION_001, "utf8")).map((text, i) => ({ line: i + 1, text }));
    return buildCompactRecords(lines, "codex");
  };

  it("summarises every line", () => {
    expect(records().map((r) => [r.line, r.record_type, r.summary])).toEqual([
      [1, "session_meta", "session_meta record."],
      [2, "response_item:message", "User message."],
      [3, "response_item:message", "Assistant message."],
      [4, "response_item:function_call", "Tool call: shell."],
      [5, "response_item:function_call_output", "Tool result."],
      [6, "response_item:function_call_output", "Tool result."],
      [7, "response_item:reasoning", "Assistant reasoning omitted."],
      [8, "event_msg:agent_message", "Agent message."],
    ]);
  });

  it("trims the line-5 output over 1 KiB and keeps line 6 whole; omits line-7 reasoning", () => {
    const all = records();
    const big = all[4]?.tool_results[0];
    expect(big?.raw_bytes).toBeGreaterThan(1024);
    expect(big?.truncated).toBe(true);
    expect(big?.preview?.startsWith("LINE of build output number 000\n")).toBe(true);
    expect(big?.preview).toContain(TRIM_MARKER);
    expect(all[4]?.truncated).toBe(true);
    expect(all[5]?.tool_results[0]).toMatchObject({ preview: "ok: 3 files changed, all tests passed.", truncated: false });
    expect(all[6]).toMatchObject({ content_kinds: ["thinking"], text_preview: null, truncated: true });
    expect(all[1]?.text_preview).toBe("Please run the build and report the result.");
    expect(all[3]?.tool_uses[0]?.input_summary).toBe('{"command": ["bash", "-lc", "make build"]}');
  });
});
