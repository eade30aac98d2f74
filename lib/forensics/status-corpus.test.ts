/** Session status over the corpus: no copied session counts as active. */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import type { ListSessionsResult } from "@/lib/workspace/schema";

describe.skipIf(!HAS_SHARED)(`status of the corpus sessions (issue 28)${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("no corpus session is active: fresh copies (new mtimes) of sessions whose last record is months old, some ending in /export or /exit", async () => {
    // The copies are made now: their mtime is recent, the records' own timestamps are not.
    const ctx = createCoreContext(await makeTempDir(), { now: () => new Date() });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    let seen = 0;
    for (const p of (await loadWorkspace(ctx)).projects) {
      const list = (await listSessions(ctx, { project_key: p.projectKey, limit: 500 })) as ListSessionsResult;
      for (const s of list.sessions) {
        seen += 1;
        expect(s.status, `${p.projectKey}/${s.session_ref}`).not.toBe("active");
      }
    }
    expect(seen).toBe(19);
  }, 120_000);
});
