/** Tests of getWorkspaceOverview. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

const turns = [
  { turn_ref: "T0001", turn_start_line: 1, turn_end_line: 2 },
  { turn_ref: "T0002", turn_start_line: 3, turn_end_line: 4 },
];

describe("getWorkspaceOverview", () => {
  it("reports evidence and synthesis coverage and changes version when a card changes", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(4), turns }]);
    const ctx = createCoreContext(root);
    const before = await getWorkspaceOverview(ctx);
    expect(before.projects).toEqual([
      { project_key: TEST_PROJECT_KEY, project_label: "Demo", session_count: 1, turn_count: 2, turns_with_chain: 0, covered_turns: 0, synthesis_complete: false, has_envelope: false, cwd: null, git_branch: null, last_activity_at: "2026-05-12T01:00:00.000Z", total_tokens: null, broken_row_count: 0 },
    ]);
    const card = { schema_version: 1, project_key: TEST_PROJECT_KEY, session_ref: "S0001", evidence_chains: [{ turn_ref: "T0002" }] };
    await fs.mkdir(path.join(root, "projects", TEST_PROJECT_KEY, "evidence"), { recursive: true });
    await fs.writeFile(path.join(root, "projects", TEST_PROJECT_KEY, "evidence", "S0001.json"), JSON.stringify(card));
    const after = await getWorkspaceOverview(ctx);
    expect(after.projects[0]!.turns_with_chain).toBe(1);
    expect(after.version).not.toBe(before.version);
    expect((await getWorkspaceOverview(ctx)).version).toBe(after.version);
  });
});
