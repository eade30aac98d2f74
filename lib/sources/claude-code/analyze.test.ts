/** Tests of analyzeClaudeTranscript. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { dayWindow } from "@/lib/sources/common/window";

let dir = "";
let counter = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "casefile-claude-analyze-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes records (objects are JSON-encoded, strings written raw) one per line. */
async function transcript(lines: unknown[], ending = "\n"): Promise<string> {
  const file = path.join(dir, `t${++counter}.jsonl`);
  await writeFile(file, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + ending);
  return file;
}

const ts = (minute: number) => `2026-05-11T16:${String(minute).padStart(2, "0")}:00Z`;
const human = (content: unknown, minute: number, extra: Record<string, unknown> = {}) => ({
  type: "user",
  timestamp: ts(minute),
  message: { role: "user", content },
  ...extra,
});
const toolResult = { type: "tool_result", tool_use_id: "toolu_1", content: "ok" };
const assistant = (minute: number, id: string, outputTokens: number | undefined, extra: Record<string, unknown> = {}) => ({
  type: "assistant",
  timestamp: ts(minute),
  message: { id, role: "assistant", content: [], usage: outputTokens === undefined ? {} : { output_tokens: outputTokens } },
  ...extra,
});

describe("analyzeClaudeTranscript", () => {
  it("contract example: [tool_result-only, mixed, Continue, Approved] → triggers 2, 3, 4", async () => {
    const file = await transcript([
      human([toolResult], 0),
      human([toolResult, { type: "text", text: "and also this" }], 1),
      human("Continue", 2),
      human("Approved", 3),
    ]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(result.triggers.map((t) => t.line)).toEqual([2, 3, 4]);
    expect(result.turns).toEqual([
      { turn_ref: "T0001", turn_start_line: 2, turn_end_line: 2 },
      { turn_ref: "T0002", turn_start_line: 3, turn_end_line: 3 },
      { turn_ref: "T0003", turn_start_line: 4, turn_end_line: 4 },
    ]);
  });

  it("a trigger with a naive or missing timestamp starts no turn and bounds nothing", async () => {
    const file = await transcript([
      human("first", 0),
      assistant(1, "m1", 5),
      human("naive", 2, { timestamp: "2026-05-11T16:02:00" }),
      human("missing", 2, { timestamp: undefined }),
      human("second", 3),
    ]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(result.triggers.map((t) => t.line)).toEqual([1, 5]);
    expect(result.untimestampedTriggerCount).toBe(2);
    expect(result.untimestampedRecordCount).toBe(2);
    expect(result.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[1, 4], [5, 5]]);
  });

  it("keeps only in-window turns; an out-of-window trigger still bounds the previous turn", async () => {
    // Asia/Shanghai 2026-05-12 = [2026-05-11T16:00Z, 2026-05-12T16:00Z).
    const file = await transcript([
      human("late evening", 0, { timestamp: "2026-05-11T15:59:00Z" }), // previous local day
      human("after midnight", 0, { timestamp: "2026-05-11T16:00:00Z" }), // window start: included
      assistant(1, "m1", 5, { timestamp: "2026-05-12T16:30:00Z" }), // reaction after the window end stays
      human("next day", 0, { timestamp: "2026-05-12T16:00:00Z" }), // window end: excluded
      assistant(1, "m2", 5, { timestamp: "2026-05-12T16:31:00Z" }),
    ]);
    const may12 = await analyzeClaudeTranscript(file, dayWindow("2026-05-12", "Asia/Shanghai"));
    expect(may12.turns).toEqual([{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 3 }]);
    const may13 = await analyzeClaudeTranscript(file, dayWindow("2026-05-13", "Asia/Shanghai"));
    expect(may13.turns).toEqual([{ turn_ref: "T0001", turn_start_line: 4, turn_end_line: 5 }]);
    expect(may13.triggers).toHaveLength(3);
  });

  it("counts blank, invalid and non-object lines as malformed lines that still take line numbers", async () => {
    const file = await transcript(["", "not json", "[1,2]", "null", human("hi", 0), "{\"type\":\"assistant\""], "\r\n");
    const result = await analyzeClaudeTranscript(file, null);
    expect(result.lineCount).toBe(6);
    expect(result.malformedLineCount).toBe(5);
    expect(result.recordTypes).toEqual({ malformed: 5, user: 1 });
    expect(result.turns).toEqual([{ turn_ref: "T0001", turn_start_line: 5, turn_end_line: 6 }]);
  });

  it("numbers physical lines like Python splitlines (a raw U+2028 inside a JSON string splits the record)", async () => {
    const file = await transcript([human("a\u2028b", 0), human("next", 1)]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(result.lineCount).toBe(3);
    expect(result.malformedLineCount).toBe(2);
    expect(result.triggers.map((t) => t.line)).toEqual([3]);
  });

  it("reads projectRoot, sessionIdField, isSidechain, record types and event times", async () => {
    const file = await transcript([
      { type: "summary", summary: "title", leafUuid: "x" },
      { type: "file-history-snapshot", cwd: "   ", sessionId: "" },
      human("go", 5, { cwd: "/work/a", sessionId: "s-1" }),
      assistant(2, "m1", 1, { cwd: "/work/b", sessionId: "s-2", isSidechain: true }), // earlier than line 3
      { type: 42, timestamp: ts(9) },
    ]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(result).toMatchObject({
      projectRoot: "/work/a",
      sessionIdField: "s-1",
      isSidechain: true,
      untimestampedRecordCount: 2,
      nonMonotonicTimestampCount: 1,
      firstEventAt: "2026-05-11T16:02:00Z",
      lastEventAt: "2026-05-11T16:09:00Z",
      recordTypes: { summary: 1, "file-history-snapshot": 1, user: 1, assistant: 1, "(none)": 1 },
    });
  });

  it("returns empty facts for an empty file", async () => {
    const file = path.join(dir, "empty.jsonl");
    await writeFile(file, "");
    expect(await analyzeClaudeTranscript(file, null)).toMatchObject({
      lineCount: 0,
      triggers: [],
      turns: [],
      firstEventAt: null,
      firstUserMessage: null,
      projectRoot: null,
      recordTypes: {},
    });
  });

  it("firstUserMessage is the first timestamped trigger with text, trimmed to 500 characters", async () => {
    const long = `  ${"😀".repeat(600)}  `;
    const file = await transcript([
      human("untimestamped", 0, { timestamp: null }),
      human([{ type: "image", source: {} }], 1),
      human([toolResult, { type: "text", text: long }], 2),
      human("later", 3),
    ]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(Array.from(result.firstUserMessage ?? "")).toHaveLength(500);
    expect(result.firstUserMessage?.startsWith("😀")).toBe(true);
    const plain = await analyzeClaudeTranscript(await transcript([human("  Fix it\n", 0)]), null);
    expect(plain.firstUserMessage).toBe("Fix it");
  });

  it("per-turn output tokens: max per message id, summed; unknown when usage is missing or absent", async () => {
    const file = await transcript([
      human("one", 0),
      assistant(1, "msg_a", 3),
      assistant(1, "msg_a", 40), // same API message, later line carries the final usage
      assistant(2, "msg_b", 70),
      human("two", 3),
      assistant(4, "msg_c", undefined), // no usage.output_tokens → unknown
      human("three", 5),
      { type: "system", timestamp: ts(6) }, // no assistant at all → unknown
      human("four", 7),
      assistant(8, "", 9, { uuid: "u-1" }), // blank id falls back to the record uuid
      assistant(8, "", 12, { uuid: "u-1" }),
      human("five", 9),
      assistant(10, "msg_d", 500),
      "garbage",
    ]);
    const result = await analyzeClaudeTranscript(file, null);
    expect(result.triggers.map((t) => [t.line, t.outputTokens])).toEqual([
      [1, 110],
      [5, null],
      [7, null],
      [9, 12],
      [12, null], // the malformed line inside the turn makes it unknown
    ]);
  });

  it("throws not_found for a missing file", async () => {
    await expect(analyzeClaudeTranscript(path.join(dir, "nope.jsonl"), null)).rejects.toMatchObject({ code: "not_found" });
  });
});
