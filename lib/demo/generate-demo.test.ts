/** Tests of the demo transcripts `npm start` prepares. */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { makeTempDir } from "@/lib/testing/shared";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSessionDetail } from "@/lib/workspace/projects";

describe("demo transcripts for npm start", () => {
  it("prepare into two projects with turns, a subagent and readable lines", async () => {
    const sources = await makeTempDir();
    const files = await generateDemoSources(sources);
    expect(files.filter((f) => f.includes(`${path.sep}subagents${path.sep}`))).toHaveLength(1);
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [sources] });
    expect(summary.skipped).toEqual([]);
    expect(summary.projects.map((p) => [p.project_label, p.sessions, p.turns])).toEqual([
      ["acme-api", 2, 5],
      ["docs-site", 1, 1],
    ]);
    const acme = summary.projects[0]!.project_key;
    const list = await listSessions(ctx, { project_key: acme, sort: "session_ref", order: "asc" });
    expect(list.status === "ok" && list.sessions.map((s) => [s.session_ref, s.subagent_count, s.first_user_message])).toEqual([
      ["S0001", 1, "Add pagination to the /orders endpoint and cover it with tests."],
      ["S0002", 0, "Why is the nightly build slow? Profile it."],
    ]);
    // Output tokens: each turn of S0001 has 1 thinking + 40 tool-step + 1 closing assistant message, 240 tokens each.
    const detail = await getSessionDetail(ctx, acme, "S0001");
    expect(detail.turn_usage.map((u) => u.output_tokens)).toEqual([42 * 240, 42 * 240, 42 * 240]);
    // The list counts the whole session (issue 28): the three turns plus the subagent's 2 messages of 240.
    expect(list.status === "ok" && list.sessions[0]!.output_tokens).toBe(3 * 42 * 240 + 2 * 240);
    const read = await readSessionLines(ctx, { project_key: acme, session_ref: "S0001", start_line: 1, end_line: 6 });
    expect(read.status === "ok" && read.records.map((r) => ("summary" in r ? r.summary : ""))).toEqual([
      "file-history-snapshot record.",
      "User message.",
      "Assistant reasoning omitted.",
      "Assistant message.",
      "Tool result.",
      "Assistant message.",
    ]);
  });
});
