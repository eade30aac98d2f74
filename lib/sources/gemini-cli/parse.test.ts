import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { physicalLines } from "@/lib/jsonl/text-lines";
import { legacyLines } from "@/lib/sources/gemini-cli/export-lines";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";

const FIXTURES = path.join(__dirname, "__fixtures__");
const fixtureLines = (name: string) => physicalLines(readFileSync(path.join(FIXTURES, name), "utf8"));

describe("parseGeminiLines on a JSONL session (replay.jsonl)", () => {
  const t = parseGeminiLines(fixtureLines("replay.jsonl"), "replay.jsonl");
  const at = (line: number) => t.records[line - 1]!;

  it("reads one record per physical line, typed as the agent types them", () => {
    expect(t.records.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(t.records.map((r) => r.type)).toEqual([
      "session", "$set", "user", "$set", "gemini", "gemini", "$set", "user", "gemini", "$rewindTo", "$set", "checkpoint", "malformed",
    ]);
    expect(at(1).headline).toBe("Session 5e1f2a3b-0c4d-4e5f-8a9b-0c1d2e3f4a5b started");
  });

  it("starts a turn at each typed prompt, a rewound one included, never at <session_context>", () => {
    expect(t.records.filter((r) => r.trigger).map((r) => r.line)).toEqual([3, 8]);
    expect(t.turns).toEqual([
      { turn_start_line: 3, turn_end_line: 7 },
      { turn_start_line: 8, turn_end_line: 13 },
    ]);
    expect(at(2).text).toContain("<session_context>");
    expect(at(2).events).toEqual([{ kind: "metadata", detail: "messages: 1 (0 kept, 1 new, 0 dropped)" }]);
    expect(at(3).headline).toBe("User: Run the tests in packages/app");
  });

  it("marks a same-id rewrite: the older line is replaced and gives its facts to the newer", () => {
    expect(at(5).events).toEqual([{ kind: "replaced", detail: "message g-1 replaced by line 6" }]);
    expect(at(5)).toMatchObject({ calls: [], results: [], usage: [], trigger: false, isError: false });
    expect(at(5).text).toContain("run_shell_command");
    expect(at(6).events).toEqual([{ kind: "replacement", detail: "replaces message g-1 on line 5" }]);
    expect(at(6).calls).toEqual([
      { id: "run_shell_command_1", name: "run_shell_command", input: { command: "npm test", dir_path: "packages/app" }, files: ["packages/app"] },
      { id: "read_file_2", name: "read_file", input: { file_path: "packages/app/src/math.test.ts" }, files: ["packages/app/src/math.test.ts"] },
    ]);
    expect(at(6).results).toEqual([
      { id: "run_shell_command_1", name: "run_shell_command", output: "Command exited with code 1: 2 tests failed", isError: true },
      { id: "read_file_2", name: "read_file", output: "expect(add(1, 2)).toBe(3);", isError: false },
    ]);
    expect(at(6).isError).toBe(true);
    expect(at(6).headline).toBe("run_shell_command: npm test (error); read_file packages/app/src/math.test.ts");
    expect(at(6).reasoning).toContain("Planning: Run npm test in the app package.");
    expect(at(6).text).toContain("2 tests failed");
  });

  it("counts tokens once, on the current version: fresh = input − cached + tool", () => {
    expect(t.records.filter((r) => r.usage.length > 0).map((r) => r.line)).toEqual([6, 9]);
    expect(at(6).usage).toEqual([
      { model: "gemini-2.5-pro", input: 4010, output: 150, cacheRead: 8000, cacheWrite: 0, reasoning: 40, costUsd: null, approximate: false },
    ]);
    expect(at(9).usage[0]).toMatchObject({ input: 2000, cacheRead: 12000, output: 90, reasoning: 0 });
  });

  it("shows a rewind on its line and on each message it dropped, which keep their facts", () => {
    expect(at(10).events).toEqual([{ kind: "rewind", detail: "to message u-2 (line 8): 2 messages dropped" }]);
    expect(at(10).headline).toBe("Rewind to message u-2 (line 8): 2 messages dropped");
    expect(at(8).events).toEqual([{ kind: "rewound", detail: "message u-2 dropped by $rewindTo on line 10" }]);
    expect(at(9).events).toEqual([{ kind: "rewound", detail: "message g-2 dropped by $rewindTo on line 10" }]);
    expect(at(8).trigger).toBe(true);
  });

  it("takes the title from $set.summary and warns about the unknown record and the half-written line", () => {
    expect(t.title).toBe("Run the app tests and explain a failure");
    expect(at(11).headline).toBe("Summary: Run the app tests and explain a failure");
    expect(at(12).headline).toBe("Unknown record checkpoint");
    expect(at(12).text).toBe("checkpoint\nbefore-fix\n2026-04-10T09:02:00.000Z");
    expect(at(13).text).toContain('"id":"g-3"');
    expect(t.warnings).toEqual([
      { file: "replay.jsonl", where: "line 12", problem: 'unknown record "checkpoint"; shown as text' },
      { file: "replay.jsonl", where: "line 13", problem: "half-written last line (not complete JSON); shown as text" },
    ]);
  });

  it("spans the session from the earliest to the latest time and names what Gemini lacks", () => {
    expect(t.startedAt).toBe("2026-04-10T09:00:00.000Z");
    expect(t.endedAt).toBe("2026-04-10T09:02:00.000Z");
    expect(t.absent).toEqual(["cost", "cache_write"]);
  });
});

describe("parseGeminiLines on a legacy session exported line by line (legacy.json)", () => {
  const exported = legacyLines(readFileSync(path.join(FIXTURES, "legacy.json")), "legacy.json");
  const t = parseGeminiLines(exported.lines, "legacy.json");
  const at = (line: number) => t.records[line - 1]!;

  it("reads the header line and one line per message", () => {
    expect(exported.warnings).toEqual([]);
    expect(t.records.map((r) => `${r.type}:${r.role}`)).toEqual([
      "session:system", "info:system", "user:user", "gemini:assistant", "error:system", "user:user", "gemini:assistant",
    ]);
    expect(t.title).toBe("Rename helper to formatDate");
    expect(at(1).headline).toBe("Session 0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e started: Rename helper to formatDate");
    expect(t.turns).toEqual([
      { turn_start_line: 3, turn_end_line: 5 },
      { turn_start_line: 6, turn_end_line: 7 },
    ]);
    expect(t.warnings).toEqual([]);
  });

  it("keeps what the user typed (displayContent) and what was sent searchable", () => {
    expect(at(3).text).toContain("Rename helper to formatDate in @src/util.ts");
    expect(at(3).text).toContain("--- Content from referenced files ---");
  });

  it("reads a tool call with a diff display, an API error and a message without a model", () => {
    expect(at(4).headline).toBe("replace /work/legacy-app/src/util.ts");
    expect(at(4).calls[0]!.files).toEqual(["/work/legacy-app/src/util.ts"]);
    expect(at(4).text).toContain("+export function formatDate(d) {");
    expect(at(4).usage[0]).toMatchObject({ model: "gemini-2.5-flash", input: 5000, output: 120, cacheRead: 0, reasoning: 30 });
    expect(at(5)).toMatchObject({ isError: true, headline: "Error: [API Error: Quota exceeded for quota metric]" });
    expect(at(7).usage).toEqual([
      { model: null, input: 2104, output: 20, cacheRead: 4096, cacheWrite: 0, reasoning: 0, costUsd: null, approximate: false },
    ]);
    expect(at(7).model).toBeNull();
  });
});

describe("parseGeminiLines on a subagent chat (subagent.jsonl)", () => {
  const t = parseGeminiLines(fixtureLines("subagent.jsonl"), "subagent.jsonl");

  it("notes the subagent on its header and its task, and starts no human turn", () => {
    expect(t.records[0]!.headline).toBe("Subagent session 7c0e9a1b-2d3c-4e5f-9a8b-7c6d5e4f3a2b started");
    expect(t.records[0]!.text).toContain("/work/demo");
    expect(t.records[1]!.headline).toBe("Task from the parent agent: Find where add() is defined");
    expect(t.turns).toEqual([]);
    expect(t.records[3]!.headline).toBe("grep_search function add");
    expect(t.records.flatMap((r) => r.usage).map((u) => u.input)).toEqual([3000, 1352]);
  });
});

describe("parseGeminiLines edge cases", () => {
  const header = JSON.stringify({ sessionId: "s", projectHash: "h", startTime: "2026-04-01T00:00:00Z" });
  const message = (id: string, type: string, content: string) => JSON.stringify({ id, timestamp: "2026-04-01T00:00:01Z", type, content });

  it("joins a line split by a raw U+2028 inside a string back into its record", () => {
    const raw = `${header}\n${message("u", "user", "first\u2028second")}\n${message("g", "gemini", "ok")}\n`;
    const lines = physicalLines(raw);
    expect(lines).toHaveLength(4);
    const t = parseGeminiLines(lines, "f");
    expect(t.records.map((r) => r.type)).toEqual(["session", "user", "continuation", "gemini"]);
    expect(t.records[1]!.text).toBe("first\u2028second");
    expect(t.records[2]!.headline).toBe("(continues line 2)");
    expect(t.warnings).toEqual([]);
  });

  it("drops messages left out of $set.messages as replaced, keeps restated ones on their line", () => {
    const set = JSON.stringify({ $set: { messages: [JSON.parse(message("a", "user", "one")), JSON.parse(message("s", "user", "summary of earlier turns"))] } });
    const t = parseGeminiLines([header, message("a", "user", "one"), message("b", "gemini", "two"), set, JSON.stringify({ $rewindTo: "a" })], "f");
    expect(t.records[2]!.events).toEqual([{ kind: "replaced", detail: "message b dropped by $set.messages on line 4" }]);
    expect(t.records[3]!.trigger).toBe(false);
    // The rewind reaches the kept message on its own line and the new one on the $set line.
    expect(t.records[1]!.events).toEqual([{ kind: "rewound", detail: "message a dropped by $rewindTo on line 5" }]);
    expect(t.records[3]!.events).toEqual([
      { kind: "metadata", detail: "messages: 2 (1 kept, 1 new, 1 dropped)" },
      { kind: "rewound", detail: "message s dropped by $rewindTo on line 5" },
    ]);
    expect(t.records[1]!.trigger).toBe(true);
  });

  it("empties the list on a rewind to an unknown id, as the CLI's loader does", () => {
    const t = parseGeminiLines([header, message("a", "user", "one"), JSON.stringify({ $rewindTo: "zzz" })], "f");
    expect(t.records[2]!.events).toEqual([{ kind: "rewind", detail: "to unknown message zzz: the whole list (1 messages) dropped" }]);
    expect(t.records[1]!.events).toEqual([{ kind: "rewound", detail: "message a dropped by $rewindTo on line 3" }]);
  });

  it("reads an unknown message type, a blank line, a non-object line and garbage without throwing", () => {
    const lines = [header, message("x", "tool_group", "grouped output"), "", "[1,2]", "\u0000{{", "null"];
    const t = parseGeminiLines(lines, "f");
    expect(t.records.map((r) => r.type)).toEqual(["session", "tool_group", "blank", "malformed", "malformed", "malformed"]);
    expect(t.records[1]).toMatchObject({ role: null, text: "grouped output", headline: "tool_group: grouped output" });
    expect(t.warnings.map((w) => w.where)).toEqual(["line 2", "line 4", "line 5", "line 6"]);
    expect(parseGeminiLines([], "f")).toMatchObject({ records: [], turns: [], startedAt: null, title: null });
  });

  it("never throws on shuffled fragments of a real session", () => {
    const source = fixtureLines("replay.jsonl").join("\n");
    for (let seed = 1; seed <= 40; seed++) {
      const cut = (seed * 7919) % source.length;
      const lines = physicalLines(source.slice(cut) + source.slice(0, cut));
      const t = parseGeminiLines(lines, "f");
      expect(t.records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
    }
  });
});
