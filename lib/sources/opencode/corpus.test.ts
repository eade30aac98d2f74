import path from "node:path";
import { describe, expect, it } from "vitest";
import { tally } from "@/lib/sources/opencode/__fixtures__/tally";
import { opencodeSource } from "@/lib/sources/opencode/source";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const HOME = path.join(SHARED_DIR, "corpus", "agents-home");
const ROOT = opencodeSource.defaultRoots(HOME, {} as NodeJS.ProcessEnv)[0]!;
const ID = "ses_6290e7826ffeR7mF2FTlXM52x8";

describe("the captured OpenCode 0.15.0 session (corpus agents-home)", () => {
  it.skipIf(!HAS_SHARED)("is found at the default root", async () => {
    const { sessions, warnings } = await opencodeSource.discover(ROOT);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      source: "opencode",
      sourceSessionId: ID,
      sourcePath: path.join(ROOT, "storage", "session", "b0b749d27ca2e03482d36bfe846b01ce40ba759b", `${ID}.json`),
      part: ID,
      fileName: `${ID}.jsonl`,
      projectRoot: "/Users/cam/tmp/a",
    });
  });

  it.skipIf(!HAS_SHARED)("reads as 11 records, 1 turn, 1 tool call; github-copilot tokens of 0.15.0 include cache reads", async () => {
    const [session] = (await opencodeSource.discover(ROOT)).sessions;
    const { lines, warnings } = await opencodeSource.exportLines(session!);
    expect(warnings).toEqual([]);
    expect(lines).toHaveLength(11);
    const transcript = opencodeSource.parseLines(lines, session!.fileName);
    expect(transcript.records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
    expect(transcript.records.map((r) => r.type)).toEqual([
      "session",
      "message:user",
      "part:text",
      "message:assistant",
      "part:step-start",
      "part:tool",
      "part:step-finish",
      "part:patch",
      "message:assistant",
      "part:step-start",
      "part:step-finish",
    ]);
    expect(tally(transcript)).toEqual({
      records: 11,
      turns: 1,
      toolCalls: 1,
      errorLines: [],
      triggerLines: [2],
      // 11405 − 11067 cache reads = 338 fresh, + 11512 (no cache read)
      usage: { entries: 2, input: 11850, output: 82, cacheRead: 11067, cacheWrite: 0, reasoning: 0, costUsd: 0 },
    });
    expect(transcript.turns).toEqual([{ turn_start_line: 2, turn_end_line: 11 }]);
    expect(transcript).toMatchObject({
      title: "Adding test.txt with :)",
      startedAt: "2025-10-12T05:42:57.241Z",
      endedAt: "2025-10-12T05:44:00.584Z",
      warnings: [],
    });
    const r = transcript.records;
    expect(r[1]!.headline).toBe('User: add a file, test.txt, with ":)" in it');
    expect(r[2]!.text).toBe('add a file, test.txt, with ":)" in it');
    expect(r[5]!).toMatchObject({
      role: "tool",
      headline: "Write /Users/cam/tmp/a/test.txt",
      calls: [{ id: "toolu_vrtx_015tPjVXdG41X2WsGRHZjBQY", name: "write", files: ["/Users/cam/tmp/a/test.txt"] }],
      results: [{ id: "toolu_vrtx_015tPjVXdG41X2WsGRHZjBQY", name: "write", output: "", isError: false }],
    });
    expect(r[3]!.usage).toEqual([
      { model: "claude-sonnet-4.5", input: 338, output: 80, cacheRead: 11067, cacheWrite: 0, reasoning: 0, costUsd: 0, approximate: false },
    ]);
    expect(r[6]!.usage).toEqual([]);
    expect(r[7]!.headline).toBe("Patch: 1 file (/Users/cam/tmp/a/test.txt)");
  });
});
