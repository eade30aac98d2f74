/** Tests of the warm-up of big sessions' pages. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { warmSessionPages } from "@/lib/catalog/warm";
import { createCoreContext } from "@/lib/context";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { defaultAgentRoots } from "@/lib/sources/agents";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";

const HOME = path.join(SHARED_DIR, "corpus", "agents-home");

describe.skipIf(!HAS_SHARED)(`warm-up of agent sessions${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("stores each big agent session's forensics scan, and the overview then answers as it did", async () => {
    const root = await makeTempDir();
    const ctx = createCoreContext(root);
    await prepareWorkspace(ctx, { claudeRoots: [], agentRoots: defaultAgentRoots(HOME, {} as NodeJS.ProcessEnv) });
    await refreshCatalog(ctx);
    const sessions = (await loadWorkspace(ctx)).projects.flatMap((p) => p.rows.map((r) => ({ project_key: p.projectKey, session_ref: r.session_ref, source: r.source })));
    const gemini = sessions.find((s) => s.source === "gemini-cli")!;
    const overview = { project_key: gemini.project_key, session_ref: gemini.session_ref };
    // Nothing is stored for a session under the size; every agent session at 1 byte or more.
    expect(await warmSessionPages(ctx, 1 << 30)).toEqual({ sessions: 0 });
    await fs.rm(derivedPath(root, "forensics"), { recursive: true, force: true });
    const warmed = await warmSessionPages(ctx, 1);
    expect(warmed.sessions).toBe(sessions.length);
    const stored = (await fs.readdir(derivedPath(root, "forensics"))).filter((n) => n.endsWith(".scan"));
    expect(stored).toHaveLength(sessions.length);
    // What a page reads from the stored scan is what a scan of the transcript gives.
    const fromStore = await callTool(createCoreContext(root), "session_overview", overview, { door: "cli" });
    await fs.rm(derivedPath(root, "forensics"), { recursive: true, force: true });
    const fresh = await callTool(createCoreContext(root), "session_overview", overview, { door: "cli" });
    expect(fromStore).toEqual(fresh);
    expect((fresh as unknown as { diagnostics: { files_touched?: unknown } }).diagnostics.files_touched).toBeDefined();
    closeCatalog(ctx);
  });
});
