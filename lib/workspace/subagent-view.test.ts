/** Tests of a subagent's own view: turns, task, tool calls, spawning line. */
import path from "node:path";
import { describe, expect, it } from "vitest";

import { buildLineIndex } from "@/lib/jsonl/line-index";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { subagentOverview, subagentTurns } from "./subagent-view";

const DIR = path.join(SHARED_DIR, "corpus", "claude-code", "misc", "marot__spotter", "test", "fixtures", "transcripts");
const MAIN = path.join(DIR, "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const AGENT = path.join(DIR, "258c7280-ae70-4798-800f-63464d01a85d", "subagents", "agent-a881341.jsonl");

describe.skipIf(!HAS_SHARED)(`a subagent transcript's own view (issue 29) ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("has its own turns, its task, its tool calls and the Task call that spawned it", async () => {
    const [mainIndex, agentIndex] = await Promise.all([buildLineIndex(MAIN), buildLineIndex(AGENT)]);
    expect(await subagentTurns(AGENT, agentIndex.lineCount)).toEqual([{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 10 }]);
    const overview = await subagentOverview(MAIN, mainIndex, AGENT, agentIndex, "agent-a881341");
    expect(overview.spawn_line).toBe(1473);
    expect(overview.prompt).toMatch(/^What is the output contract for Claude Code hooks/);
    expect(overview.tool_calls).toBe(2);
    expect(overview.last_reply).not.toBeNull();
  });

  it("has no spawning line for an agent the main transcript never names", async () => {
    const [mainIndex, agentIndex] = await Promise.all([buildLineIndex(MAIN), buildLineIndex(AGENT)]);
    expect((await subagentOverview(MAIN, mainIndex, AGENT, agentIndex, "agent-nobody")).spawn_line).toBeNull();
  });
});
