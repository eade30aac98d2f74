import { describe, expect, it } from "vitest";

import { lineFacts, TOOL_PART_CHARS } from "@/lib/catalog/extract";

describe("lineFacts (what the catalog indexes of a line)", () => {
  it("reads Claude Code text, tool uses with their files, and tool results with their errors", () => {
    const use = lineFacts(JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "Let me look" }, { type: "tool_use", name: "Read", input: { file_path: "src/auth.ts" } }] } }));
    expect(use).toEqual({ text: 'Let me look\nRead\n{"file_path":"src/auth.ts"}', tools: ["Read"], files: ["src/auth.ts"], error: false });
    const result = lineFacts(JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", is_error: true, content: [{ type: "text", text: "x".repeat(TOOL_PART_CHARS + 50) }] }] } }));
    expect(result.error).toBe(true);
    expect(result.text.length).toBe(TOOL_PART_CHARS);
    expect(lineFacts(JSON.stringify({ type: "user", message: { role: "user", content: "fix the login bug" } })).text).toBe("fix the login bug");
  });

  it("reads Codex messages, function calls (apply_patch files too) and failed outputs, in both eras", () => {
    const msg = lineFacts(JSON.stringify({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "run the tests" }] } }));
    expect(msg.text).toBe("run the tests");
    const call = lineFacts(JSON.stringify({ type: "response_item", payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["apply_patch", "*** Begin Patch\n*** Update File: src/a.ts\n"] }) } }));
    expect(call.tools).toEqual(["shell"]);
    expect(call.files).toEqual(["src/a.ts"]);
    const failed = lineFacts(JSON.stringify({ type: "function_call_output", output: JSON.stringify({ output: "boom", metadata: { exit_code: 2 } }) }));
    expect(failed.error).toBe(true);
    expect(failed.text).toContain("boom");
  });

  it("gives empty facts for a line that is not a JSON object", () => {
    expect(lineFacts("not json")).toEqual({ text: "", tools: [], files: [], error: false });
    expect(lineFacts("[1,2]")).toEqual({ text: "", tools: [], files: [], error: false });
  });
});
