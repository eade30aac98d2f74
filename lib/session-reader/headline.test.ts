/** Tests of lineHeadline, what a line says happened. */
import { describe, expect, it } from "vitest";

import { buildCompactRecord } from "./compact";
import { lineHeadline, type ToolCallNames } from "./headline";

const cwd = "/home/me/app";
const line = (record: object) => JSON.stringify({ cwd, ...record });
const headlineOf = (text: string, calls: ToolCallNames = new Map(), source = "claude-code") =>
  lineHeadline(text, source, buildCompactRecord({ line: 1, text, source }), calls);
const assistantCall = (id: string, name: string, input: object) =>
  line({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } });
const result = (id: string, content: string, isError = false) =>
  line({ type: "user", message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content, is_error: isError }] } });

describe("lineHeadline (issue 29: a line says what happened)", () => {
  it("names a call by its main argument, relative to the session's cwd", () => {
    expect(headlineOf(assistantCall("t1", "Read", { file_path: `${cwd}/src/auth.ts` }))).toBe("Read(src/auth.ts)");
    expect(headlineOf(assistantCall("t2", "Bash", { command: "npm test" }))).toBe("Bash(npm test)");
  });

  it("counts an Edit's changed lines and a Write's lines", () => {
    const edit = assistantCall("t3", "Edit", { file_path: `${cwd}/src/a.ts`, old_string: "a\nb\nc\n", new_string: "a\nB\nc\nd\n" });
    expect(headlineOf(edit)).toBe("Edit(src/a.ts, +2 −1)");
    expect(headlineOf(assistantCall("t4", "Write", { file_path: "/tmp/x.md", content: "one\ntwo\n" }))).toBe("Write(/tmp/x.md, +2)");
  });

  it("links a result to its call: exit code, error, ok", () => {
    const calls: ToolCallNames = new Map();
    headlineOf(assistantCall("t5", "Bash", { command: "npm test" }), calls);
    expect(headlineOf(result("t5", "Exit code 1\nFAIL src/a.test.ts", true), calls)).toBe("Bash(npm test) → exit 1");
    expect(headlineOf(result("unknown", "done"), calls)).toBe("Result → ok · done");
  });

  it("says an API error's status, type and retry", () => {
    const apiError = line({
      type: "system",
      subtype: "api_error",
      level: "error",
      error: { status: 529, error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
      retryAttempt: 2,
      maxRetries: 10,
    });
    expect(headlineOf(apiError)).toBe("API error 529 overloaded_error (retry 2/10)");
  });

  it("gives a summary's text, a hook's name and outcome; none for a plain message", () => {
    expect(headlineOf(line({ type: "summary", summary: "Fix the login bug" }))).toBe("Summary: Fix the login bug");
    expect(headlineOf(line({ type: "progress", data: { type: "hook_progress", hookName: "PostToolUse:Read", command: "lint.sh" } }))).toBe("Hook PostToolUse:Read → running lint.sh");
    expect(headlineOf(line({ type: "system", subtype: "stop_hook_summary", hookInfos: [{ command: "a" }], hookErrors: ["boom"] }))).toBe("Stop hooks: 1 ran → 1 error");
    expect(headlineOf(line({ type: "attachment", attachment: { type: "hook_success", hookName: "SessionStart:startup", exitCode: 0 } }))).toBe("Hook SessionStart:startup → success (exit 0)");
    expect(headlineOf(line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "Done." }] } }))).toBeNull();
  });
});
