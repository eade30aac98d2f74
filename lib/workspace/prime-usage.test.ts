import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession } from "@/lib/workspace/sessions";
import { getTurnUsage } from "@/lib/workspace/turn-usage";

describe.skipIf(!HAS_SHARED)(`prepare stores the session list's turn usage from its one pass ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("primes exactly what a recount gives, for every corpus Claude Code session", async () => {
    // Reached through a symlink: the cache is keyed by the real path every reader resolves.
    const real = await makeTempDir("casefile-prime-");
    const root = path.join(await makeTempDir("casefile-prime-link-"), "ws");
    await fs.symlink(real, root);
    const ctx = createCoreContext(root, { now: () => new Date("2026-11-21T10:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")] });
    const usageDir = path.join(root, ".casefile", "usage");
    const primed = await fs.readdir(usageDir);

    // The same workspace under another root: nothing primed or in memory for its paths, so
    // getTurnUsage counts from the transcripts.
    const copy = await makeTempDir("casefile-prime-copy-");
    await fs.cp(real, copy, { recursive: true, preserveTimestamps: true });
    await fs.rm(path.join(copy, ".casefile", "usage"), { recursive: true, force: true });
    const recount = createCoreContext(copy);

    let sessions = 0;
    for (const project of (await loadWorkspace(ctx)).projects) {
      for (const row of project.rows) {
        if (row.source !== "claude-code") continue;
        sessions++;
        const session = await getSession(ctx, project.projectKey, row.session_ref);
        expect(primed).toContain(`${createHash("sha256").update(session.filePath).digest("hex")}.json`);
        const fromPrepare = await getTurnUsage(ctx, session);
        const counted = await getTurnUsage(recount, await getSession(recount, project.projectKey, row.session_ref));
        expect(fromPrepare, `${project.projectKey}/${row.session_ref}`).toEqual(counted);
      }
    }
    expect(sessions).toBeGreaterThan(5);
    expect(primed.length).toBe(sessions);
  });
});
