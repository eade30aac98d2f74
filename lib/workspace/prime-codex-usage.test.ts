import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession } from "@/lib/workspace/sessions";
import { getTurnUsage } from "@/lib/workspace/turn-usage";

describe.skipIf(!HAS_SHARED)(`prepare stores Codex turn usage from its analysis pass (issue 13) ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("primes exactly what streaming the transcript counts, for every corpus Codex session", async () => {
    const root = await makeTempDir("casefile-prime-codex-");
    const ctx = createCoreContext(root, { now: () => new Date("2026-11-21T10:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    const primed = await fs.readdir(path.join(root, ".casefile", "usage"));

    // The same workspace under another root without the primed files: getTurnUsage streams each transcript.
    const copy = await makeTempDir("casefile-prime-codex-copy-");
    await fs.cp(root, copy, { recursive: true, preserveTimestamps: true });
    await fs.rm(path.join(copy, ".casefile", "usage"), { recursive: true, force: true });
    const recount = createCoreContext(copy);

    let sessions = 0;
    let known = 0;
    for (const project of (await loadWorkspace(ctx)).projects) {
      for (const row of project.rows) {
        if (row.source !== "codex") continue;
        sessions++;
        const fromPrepare = await getTurnUsage(ctx, await getSession(ctx, project.projectKey, row.session_ref));
        const counted = await getTurnUsage(recount, await getSession(recount, project.projectKey, row.session_ref));
        expect(fromPrepare, `${project.projectKey}/${row.session_ref}`).toEqual(counted);
        known += counted.filter((u) => u.total_tokens !== null).length;
      }
    }
    expect(sessions).toBeGreaterThan(3);
    expect(known).toBeGreaterThan(0);
    expect(primed.length).toBe(sessions);
  });
});
