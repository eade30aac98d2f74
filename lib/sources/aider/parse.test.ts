import { afterAll, describe, expect, it } from "vitest";

import { AIDER_ABSENT, parseAiderLines } from "@/lib/sources/aider/parse";
import { seededRandom } from "@/lib/testing/random";

// Set before the transcripts below are read (at collection): Aider's times are local, read in TZ.
const savedTz = process.env.TZ;
process.env.TZ = "Asia/Tokyo"; // UTC+9, no daylight saving
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const RUN = [
  "# aider chat started at 2026-06-09 14:01:00",
  "",
  "> Model: gpt-4o with diff edit format  ",
  "",
  "#### fix the flaky test  ",
  "#### in tests/api.test.ts  ",
  "####   ",
  "#### thanks  ",
  "",
  "The retry loop races the timer.",
  "",
  "tests/api.test.ts",
  "<<<<<<< SEARCH",
  "> quoted in code",
  "=======",
  ">>>>>>> REPLACE",
  "",
  "> Tokens: 10k sent, 6k cache write, 2k cache hit, 300 received.",
  "Cost: $0.04 message, $0.09 session.  ",
  "> Applied edit to tests/api.test.ts  ",
  "Cost: $1.00 message, $1.00 session.",
  "",
  "#### /run npm test  ",
];

describe("parseAiderLines", () => {
  const transcript = parseAiderLines(RUN, "x.md");
  const at = (line: number) => transcript.records[line - 1]!;

  it("gives one record per physical line, each with the run's start time", () => {
    expect(transcript.records.map((r) => r.line)).toEqual(RUN.map((_, i) => i + 1));
    expect(new Set(transcript.records.map((r) => r.time))).toEqual(new Set(["2026-06-09T05:01:00.000Z"]));
    expect(transcript).toMatchObject({ startedAt: "2026-06-09T05:01:00.000Z", endedAt: "2026-06-09T05:01:00.000Z", title: null, warnings: [] });
    expect(transcript.absent).toEqual([...AIDER_ABSENT]);
  });

  it("reads consecutive #### lines as one prompt, its first line the trigger", () => {
    expect(transcript.turns).toEqual([
      { turn_start_line: 5, turn_end_line: 22 },
      { turn_start_line: 23, turn_end_line: 23 },
    ]);
    expect([5, 6, 7, 8].map((n) => [at(n).role, at(n).trigger, at(n).text])).toEqual([
      ["user", true, "fix the flaky test"],
      ["user", false, "in tests/api.test.ts"],
      ["user", false, ""],
      ["user", false, "thanks"],
    ]);
    expect(at(5).headline).toBe("User: fix the flaky test");
  });

  it("marks the header, the model announcement, replies, output and blank lines", () => {
    expect(at(1)).toMatchObject({ type: "run-header", role: "system", headline: "Aider run started 2026-06-09 14:01:00", events: [{ kind: "run_start", detail: "aider chat started at 2026-06-09 14:01:00" }] });
    expect(at(3)).toMatchObject({ type: "tool-output", role: "tool", model: "gpt-4o", events: [{ kind: "model_change", detail: "gpt-4o" }] });
    expect(at(10)).toMatchObject({ type: "reply", role: "assistant", model: "gpt-4o", text: "The retry loop races the timer.", headline: "Assistant: The retry loop races the timer." });
    expect(at(2)).toMatchObject({ type: "blank", role: null, text: "", headline: "" });
    // The prefix decides: a `> ` line inside a block is Aider's output (documented limit).
    expect(at(14)).toMatchObject({ role: "tool", text: "quoted in code" });
  });

  it("puts an edit's call on its block and the outcome's result on the output line", () => {
    expect(at(13)).toMatchObject({
      role: "assistant",
      headline: "Edit tests/api.test.ts",
      calls: [{ id: null, name: "edit", input: { path: "tests/api.test.ts" }, files: ["tests/api.test.ts"] }],
      text: "<<<<<<< SEARCH edit tests/api.test.ts",
    });
    expect(at(20)).toMatchObject({ calls: [], results: [{ id: null, name: "edit", output: "Applied edit to tests/api.test.ts", isError: false }] });
    expect(transcript.records.flatMap((r) => r.calls)).toHaveLength(1);
  });

  it("counts the report on its Tokens line, with the cost from the Cost line that completes it", () => {
    expect(at(18).usage).toEqual([{ model: "gpt-4o", input: 2000, output: 300, cacheRead: 2000, cacheWrite: 6000, reasoning: 0, costUsd: 0.04, approximate: true }]);
    expect(at(19)).toMatchObject({ type: "tool-output", role: "tool", usage: [] });
    // A Cost line not right after a report without cost is the model's text.
    expect(at(21)).toMatchObject({ type: "reply", role: "assistant" });
    expect(transcript.records.flatMap((r) => r.usage)).toHaveLength(1);
  });

  it("gives an outcome without a block in the reply its own call, once per file", () => {
    const t = parseAiderLines(["#### go", "> Creating empty file a.py", "> Applied edit to a.py", "> Applied edit to b.py", "#### again", "> Applied edit to a.py"], "y.md");
    expect(t.records.map((r) => r.calls.map((c) => c.files[0]))).toEqual([[], ["a.py"], [], ["b.py"], [], ["a.py"]]);
  });

  it("warns about a bad header date, a half-written report and lines before any header", () => {
    const t = parseAiderLines(["stray", "# aider chat started at 2026-02-30 10:00:00", "#### q", "> Tokens: 2.5k sent, 3"], "z.md");
    expect(t.warnings).toEqual([
      { file: "z.md", where: "line 2", problem: 'run header date "2026-02-30 10:00:00" is not YYYY-MM-DD HH:MM:SS: the run\'s lines have no time' },
      { file: "z.md", where: "line 4", problem: 'token report not understood (half-written?): "Tokens: 2.5k sent, 3"' },
      { file: "z.md", where: "line 1", problem: 'lines 1–1 come before any "# aider chat started at" header: they have no time' },
    ]);
    expect(t.records.map((r) => r.time)).toEqual([null, null, null, null]);
    expect(t.records[3]!.usage).toEqual([]);
    expect(t).toMatchObject({ startedAt: null, endedAt: null, turns: [{ turn_start_line: 3, turn_end_line: 4 }] });
  });

  it("reads a run with no prompt as records without turns", () => {
    const t = parseAiderLines(["# aider chat started at 2026-06-09 16:00:00"], "e.md");
    expect(t.records).toHaveLength(1);
    expect(t.turns).toEqual([]);
    expect(t.startedAt).toBe("2026-06-09T07:00:00.000Z");
  });

  it("never throws on arbitrary lines and keeps one record per line", () => {
    const random = seededRandom(38);
    const pieces = ["#### ", "> ", "> Tokens: ", "1.5k", " sent, ", " received.", "Cost: $", "<<<<<<< SEARCH", ">>>>>>> REPLACE", "```", "+++ ", "--- ", "# aider chat started at ", "2026-06-09 14:01:00", "x", " ", "\u2028", "*** Update File: "];
    for (let round = 0; round < 200; round++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 30) }, () =>
        Array.from({ length: Math.floor(random() * 5) }, () => pieces[Math.floor(random() * pieces.length)]!).join(""),
      );
      const t = parseAiderLines(lines, "fuzz.md");
      expect(t.records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
    }
  });
});
