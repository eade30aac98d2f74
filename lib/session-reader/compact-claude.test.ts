/** Compact records of Claude Code lines (contract §4.4). */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { buildCompactRecord, buildCompactRecords } from "./compact";
import { TRIM_MARKER } from "@/lib/sources/common/trim";

const claude = (value: unknown, line = 1) =>
  buildCompactRecord({ line, text: typeof value === "string" ? value : JSON.stringify(value), source: "claude-code" });

const user = (content: unknown, extra: Record<string, unknown> = {}) =>
  claude({ type: "user", message: { role: "user", content }, ...extra });

const assistant = (content: unknown) => claude({ type: "assistant", message: { role: "assistant", content } });

const toolResult = (content: unknown, extra: Record<string, unknown> = {}, part: Record<string, unknown> = {}) =>
  user([{ type: "tool_result", tool_use_id: "toolu_1", content, ...part }], extra);

describe("Claude user/assistant records (contract §4.4)", () => {
  it("keeps a 5000-character user message whole", () => {
    const text = "Please refactor the parser. ".repeat(200).slice(0, 5000);
    const record = user(text);
    expect(record).toMatchObject({ record_type: "user", role: "user", content_kinds: ["text"], summary: "User message." });
    expect(record.text_preview).toBe(text);
    expect(record.truncated).toBe(false);
  });

  it("keeps 5000 characters of assistant text whole", () => {
    const text = "中文 and emoji 😀 ".repeat(400).slice(0, 5000);
    const record = assistant([{ type: "text", text }]);
    expect(record).toMatchObject({ role: "assistant", summary: "Assistant message.", text_preview: text, truncated: false });
  });

  it("joins text parts with newlines and keeps blank parts", () => {
    const record = user(["First", "", " ", "Last"].map((text) => ({ type: "text", text })));
    expect(record.text_preview).toBe("First\n\n \nLast");
  });

  it("omits thinking-only records: no text, summary, truncated", () => {
    const record = assistant([{ type: "thinking", thinking: "secret chain of thought", signature: "sig" }]);
    expect(record).toMatchObject({
      content_kinds: ["thinking"],
      summary: "Assistant reasoning omitted.",
      text_preview: null,
      truncated: true,
    });
    expect(JSON.stringify(record)).not.toContain("secret chain of thought");
  });

  it("drops thinking but keeps the text of a mixed record", () => {
    const record = assistant([{ type: "thinking", thinking: "hidden" }, { type: "text", text: "Visible." }]);
    expect(record).toMatchObject({ content_kinds: ["thinking", "text"], summary: "Assistant message.", text_preview: "Visible." });
    expect(record.truncated).toBe(true);
    expect(JSON.stringify(record)).not.toContain("hidden");
  });

  it("summarises tool uses with bounded JSON input (sorted keys, Python separators)", () => {
    const record = assistant([{ type: "tool_use", id: "toolu_1", name: "Bash", input: { z: 1, command: "ls -la" } }]);
    expect(record.content_kinds).toEqual(["tool_use"]);
    expect(record.tool_uses).toEqual([{ name: "Bash", input_summary: '{"command": "ls -la", "z": 1}', truncated: false }]);
    const big = assistant([{ type: "tool_use", name: "Write", input: { content: "w".repeat(2000) } }]);
    expect(big.tool_uses[0]?.truncated).toBe(true);
    expect(big.tool_uses[0]?.input_summary.endsWith(TRIM_MARKER)).toBe(true);
    expect(big.truncated).toBe(true);
  });

  it("falls back to summary Message. without a usable role", () => {
    expect(claude({ type: "user", message: { content: "hi" } }).summary).toBe("Message.");
  });
});

describe("Claude tool results", () => {
  it("passes a 1024-byte result through and trims a 1025-byte one", () => {
    const small = toolResult("r".repeat(1024));
    expect(small.summary).toBe("Tool result.");
    expect(small.tool_results[0]).toMatchObject({ preview: "r".repeat(1024), raw_bytes: 1024, truncated: false });
    expect(small.truncated).toBe(false);

    const large = toolResult("r".repeat(1025));
    expect(large.tool_results[0]).toMatchObject({
      preview: "r".repeat(320) + TRIM_MARKER + "r".repeat(160),
      raw_bytes: 1025,
      truncated: true,
    });
    expect(large.truncated).toBe(true);
  });

  it("joins the text items of a list payload", () => {
    const record = toolResult([{ type: "text", text: "one" }, { type: "image", source: {} }, { type: "text", text: "two" }]);
    expect(record.tool_results[0]?.preview).toBe("one\ntwo");
  });

  it.each([
    [{ filePath: "/repo/a.ts", status: "done" }, "file", "/repo/a.ts", null, "done"],
    [{ type: "text", file: { filePath: "/repo/b.ts" } }, "file", "/repo/b.ts", null, null],
    [{ command: "npm test", stdout: "" }, "command", null, "npm test", null],
    [{ stdout: "ok", stderr: "" }, "tool_result", null, null, null],
    ["Error: plain string result", "tool_result", null, null, null],
  ])("toolUseResult %j → kind %s", (toolUseResult, kind, filePath, command, status) => {
    const result = toolResult("payload", { toolUseResult }).tool_results[0];
    expect(result).toEqual({ kind, status, file_path: filePath, command, preview: "payload", raw_bytes: 7, truncated: false });
  });

  it("reports is_error results as failed", () => {
    const record = toolResult("Exit code 1", { toolUseResult: { command: "make", status: "completed" } }, { is_error: true });
    expect(record.tool_results[0]?.status).toBe("failed");
  });

  it("keeps text beside a result: mixed records are user messages", () => {
    const record = user([{ type: "tool_result", content: "ok" }, { type: "text", text: "Now continue." }]);
    expect(record).toMatchObject({ content_kinds: ["tool_result", "text"], summary: "User message.", text_preview: "Now continue." });
  });
});

