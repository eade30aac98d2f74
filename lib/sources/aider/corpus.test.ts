import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { physicalLines } from "@/lib/jsonl/text-lines";
import { aiderSource } from "@/lib/sources/aider/source";
import { figuresOf } from "@/lib/sources/aider/test-figures";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

// The corpus headers are local times: read them in a fixed zone (CEST in June, UTC+2).
const savedTz = process.env.TZ;
process.env.TZ = "Europe/Berlin";
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const HOME = path.join(SHARED_DIR, "corpus", "agents-home");
const MYREPO = path.join(HOME, "src", "myrepo");
const HISTORY = path.join(MYREPO, ".aider.chat.history.md");

describe("aiderSource on the corpus (agents-home/src/myrepo)", () => {
  it.skipIf(!HAS_SHARED)("finds the three runs from the whole home, the empty last one included", async () => {
    const { sessions, warnings } = await aiderSource.discover(HOME);
    expect(warnings).toEqual([]);
    expect(sessions).toEqual([
      { source: "aider", sourceSessionId: "myrepo-20260609T140100", sourcePath: HISTORY, part: "2", fileName: "myrepo.2026-06-09T14-01-00.md", projectRoot: MYREPO, stamp: expect.stringMatching(/^16:/) },
      { source: "aider", sourceSessionId: "myrepo-20260609T153000", sourcePath: HISTORY, part: "18", fileName: "myrepo.2026-06-09T15-30-00.md", projectRoot: MYREPO, stamp: expect.stringMatching(/^7:/) },
      { source: "aider", sourceSessionId: "myrepo-20260609T160000", sourcePath: HISTORY, part: "25", fileName: "myrepo.2026-06-09T16-00-00.md", projectRoot: MYREPO, stamp: expect.stringMatching(/^1:/) },
    ]);
    expect((await aiderSource.discover(MYREPO)).sessions).toEqual(sessions);
    expect((await aiderSource.discover(HISTORY)).sessions).toEqual(sessions);
  });

  it.skipIf(!HAS_SHARED)("exports the runs' lines as they are in the file (its blank first line in none)", async () => {
    const all = physicalLines(await fs.readFile(HISTORY, "utf8"));
    expect(all).toHaveLength(25);
    const { sessions } = await aiderSource.discover(MYREPO);
    const exported = await Promise.all(sessions.map((s) => aiderSource.exportLines(s)));
    expect(exported.map((e) => e.warnings)).toEqual([[], [], []]);
    expect(["", ...exported.flatMap((e) => e.lines)]).toEqual(all);
  });

  it.skipIf(!HAS_SHARED)("reads each run to the exact figures of its lines", async () => {
    const { sessions } = await aiderSource.discover(MYREPO);
    const transcripts = await Promise.all(sessions.map(async (s) => aiderSource.parseLines((await aiderSource.exportLines(s)).lines, s.fileName)));
    const none = { errors: 0, modelChanges: [], input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: null, warnings: 0 };
    expect(transcripts.map(figuresOf)).toEqual([
      { ...none, records: 16, turns: 2, calls: 4, files: ["src/webhook.py", "src/retry.py", "src/skip.py", "src/other.py"], results: 5, errors: 1, startedAt: "2026-06-09T12:01:00.000Z" },
      { ...none, records: 7, turns: 1, calls: 1, files: ["src/config.py"], results: 1, startedAt: "2026-06-09T13:30:00.000Z" },
      { ...none, records: 1, turns: 0, calls: 0, files: [], results: 0, startedAt: "2026-06-09T14:00:00.000Z" },
    ]);
    const [first, second, empty] = transcripts as [(typeof transcripts)[number], (typeof transcripts)[number], (typeof transcripts)[number]];
    // "#### Step 1" is a second prompt: Aider writes `#### ` only for what the user typed.
    expect(first.turns).toEqual([
      { turn_start_line: 3, turn_end_line: 7 },
      { turn_start_line: 8, turn_end_line: 16 },
    ]);
    expect(first.records.filter((r) => r.trigger).map((r) => r.headline)).toEqual(["User: add a retry to the webhook", "User: Step 1"]);
    expect(first.records.filter((r) => r.isError).map((r) => r.headline)).toEqual(["Skipping edits to src/other.py"]);
    expect(second.turns).toEqual([{ turn_start_line: 3, turn_end_line: 7 }]);
    expect(second.records.map((r) => r.role)).toEqual(["system", null, "user", "assistant", null, "tool", null]);
    // The last run has only its header: found, read, without turns (prepare skips it).
    expect(empty.records.map((r) => r.type)).toEqual(["run-header"]);
    expect(empty.endedAt).toBe("2026-06-09T14:00:00.000Z");
  });
});
