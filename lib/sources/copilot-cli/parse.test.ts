import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { jsonLine, type AgentTokenUsage } from "@/lib/sources/common/agent-source";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { CONTINUATION_TYPE, MALFORMED_TYPE, parseCopilotLines } from "@/lib/sources/copilot-cli/parse";

const STATE = fileURLToPath(new URL("./__fixtures__/session-state/", import.meta.url));
const RESUMED = "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c";
const HALF_WRITTEN = "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f";

function fixtureLines(uuid: string): string[] {
  return physicalLines(readFileSync(`${STATE}${uuid}/events.jsonl`, "utf8"));
}

function usageByModel(usages: AgentTokenUsage[]): Record<string, Omit<AgentTokenUsage, "model" | "costUsd" | "approximate">> {
  const sums: Record<string, Omit<AgentTokenUsage, "model" | "costUsd" | "approximate">> = {};
  for (const u of usages) {
    const s = (sums[u.model ?? "?"] ??= { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    s.input += u.input;
    s.output += u.output;
    s.cacheRead += u.cacheRead;
    s.cacheWrite += u.cacheWrite;
    s.reasoning += u.reasoning;
  }
  return sums;
}

describe("parseCopilotLines on a resumed session (two runs, two shutdowns)", () => {
  const t = parseCopilotLines(fixtureLines(RESUMED), "resumed.jsonl");
  const at = (line: number) => t.records[line - 1]!;

  it("gives one record per physical line, in order", () => {
    expect(t.records).toHaveLength(33);
    t.records.forEach((r, i) => expect(r.line).toBe(i + 1));
    expect(t.records.map((r) => r.type).slice(0, 8)).toEqual([
      "session.start",
      "session.model_change",
      "system.message",
      "hook.start",
      "hook.end",
      "user.message",
      "assistant.turn_start",
      "assistant.message",
    ]);
  });

  it("starts a turn at each human prompt, across the resume", () => {
    expect(t.records.filter((r) => r.trigger).map((r) => r.line)).toEqual([6, 26]);
    expect(t.turns).toEqual([
      { turn_start_line: 6, turn_end_line: 25 },
      { turn_start_line: 26, turn_end_line: 33 },
    ]);
    expect(at(6).headline).toBe("User: Fix the failing cart test");
  });

  it("keeps the CLI's injected context (transformedContent) out of the user's text", () => {
    expect(at(6).text).toBe("Fix the failing cart test");
    expect(t.records.some((r) => r.text.includes("INJECTED-REMINDER-TEXT"))).toBe(false);
    expect(at(26).text).toContain("/home/dev/shop/api/package.json");
  });

  it("reads runs: start, resume, model changes and shutdowns as events", () => {
    const events = t.records.flatMap((r) => r.events.map((e) => [r.line, e.kind, e.detail]));
    expect(events).toEqual([
      [1, "run_start", "Copilot CLI 1.0.65"],
      [2, "model_change", "auto"],
      [23, "shutdown", "routine; 2 premium requests"],
      [24, "resume", "resumed at 2026-07-02T14:00:00.000Z; model gpt-5-mini"],
      [25, "model_change", "auto → gpt-5-mini"],
      [33, "shutdown", "routine; 1 premium requests"],
    ]);
    expect(t.startedAt).toBe("2026-07-01T09:00:00.100Z");
    expect(t.endedAt).toBe("2026-07-02T14:00:30.000Z");
  });

  it("puts calls on assistant messages only, with the files their inputs name", () => {
    const calls = t.records.flatMap((r) => r.calls.map((c) => ({ line: r.line, id: c.id, name: c.name, files: c.files })));
    expect(calls).toEqual([
      { line: 8, id: "call_view_1", name: "view", files: ["/home/dev/shop/api/test/cart.test.ts"] },
      { line: 8, id: "call_bash_1", name: "bash", files: [] },
      { line: 17, id: "call_edit_1", name: "edit", files: ["/home/dev/shop/api/src/cart.ts"] },
      { line: 28, id: "call_bash_2", name: "bash", files: [] },
    ]);
    expect(at(8).headline).toBe("view /home/dev/shop/api/test/cart.test.ts; bash: npm test -- cart — Let me look at the test first.");
    expect(at(8).model).toBe("claude-sonnet-4.5");
    // Its reasoning apart from its words (searchable; left out of the compact view, seed 000).
    expect(at(8).reasoning).toContain("The cart total looks off by three");
    expect(at(8).text).not.toContain("The cart total looks off by three"); // reasoningText
    expect(at(8).text).toContain("npm test -- cart");
    expect(at(13)).toMatchObject({ role: "tool", calls: [], headline: "Running bash: npm test -- cart" });
  });

  it("names each result after its call and flags the failed one", () => {
    const results = t.records.flatMap((r) => r.results.map((x) => ({ line: r.line, id: x.id, name: x.name, isError: x.isError })));
    expect(results).toEqual([
      { line: 10, id: "call_view_1", name: "view", isError: false },
      { line: 14, id: "call_bash_1", name: "bash", isError: false },
      { line: 19, id: "call_edit_1", name: "edit", isError: true },
      { line: 30, id: "call_bash_2", name: "bash", isError: false },
    ]);
    expect(at(14).headline).toBe("bash: npm test -- cart (exit 1)");
    expect(at(14).text).toContain("Received: 27");
    expect(at(19).results[0]!.output).toBe("No match found for old_str in /home/dev/shop/api/src/cart.ts");
    expect(at(19).headline).toBe("edit /home/dev/shop/api/src/cart.ts (failed: No match found for old_str in /home/dev/shop/api/src/cart.ts)");
  });

  it("reads hooks, a failed one as an error", () => {
    expect([at(4).headline, at(5).headline, at(11).headline, at(12).headline]).toEqual([
      "Hook userPromptSubmitted started",
      "Hook userPromptSubmitted ok",
      "Hook preToolUse started",
      "Hook preToolUse failed: policy script crashed: exit 2",
    ]);
    expect(t.records.filter((r) => r.isError).map((r) => r.line)).toEqual([12, 19]);
  });

  it("reads the malformed line and the unknown event type as best it can, with warnings", () => {
    expect(at(20)).toMatchObject({ type: MALFORMED_TYPE, role: null, time: null });
    expect(at(20).text).toContain("I will now retry the edit with");
    expect(at(22)).toMatchObject({ type: "session.quantum_sync", role: null, text: "entangled widget state", headline: "session.quantum_sync" });
    expect(t.warnings.map((w) => [w.file, w.where, w.problem.split(" (")[0]])).toEqual([
      ["resumed.jsonl", "line 20", "not valid JSON"],
      ["resumed.jsonl", "line 22", "unknown event type session.quantum_sync"],
    ]);
  });

  it("counts usage on each shutdown line: fresh input, reasoning apart, summed over runs", () => {
    expect(t.records.filter((r) => r.usage.length > 0).map((r) => r.line)).toEqual([23, 33]);
    expect(at(33).usage.map((u) => u.model)).toEqual(["gpt-5-mini", "claude-sonnet-4.5"]);
    expect(usageByModel(t.records.flatMap((r) => r.usage))).toEqual({
      "claude-sonnet-4.5": { input: 9_500, output: 300, cacheRead: 21_000, cacheWrite: 4_500, reasoning: 0 },
      "gpt-5-mini": { input: 3_000, output: 172, cacheRead: 6_000, cacheWrite: 0, reasoning: 128 },
    });
    expect(t.records.flatMap((r) => r.usage).every((u) => u.costUsd === null && !u.approximate)).toBe(true);
  });

  it("has no title in the events and names cost as absent", () => {
    expect(t.title).toBeNull();
    expect(t.absent).toEqual(["cost"]);
  });
});

describe("parseCopilotLines on a session still being written", () => {
  const t = parseCopilotLines(fixtureLines(HALF_WRITTEN), "running.jsonl");

  it("keeps the half-written last line as a malformed record with its own warning", () => {
    expect(t.records.map((r) => r.type)).toEqual(["session.start", "user.message", "assistant.turn_start", "assistant.message", MALFORMED_TYPE]);
    expect(t.warnings).toEqual([{ file: "running.jsonl", where: "line 5", problem: "half-written last line: not valid JSON (the CLI may still be writing it)" }]);
    expect(t.turns).toEqual([{ turn_start_line: 2, turn_end_line: 5 }]);
    expect(t.records[3]!.headline).toBe("glob **/*.md");
    expect(t.records[3]!.calls[0]!.files).toEqual(["/tmp/scratch"]);
  });
});

describe("parseCopilotLines on odd input", () => {
  it("never throws, and gives one record per line", () => {
    const lines = [
      "",
      "[]",
      "null",
      "{}",
      '{"type":42}',
      '{"type":"user.message","data":3}',
      '{"type":"assistant.message","data":{"toolRequests":[null,3,{"name":5},{"toolCallId":"x","name":"bash","arguments":"ls"}]}}',
      '{"type":"tool.execution_complete","data":{"toolCallId":"nope","success":false}}',
      '{"type":"session.shutdown","data":{"modelMetrics":{"m":{"usage":{"inputTokens":"x","outputTokens":5,"reasoningTokens":9}},"n":3}}}',
      '{"type":"hook.end","data":{"success":false,"error":"not an object"}}',
      '{"type":"session.start","timestamp":"yesterday","data":{"context":{"cwd":7}}}',
    ];
    const t = parseCopilotLines(lines, "odd.jsonl");
    expect(t.records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
    expect(t.records.map((r) => r.type).slice(0, 6)).toEqual([MALFORMED_TYPE, MALFORMED_TYPE, MALFORMED_TYPE, "(untyped)", "(untyped)", "user.message"]);
    expect(t.warnings.map((w) => w.where)).toEqual(["line 1", "line 2", "line 3", "line 4", "line 5"]);
    expect(t.records[6]!.calls.map((c) => c.name)).toEqual(["unknown", "bash"]);
    expect(t.records[7]).toMatchObject({ isError: true, results: [{ id: "nope", name: null, output: "", isError: true }], headline: "Tool result (failed)" });
    // A reasoning count larger than the output cannot be inside it: output is kept whole.
    expect(t.records[8]!.usage).toEqual([{ model: "m", input: 0, output: 5, cacheRead: 0, cacheWrite: 0, reasoning: 9, costUsd: null, approximate: false }]);
    expect(t.records[9]!.headline).toBe("Hook hook failed");
    expect(t.records[10]!.time).toBeNull();
    expect(t.turns).toEqual([{ turn_start_line: 6, turn_end_line: 11 }]);
  });

  it("does not make a turn of a subagent's prompt, autopilot's continuation or a skill's injection", () => {
    const lines = [
      jsonLine({ type: "user.message", data: { content: "typed" } }),
      jsonLine({ type: "user.message", agentId: "sub-1", data: { content: "explore the repo" } }),
      jsonLine({ type: "user.message", data: { content: "continue", isAutopilotContinuation: true } }),
      jsonLine({ type: "user.message", data: { content: "skill body", source: "skill-pdf" } }),
      jsonLine({ type: "user.message", data: { content: "also typed", source: "user" } }),
    ];
    const t = parseCopilotLines(lines, "x.jsonl");
    expect(t.records.map((r) => r.trigger)).toEqual([true, false, false, false, true]);
    expect(t.records.map((r) => r.headline)).toEqual([
      "User: typed",
      "Subagent prompt: explore the repo",
      "Injected (autopilot): continue",
      "Injected (skill-pdf): skill body",
      "User: also typed",
    ]);
  });

  it("reads an event that raw U+2028 characters split over lines as one, on its first line", () => {
    const event = JSON.stringify({ type: "assistant.message", timestamp: "2026-07-01T10:00:00.000Z", data: { content: "one\u2028two\u2028three", model: "m" } });
    const lines = physicalLines(`${event}\n${jsonLine({ type: "assistant.turn_end", data: { turnId: "0" } })}\n`);
    expect(lines).toHaveLength(4);
    const t = parseCopilotLines(lines, "split.jsonl");
    expect(t.records.map((r) => r.type)).toEqual(["assistant.message", CONTINUATION_TYPE, CONTINUATION_TYPE, "assistant.turn_end"]);
    expect(t.records[0]).toMatchObject({ line: 1, text: "one\u2028two\u2028three", model: "m", time: "2026-07-01T10:00:00.000Z" });
    expect(t.records[2]!.headline).toBe("(continues the event of line 1)");
    expect(t.warnings).toEqual([{ file: "split.jsonl", where: "lines 1-3", problem: expect.stringContaining("split over several lines") }]);
  });

  it("leaves a malformed line that only looks split as malformed, and reads the next line normally", () => {
    const lines = ['{"type":"user.message","data":{"content":"cut', jsonLine({ type: "user.message", data: { content: "next" } })];
    const t = parseCopilotLines(lines, "cut.jsonl");
    expect(t.records.map((r) => r.type)).toEqual([MALFORMED_TYPE, "user.message"]);
    expect(t.records[1]!.trigger).toBe(true);
  });
});
