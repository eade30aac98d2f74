/** The catalog's row facts: read ahead on a worker they equal those read on this thread, and prepare's counted usage serves while true (issue 25). */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { readRowFacts, RowFactsAhead } from "@/lib/catalog/row-facts";
import { createCoreContext } from "@/lib/context";
import { resolveInside } from "@/lib/fs/paths";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { CountedUsages } from "@/lib/workspace/session-usage";
import { syncWorkspace } from "@/lib/workspace/sync";

describe.skipIf(!HAS_SHARED)("row facts read ahead", () => {
  if (!HAS_SHARED) it.skip(SKIP_SHARED_MESSAGE, () => {});

  it("gives every corpus session the facts this thread reads, in order, and null for a session that is not there", async () => {
    const root = await makeTempDir("casefile-row-facts-");
    const ctx = createCoreContext(root, { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [path.join(SHARED_DIR, "corpus", "claude-code")], codex: [path.join(SHARED_DIR, "corpus", "codex")], demo: false } });
    const ws = await loadWorkspace(ctx);
    const sessions = ws.projects.flatMap((p) => p.rows.map((r) => ({ row: r, project_key: p.projectKey, session_ref: r.session_ref })));
    expect(sessions.length).toBeGreaterThan(10);
    // A row whose file is not there (the index names it, the copy is gone).
    const first = ws.projects[0]!;
    const ghost = { ...first.rows[0]!, session_ref: "S9999", session_path: "sessions/claude-code/gone.jsonl" };
    const withGhost = { ...first, rows: [...first.rows, ghost] };
    const ahead = new RowFactsAhead(root, [...sessions.map((s) => ({ project: ws.projects.find((p) => p.projectKey === s.project_key)!, row: s.row })), { project: withGhost, row: ghost }]);
    try {
      for (const s of sessions) {
        const project = ws.projects.find((p) => p.projectKey === s.project_key)!;
        // The path as the catalog's refresh resolves it: the facts serve only for that same path.
        const here = await readRowFacts(ctx, { project, row: s.row, filePath: await resolveInside(project.dir, s.row.session_path) });
        expect(await ahead.get(s.project_key, s.session_ref), `${s.project_key}/${s.session_ref}`).toEqual(here);
      }
      expect(await ahead.get(first.projectKey, "S9999")).toBeNull();
      expect(await ahead.get("no-such-project", "S0001")).toBeNull();
    } finally {
      await ahead.close();
    }
  }, 120_000);

  it("takes the usage prepare counted only while it is true of the session's files, its subagents and the prices", async () => {
    const root = await makeTempDir("casefile-row-facts-counted-");
    const ctx = createCoreContext(root, { oneShot: true });
    const counted = new CountedUsages();
    await syncWorkspace(ctx, { sources: { claude: [path.join(SHARED_DIR, "corpus", "claude-code")], codex: [], demo: false }, counted });
    const ws = await loadWorkspace(ctx);
    let withSubagents = 0;
    for (const project of ws.projects) {
      for (const row of project.rows) {
        const session = { project, row, filePath: await resolveInside(project.dir, row.session_path) };
        const c = counted.take(project.projectKey, row.session_ref)!;
        const read = await readRowFacts(ctx, session);
        expect(await readRowFacts(ctx, session, c), `${project.projectKey}/${row.session_ref}`).toEqual(read);
        if (c.subagents !== "") withSubagents += 1;
        // A made-up tally shows whether the counted usage was taken or the files were read.
        const fake = { ...c, usage: { ...c.usage, totals: { ...c.usage.totals, requests: 1, output_tokens: 123_456_789 } } };
        expect((await readRowFacts(ctx, session, fake)).tokens.output_tokens).toBe(123_456_789);
        for (const stale of [{ fileStamp: "1:1" }, { subagents: `${c.subagents}|agent-new.jsonl:10` }, { pricingStamp: "0:0:0" }]) {
          expect(await readRowFacts(ctx, session, { ...fake, ...stale }), JSON.stringify(stale)).toEqual(read);
        }
      }
    }
    expect(withSubagents).toBeGreaterThan(5);
  }, 120_000);
});
