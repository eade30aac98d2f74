/** Compact records of legacy (pre-envelope) Codex lines. */
import { describe, expect, it } from "vitest";

import { buildCompactRecords } from "@/lib/session-reader/compact";

const lines = [
  { id: "0c7a", timestamp: "2025-08-01T10:00:00.000Z", instructions: "", git: {} },
  { record_type: "state" },
  { type: "message", role: "user", content: [{ type: "input_text", text: "Write a viewer for the logs" }] },
  { type: "function_call", name: "shell", arguments: '{"command":["ls"]}', call_id: "c1" },
  { type: "function_call_output", call_id: "c1", output: '{"output":"a.txt\\n"}' },
].map((value, i) => ({ line: i + 1, text: JSON.stringify(value) }));

describe("legacy (pre-envelope) Codex lines", () => {
  it("compact like their envelope equivalents", () => {
    const records = buildCompactRecords(lines, "codex");
    expect(records.map((r) => [r.record_type, r.summary])).toEqual([
      ["session_meta", "session_meta record."],
      ["unknown", "unknown record."],
      ["response_item:message", "User message."],
      ["response_item:function_call", "Tool call: shell."],
      ["response_item:function_call_output", "Tool result."],
    ]);
    expect(records[2]!.text_preview).toBe("Write a viewer for the logs");
    expect(records[3]!.tool_uses[0]!.name).toBe("shell");
  });
});
