/** Tests of lineFacts, what the catalog indexes of a transcript line. */
import { describe, expect, it } from "vitest";

import { lineFacts } from "@/lib/catalog/extract";

describe("lineFacts (what the catalog indexes of a line)", () => {
  it("reads Claude Code text, thinking, tool uses with their files, and whole tool results with their errors", () => {
    const use = lineFacts(JSON.stringify({ type: "assistant", timestamp: "2026-01-02T03:04:05.000Z", message: { role: "assistant", content: [{ type: "thinking", thinking: "check the auth module" }, { type: "text", text: "Let me look" }, { type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "src/auth.ts", limit: 40 } }] } }));
    expect(use).toEqual({ text: "check the auth module\nLet me look\nRead\nsrc/auth.ts\n40", role: "assistant", calls: [{ id: "toolu_1", name: "Read", files: ["src/auth.ts"] }], answers: [], files: ["src/auth.ts"], error: false, time: Date.parse("2026-01-02T03:04:05.000Z") });
    // No cap: a word 50,000 characters into a tool result is searchable (issue 37).
    const long = `${"x".repeat(50_000)} deprecated`;
    const result = lineFacts(JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", is_error: true, content: [{ type: "text", text: long }] }] } }));
    expect(result).toMatchObject({ role: "tool", answers: ["toolu_1"], error: true, text: long });
    expect(lineFacts(JSON.stringify({ type: "user", message: { role: "user", content: "fix the login bug" } }))).toMatchObject({ text: "fix the login bug", role: "user" });
  });

  it("reads Codex messages, function calls (apply_patch files too) and failed outputs, in both eras", () => {
    const msg = lineFacts(JSON.stringify({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "run the tests" }] } }));
    expect(msg.text).toBe("run the tests");
    const call = lineFacts(JSON.stringify({ type: "response_item", payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["apply_patch", "*** Begin Patch\n*** Update File: src/a.ts\n"] }) } }));
    expect(call.calls.map((c) => c.name)).toEqual(["shell"]);
    expect(call.files).toEqual(["src/a.ts"]);
    expect(call.text).toContain("*** Update File: src/a.ts");
    const failed = lineFacts(JSON.stringify({ type: "function_call_output", output: JSON.stringify({ output: "boom", metadata: { exit_code: 2 } }) }));
    expect(failed.error).toBe(true);
    expect(failed.text).toContain("boom");
  });

  it("reads a line that is not JSON as its own text, and a JSON value that is not an object as nothing", () => {
    expect(lineFacts("not json")).toMatchObject({ text: "not json", calls: [], files: [], error: false });
    expect(lineFacts("[1,2]")).toMatchObject({ text: "", calls: [], files: [], error: false });
  });

  it("reads the records a user reads in the viewer: API errors, hook summaries, summaries, queued input, hook progress (contract §2.6–2.7)", () => {
    const envelope = { uuid: "u1", parentUuid: "u0", sessionId: "s1", cwd: "/home/me/app", timestamp: "2026-01-01T00:00:00Z", version: "2.1.39" };
    const apiError = lineFacts(JSON.stringify({ ...envelope, type: "system", subtype: "api_error", level: "error", error: { status: 529, headers: { "x-should-retry": "true" }, requestID: "req_1", error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }, retryInMs: 500, retryAttempt: 1, maxRetries: 10 }));
    expect(apiError.text).toBe("API error 529\nerror\noverloaded_error\nOverloaded");
    // An API error is an error line (is:error).
    expect(apiError.error).toBe(true);
    const hooks = lineFacts(JSON.stringify({ ...envelope, type: "system", subtype: "stop_hook_summary", hookCount: 1, hookInfos: [{ command: "~/.claude/hooks/lint.sh" }], hookErrors: ["lint failed: 3 problems"], stopReason: "" }));
    expect(hooks.text).toBe("~/.claude/hooks/lint.sh\nlint failed: 3 problems");
    expect(lineFacts(JSON.stringify({ type: "summary", summary: "Fixing the login redirect", leafUuid: "u9" })).text).toBe("Fixing the login redirect");
    expect(lineFacts(JSON.stringify({ type: "queue-operation", operation: "enqueue", content: "also update the docs", sessionId: "s1" })).text).toBe("enqueue\nalso update the docs");
    expect(lineFacts(JSON.stringify({ ...envelope, type: "progress", data: { type: "hook_progress", hookEvent: "PostToolUse", hookName: "PostToolUse:Edit", command: "prettier --write" }, toolUseID: "t1" })).text).toBe("PostToolUse\nPostToolUse:Edit\nprettier --write");
    // Tool output progress repeats the tool's result: not indexed twice.
    expect(lineFacts(JSON.stringify({ ...envelope, type: "progress", data: { type: "bash_progress", output: "compiling…" } })).text).toBe("");
    expect(lineFacts(JSON.stringify({ ...envelope, type: "system", subtype: "turn_duration", durationMs: 1200 })).text).toBe("");
  });

  it("reads Codex errors and compaction summaries but not the event channel's copies of messages (contract §1.2, §1.6)", () => {
    expect(lineFacts(JSON.stringify({ type: "event_msg", payload: { type: "stream_error", message: "stream disconnected before completion" } })).text).toBe("stream error\nstream disconnected before completion");
    expect(lineFacts(JSON.stringify({ type: "event_msg", payload: { type: "agent_message", message: "Done." } })).text).toBe("");
    expect(lineFacts(JSON.stringify({ type: "compacted", payload: { message: "Summary of the work so far", replacement_history: [] } })).text).toBe("Summary of the work so far");
  });
});
