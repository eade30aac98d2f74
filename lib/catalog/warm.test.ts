/** Tests of the warm-up of big sessions' pages. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it, vi } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { warmSessionPages } from "@/lib/catalog/warm";
import { createCoreContext } from "@/lib/context";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { CompactStore } from "@/lib/session-reader/compact-store";
import { LINE_FACTS_MIN_BYTES } from "@/lib/sources/agent-transcripts";
import { defaultAgentRoots } from "@/lib/sources/agents";
import { freshProcess } from "@/lib/testing/fresh-process";
import { bigGeminiChat, GEMINI_REPLAY_FIXTURE } from "@/lib/testing/gemini-chats";
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

describe("a big agent session's line facts (issue 38: its first window reads only its own lines)", () => {
  it("are stored by the catalog refresh, and a window read from them equals one read from the whole chat", async () => {
    const home = await makeTempDir();
    const chats = path.join(home, ".gemini", "tmp", "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0", "chats");
    await fs.mkdir(chats, { recursive: true });
    await fs.writeFile(path.join(chats, "session-2026-04-10T09-00-5e1f2a3b.jsonl"), bigGeminiChat(LINE_FACTS_MIN_BYTES + 1000));
    const small = await fs.readFile(GEMINI_REPLAY_FIXTURE, "utf8");
    await fs.writeFile(path.join(chats, "session-2026-04-11T09-00-6f2a3b4c.jsonl"), small.slice(0, small.lastIndexOf("\n") + 1).replace(/5e1f2a3b/g, "6f2a3b4c"));
    const root = await makeTempDir();
    const ctx = createCoreContext(root);
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [], agentRoots: defaultAgentRoots(home, {} as NodeJS.ProcessEnv) });
    await refreshCatalog(ctx);
    closeCatalog(ctx);
    const facts = (await fs.readdir(derivedPath(root, "index"))).filter((n) => n.endsWith(".facts"));
    expect(facts).toHaveLength(1);
    const rows = (await loadWorkspace(ctx)).projects.flatMap((p) => p.rows.map((r) => ({ project_key: p.projectKey, session_ref: r.session_ref, lines: r.target_end_line })));
    const [big] = [...rows].sort((a, b) => b.lines - a.lines);
    const window = { project_key: big!.project_key, session_ref: big!.session_ref, start_line: Math.floor(big!.lines / 2), end_line: Math.floor(big!.lines / 2) + 250, mode: "compact" };
    // A read in what a new process sees (no transcript, record or block in memory), the stored blocks removed; how often the chat was read whole.
    const read = async () => {
      freshProcess();
      const fresh = { ...(await import("@/lib/tools/registry")), ...(await import("@/lib/sources/gemini-cli/source")), ...(await import("@/lib/context")) };
      await CompactStore.removeAll(derivedPath(root, "index"));
      const readLines = vi.spyOn(fresh.geminiSource, "readLines");
      try {
        const result = await fresh.callTool(fresh.createCoreContext(root), "read_session_lines", window, { door: "cli" });
        return { result, wholeReads: readLines.mock.calls.length };
      } finally {
        readLines.mockRestore();
      }
    };
    const fromFacts = await read();
    expect(fromFacts.wholeReads).toBe(0);
    expect((fromFacts.result as { status: string }).status).toBe("ok");
    await fs.rm(path.join(derivedPath(root, "index"), facts[0]!));
    const fromChat = await read();
    expect(fromChat.wholeReads).toBe(1);
    expect(fromFacts.result).toEqual(fromChat.result);
    // The whole read stored the facts again.
    expect((await fs.readdir(derivedPath(root, "index"))).filter((n) => n.endsWith(".facts"))).toEqual(facts);
  });
});