describe("Claude source-generated context (isMeta / isCompactSummary)", () => {
  it("bounds an isMeta user record", () => {
    const text = "<command-message>init</command-message>\n" + "expanded prompt ".repeat(200);
    const record = user(text, { isMeta: true });
    expect(record.summary).toBe("Source-generated context.");
    expect(record.truncated).toBe(true);
    expect(Buffer.byteLength(record.text_preview ?? "", "utf8")).toBeLessThan(600);
    expect(record.text_preview?.startsWith("<command-message>init")).toBe(true);
  });

  it("bounds a compact summary and labels notifications by prefix", () => {
    expect(user("This session is being continued...", { isCompactSummary: true }).summary).toBe("Source-generated context.");
    expect(user("  <subagent_notification>done", { isMeta: true }).summary).toBe("Subagent notification.");
    expect(user("<turn_aborted>stop", { isMeta: true }).summary).toBe("Turn interruption notification.");
  });

  it("sets truncated only when the context text was actually trimmed", () => {
    expect(user("short caveat", { isMeta: true })).toMatchObject({ text_preview: "short caveat", truncated: false });
  });
});

describe("other Claude records", () => {
  it.each([
    [{ type: "system", subtype: "compact_boundary", content: "Conversation compacted" }, "system:compact_boundary"],
    [{ type: "system", content: "x" }, "system"],
    [{ type: "queue-operation", operation: "enqueue", content: "<task-notification>" }, "queue-operation"],
    [{ type: "file-history-snapshot", messageId: "m", snapshot: {} }, "file-history-snapshot"],
    [{ type: "attachment", attachment: { type: "task-notification", content: "subagent result" } }, "attachment"],
    [{ type: "progress", data: { type: "bash_progress" } }, "progress"],
    [{ type: "summary", summary: "Title", leafUuid: "u" }, "summary"],
  ])("%j → %s record.", (value, recordType) => {
    const record = claude(value);
    expect(record).toMatchObject({ record_type: recordType, summary: `${recordType} record.`, text_preview: null });
    expect(record).toMatchObject({ content_kinds: [], tool_uses: [], tool_results: [], truncated: false });
  });

  it.each(["{not json", "", "[1,2]", "null", '"text"'])("malformed or non-object line %j", (text) => {
    const record = claude(text, 7);
    expect(record).toMatchObject({ line: 7, record_type: "unknown", summary: "Malformed JSONL line.", text_preview: null });
    expect(record.raw_bytes).toBe(Buffer.byteLength(text, "utf8"));
    expect(record.raw_sha256).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
  });

  it("always returns every field, with duplicate_of null", () => {
    expect(Object.keys(claude({ type: "user", message: { role: "user", content: "x" } }))).toEqual([
      "line", "record_type", "role", "content_kinds", "summary", "text_preview",
      "tool_uses", "tool_results", "raw_bytes", "raw_sha256", "truncated", "duplicate_of",
    ]);
  });
});

const SESSION_002 = path.join(
  SHARED_DIR,
  "fixtures/prompt-diary/session-reader/workspace/projects/ReportGenerator-e6ff7eeda632/sessions/claude/session-002.jsonl",
);

describe.skipIf(!HAS_SHARED)(`fixture session-002.jsonl (Claude) ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("gives a user and an assistant record with exact text and provenance", () => {
    const raw = readFileSync(SESSION_002);
    const lines = raw.toString("utf8").split("\n").filter((text) => text.length > 0);
    const records = buildCompactRecords(lines.map((text, i) => ({ line: i + 1, text })), "claude-code");
    expect(records.map((r) => [r.line, r.record_type, r.role, r.summary, r.text_preview])).toEqual([
      [1, "user", "user", "User message.", "Summarize today's changes."],
      [2, "assistant", "assistant", "Assistant message.", "Here is the summary of changes."],
    ]);
    const firstLine = raw.subarray(0, raw.indexOf(0x0a));
    expect(records[0]?.raw_bytes).toBe(firstLine.length);
    expect(records[0]?.raw_sha256).toBe(createHash("sha256").update(firstLine).digest("hex"));
  });
});
