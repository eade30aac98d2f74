// The background risk fill's worker gives each session the risk the server's own thread computes.
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, describe, expect, it } from "vitest";

import { getSessionRisk } from "@/lib/analysis/session-analysis";
import { RiskFill } from "@/lib/catalog/risk-fill";
import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { resolveSession } from "@/lib/workspace/sessions";
import { syncWorkspace } from "@/lib/workspace/sync";

describe.skipIf(!HAS_SHARED)("RiskFill (issue 25: the server's background risk fill off its thread)", () => {
  if (!HAS_SHARED) it.skip(SKIP_SHARED_MESSAGE, () => {});
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it("computes on its worker, in order, the seed 003 risk this thread computes, and null for a session gone from the workspace", async () => {
    const root = await makeTempDir("casefile-risk-fill-");
    dirs.push(root);
    const ctx = createCoreContext(root, { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [path.join(SHARED_DIR, "corpus", "claude-code")], codex: [path.join(SHARED_DIR, "corpus", "codex")], demo: false } });
    // The project with the most sessions, plus a row whose file is gone.
    const project = (await loadWorkspace(ctx)).projects.reduce((a, b) => (b.rows.length > a.rows.length ? b : a));
    const sessions = project.rows.map((r) => ({ project_key: project.projectKey, session_ref: r.session_ref }));
    expect(sessions.length).toBeGreaterThan(3);
    const ghost = { ...project.rows[0]!, session_ref: "S9999", session_path: "sessions/claude-code/gone.jsonl" };
    const withGhost = { ...project, rows: [...project.rows, ghost] };
    const got: unknown[] = [];
    const fill = new RiskFill();
    try {
      expect(await fill.ready()).toBe(1);
      await fill.map(root, withGhost, withGhost.rows, (answer, i) => (got[i] = answer));
    } finally {
      await fill.close();
    }
    const expected: unknown[] = [];
    for (const s of sessions) {
      const resolved = await resolveSession(createCoreContext(root), s.project_key, s.session_ref);
      if (!resolved.ok) throw new Error(`${s.session_ref} did not resolve`);
      const risk = await getSessionRisk(ctx, resolved.session);
      expected.push({ risk_level: risk.risk_level, reset_count: risk.reset_count });
    }
    expect(got).toEqual([...expected, null]);
  });
});
