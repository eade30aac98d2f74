/** Tests of a session's facts (model, version, cwd, branch, start, duration). */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { buildLineIndex } from "@/lib/jsonl/line-index";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { readTranscriptClock } from "@/lib/workspace/session-clock";
import { readSessionFacts } from "@/lib/workspace/session-facts";

const CORPUS = path.join(SHARED_DIR, "corpus");

describe.skipIf(!HAS_SHARED)(`session header facts on corpus sessions${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("a Claude Code session: model, version, cwd, branch, start, duration", async () => {
    const file = path.join(CORPUS, "claude-code/phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl");
    const clock = await readTranscriptClock({ workspaceRoot: await makeTempDir() }, file, "claude-code");
    const facts = await readSessionFacts(file, await buildLineIndex(file), "claude-code", clock);
    expect(facts).toMatchObject({ client_version: "2.1.6", cwd: "/Users/gray/Projects/claude-bug", git_branch: "main", started_at: "2026-01-13T18:03:55.896Z" });
    expect(facts.model).toMatch(/^claude-/);
    expect(facts.duration_seconds).toBeGreaterThan(3600);
  });
});
