/** Tests of Claude Code trigger rules (contract §1.7) and claudeUserText. */
import { describe, expect, it } from "vitest";
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";

const TS = "2026-05-11T16:00:00Z";
const user = (content: unknown, extra: Record<string, unknown> = {}) => ({
  type: "user",
  timestamp: TS,
  message: { role: "user", content },
  ...extra,
});
const toolResult = { type: "tool_result", tool_use_id: "toolu_1", content: "ok" };

describe("classifyClaudeRecord: trigger rules (contract §1.7)", () => {
  it("string content is a trigger", () => {
    expect(classifyClaudeRecord(user("Fix the bug"))).toMatchObject({ isTrigger: true, exclusion: null });
  });

  it("a text-part list is a trigger", () => {
    expect(classifyClaudeRecord(user([{ type: "text", text: "hi" }])).isTrigger).toBe(true);
  });

  it("a tool_result-only list is NOT a trigger", () => {
    const cls = classifyClaudeRecord(user([toolResult, toolResult]));
    expect(cls).toMatchObject({ isTrigger: false, exclusion: "tool_result_only" });
  });

  it("a mixed tool_result + text list IS a trigger", () => {
    expect(classifyClaudeRecord(user([toolResult, { type: "text", text: "also do X" }])).isTrigger).toBe(true);
  });

  it("an empty list, or a list with a non-object part, is a trigger (only non-empty all-tool_result lists are excluded)", () => {
    expect(classifyClaudeRecord(user([])).isTrigger).toBe(true);
    expect(classifyClaudeRecord(user([toolResult, "stray"])).isTrigger).toBe(true);
  });

  it("slash commands and caveats count unless isMeta (no content-prefix filtering)", () => {
    expect(classifyClaudeRecord(user("<command-name>/clear</command-name>")).isTrigger).toBe(true);
    expect(classifyClaudeRecord(user("Caveat: ...", { isMeta: true }))).toMatchObject({ isTrigger: false, exclusion: "meta" });
  });

  it.each([
    ["isMeta: true", { isMeta: true }, "meta"],
    ["isSidechain: true", { isSidechain: true }, "sidechain"],
    ["isCompactSummary: true", { isCompactSummary: true }, "compact_summary"],
    ["non-blank sourceToolAssistantUUID", { sourceToolAssistantUUID: "b3c1" }, "tool_source"],
  ] as const)("%s is excluded", (_name, extra, exclusion) => {
    expect(classifyClaudeRecord(user("text", extra))).toMatchObject({ isTrigger: false, exclusion });
  });

  it.each([
    ["isMeta: false", { isMeta: false }],
    ["isMeta: 'true' (not the boolean)", { isMeta: "true" }],
    ["isSidechain: false", { isSidechain: false }],
    ["blank sourceToolAssistantUUID", { sourceToolAssistantUUID: "  " }],
    ["null sourceToolAssistantUUID", { sourceToolAssistantUUID: null }],
    ["non-string sourceToolAssistantUUID", { sourceToolAssistantUUID: 42 }],
  ])("%s does not exclude", (_name, extra) => {
    expect(classifyClaudeRecord(user("text", extra)).isTrigger).toBe(true);
  });

  it("needs type user and message.role user", () => {
    expect(classifyClaudeRecord({ type: "assistant", message: { role: "user", content: "x" } }).exclusion).toBe("not_user");
    expect(classifyClaudeRecord({ type: "user", message: { role: "assistant", content: "x" } }).exclusion).toBe("not_user_role");
    expect(classifyClaudeRecord({ type: "user", message: "x" }).exclusion).toBe("not_user_role");
    expect(classifyClaudeRecord({ type: "user" }).exclusion).toBe("not_user_role");
  });

  it("classifies non-objects and unknown types without throwing", () => {
    for (const value of [null, 3, "x", [], [{ type: "user" }]]) {
      expect(classifyClaudeRecord(value)).toMatchObject({ isObject: false, isTrigger: false, exclusion: "not_object" });
    }
    for (const type of ["permission-mode", "attachment", "system", "file-history-snapshot", "queue-operation", "progress", "summary", "brand-new", 7]) {
      expect(classifyClaudeRecord({ type, message: { role: "user", content: "x" } })).toMatchObject({ isObject: true, isTrigger: false });
    }
  });

  it("reports the aware timestamp and treats naive ones as missing (a trigger, but no turn start)", () => {
    expect(classifyClaudeRecord(user("x")).timestampMs).toBe(Date.parse(TS));
    const naive = classifyClaudeRecord(user("x", { timestamp: "2026-05-11T16:00:00" }));
    expect(naive).toMatchObject({ isTrigger: true, timestampMs: null });
  });

  it("reports isSidechain for any record type", () => {
    expect(classifyClaudeRecord({ type: "assistant", isSidechain: true }).isSidechain).toBe(true);
  });
});

describe("claudeUserText", () => {
  it("returns string content or joined text parts", () => {
    expect(claudeUserText(user("hello"))).toBe("hello");
    expect(claudeUserText(user([toolResult, { type: "text", text: "a" }, { type: "image" }, { type: "text", text: "b" }]))).toBe("a\nb");
    expect(claudeUserText(user([toolResult]))).toBe("");
    expect(claudeUserText({ type: "user" })).toBe("");
  });
});
