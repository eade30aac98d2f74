/** Prepare and sync of the agents behind the source contract (issue 38): found with no flags, written, refs kept, growth followed. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { derivedPath, stagingDir } from "@/lib/fs/workspace-layout";
import { buildLineIndex, getLineIndex, PERSISTED_INDEX_MIN_BYTES } from "@/lib/jsonl/line-index";
import { readPersistedLineIndex } from "@/lib/jsonl/line-index-file";
import { createCoreContext } from "@/lib/context";
import { callTool } from "@/lib/tools/registry";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { agentSource, defaultAgentRoots } from "@/lib/sources/agents";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { syncWorkspace } from "@/lib/workspace/sync";

const HOME = path.join(SHARED_DIR, "corpus", "agents-home");
const COPILOT_FIXTURES = path.resolve("lib/sources/copilot-cli/__fixtures__/session-state");

async function rowsOf(root: string) {
  const ws = await loadWorkspace(createCoreContext(root));
  return ws.projects.flatMap((p) => p.rows.map((r) => ({ ...r, project_key: p.projectKey, file: path.join(p.dir, r.session_path) })));
}

describe.skipIf(!HAS_SHARED)(`prepare with HOME at agents-home${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("finds every agent session there with no flags, one row per session with prompts, each file the reader's lines", async () => {
    const roots = defaultAgentRoots(HOME, {} as NodeJS.ProcessEnv);
    expect(roots).toEqual({
      "gemini-cli": [path.join(HOME, ".gemini")],
      "copilot-cli": [path.join(HOME, ".copilot", "session-state")],
      opencode: [path.join(HOME, ".local", "share", "opencode")],
      aider: [path.join(HOME, "src", "myrepo")],
    });
    const root = await makeTempDir();
    const summary = await prepareWorkspace(createCoreContext(root), { claudeRoots: [], agentRoots: roots });
    // 7 Gemini chats (one with no prompt), 1 Copilot session, 1 OpenCode session, 3 Aider runs (the last empty).
    expect(summary.sessions).toBe(10);
    expect(summary.skipped.map((s) => [path.relative(HOME, s.path), s.reason])).toEqual([
      [".gemini/tmp/abc123def456/chats/session-2024-01-01T10-00-sess-uuid-3.json", "no user prompt (no turn to index)"],
      ["src/myrepo/.aider.chat.history.md (25)", "no user prompt (no turn to index)"],
    ]);
    const rows = await rowsOf(root);
    const bySource = (s: string) => rows.filter((r) => r.source === s);
    expect([bySource("gemini-cli").length, bySource("copilot-cli").length, bySource("opencode").length, bySource("aider").length]).toEqual([6, 1, 1, 2]);
    expect(rows.reduce((n, r) => n + r.turns.length, 0)).toBe(15);
    const copilot = bySource("copilot-cli")[0]!;
    expect(copilot).toMatchObject({ session_path: "sessions/copilot-cli/87ecd1bd-04f8-4b58-b837-a583e194be8f.jsonl", source_session_id: "87ecd1bd-04f8-4b58-b837-a583e194be8f" });
    expect(copilot.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[4, 8]]);
    // A line-based source is written as its own lines; Aider's run as the Markdown lines of that run.
    const source = await fs.readFile(path.join(HOME, ".copilot/session-state/87ecd1bd-04f8-4b58-b837-a583e194be8f/events.jsonl"), "utf8");
    expect(physicalLines(await fs.readFile(copilot.file, "utf8"))).toEqual(physicalLines(source));
    const aider = bySource("aider").sort((a, b) => a.session_ref.localeCompare(b.session_ref));
    const history = physicalLines(await fs.readFile(path.join(HOME, "src/myrepo/.aider.chat.history.md"), "utf8"));
    expect(physicalLines(await fs.readFile(aider[0]!.file, "utf8"))).toEqual(history.slice(1, 17));
    expect(aider[0]!.project_key).toMatch(/^myrepo-[0-9a-f]{12}$/);
    // The OpenCode session: one JSON object per line, the session first.
    const opencode = bySource("opencode")[0]!;
    const lines = physicalLines(await fs.readFile(opencode.file, "utf8")).map((l) => JSON.parse(l) as { id?: string });
    expect(lines[0]!.id).toBe("ses_6290e7826ffeR7mF2FTlXM52x8");
    expect(lines).toHaveLength(11);
    // list_sessions filters by source.
    const ctx = createCoreContext(root);
    const listed = (await callTool(ctx, "list_sessions", { project_key: aider[0]!.project_key, source: "aider" }, { door: "cli" })) as unknown as { sessions: { source: string }[] };
    expect(listed.sessions.map((r) => r.source)).toEqual(["aider", "aider"]);
    const none = (await callTool(ctx, "list_sessions", { project_key: aider[0]!.project_key, source: "gemini-cli" }, { door: "cli" })) as unknown as { total: number };
    expect(none.total).toBe(0);
    closeCatalog(ctx);
    // Each file's line index was made from the lines it was written from: the one a read of the
    // file builds (kept in memory; persisted too for a file of PERSISTED_INDEX_MIN_BYTES or more).
    for (const row of rows) {
      const adopted = await getLineIndex(row.file, null);
      const built = await buildLineIndex(row.file);
      expect(adopted, row.session_path).toMatchObject({ size: built.size, mtimeMs: built.mtimeMs, lineCount: built.lineCount });
      expect([...adopted.starts]).toEqual([...built.starts]);
      const persisted = await readPersistedLineIndex(derivedPath(root, "index"), row.file);
      if (built.size < PERSISTED_INDEX_MIN_BYTES) expect(persisted).toBeNull();
      else expect([...persisted!.starts]).toEqual([...built.starts]);
      // What the agent does not record is known without reading the file (pages say it from the source).
      expect((await readAgentTranscript(row.source, row.file))!.absent, row.session_path).toEqual([...agentSource(row.source)!.absent]);
    }
    // Each file was written while planned, to the staging folder, then moved in place: nothing is left there.
    expect(await fs.readdir(stagingDir(root)).catch(() => [])).toEqual([]);
    // Nothing changed: nothing written (each file exported again, found equal, its staged copy dropped).
    const again = await prepareWorkspace(createCoreContext(root), { claudeRoots: [], agentRoots: roots });
    expect(again.files_written).toBe(0);
    expect(await fs.readdir(stagingDir(root)).catch(() => [])).toEqual([]);
  });
});

describe.skipIf(!HAS_SHARED)(`prepare reading agent sessions on worker threads${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("writes the same workspace, line indexes and summary as reading them on its own thread", async () => {
    const roots = defaultAgentRoots(HOME, {} as NodeJS.ProcessEnv);
    const prepareWith = async (env: Record<string, string | undefined>) => {
      const saved = { CASEFILE_WORKERS: process.env.CASEFILE_WORKERS, CASEFILE_WORKERS_MIN_BYTES: process.env.CASEFILE_WORKERS_MIN_BYTES };
      Object.assign(process.env, env);
      try {
        const root = await makeTempDir();
        const summary = await prepareWorkspace(createCoreContext(root), { claudeRoots: [], agentRoots: roots });
        const rows = await rowsOf(root);
        const files = await Promise.all(rows.map(async (r) => [r.session_path, await fs.readFile(r.file, "utf8"), [...(await getLineIndex(r.file, null)).starts]] as const));
        expect(await fs.readdir(stagingDir(root)).catch(() => [])).toEqual([]);
        return { summary: { ...summary, workspace: "" }, rows: rows.map((r) => ({ ...r, file: "" })), files };
      } finally {
        for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    };
    const alone = await prepareWith({ CASEFILE_WORKERS: "1" });
    // Every root's sessions read on two workers, however small.
    const workers = await prepareWith({ CASEFILE_WORKERS: "2", CASEFILE_WORKERS_MIN_BYTES: "1" });
    expect(workers).toEqual(alone);
    expect(alone.rows.length).toBe(10);
  }, 60_000);
});

describe("sync of an agent session that grows", () => {
  it("extends its file and turns, keeps its ref, and adds a session that appeared", async () => {
    const home = await makeTempDir();
    const state = path.join(home, "session-state");
    await fs.cp(path.join(COPILOT_FIXTURES, "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c"), path.join(state, "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c"), { recursive: true });
    const events = path.join(state, "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c", "events.jsonl");
    const full = physicalLines(await fs.readFile(events, "utf8"));
    // The first run only (up to its shutdown), as a running Copilot CLI leaves it.
    const firstRun = full.slice(0, full.findIndex((l) => l.includes('"session.resume"')));
    await fs.writeFile(events, `${firstRun.join("\n")}\n`);
    const ctx = createCoreContext(await makeTempDir());
    const sources = { claude: [], codex: [], agents: { "copilot-cli": [state] }, demo: false };
    await syncWorkspace(ctx, { sources });
    let rows = await rowsOf(ctx.workspaceRoot);
    expect(rows.map((r) => [r.session_ref, r.turns.length])).toEqual([["S0001", 1]]);
    expect(physicalLines(await fs.readFile(rows[0]!.file, "utf8"))).toHaveLength(firstRun.length);
    // Another session starts: only it is read, the unchanged one is planned from the sync's memo.
    await fs.cp(path.join(COPILOT_FIXTURES, "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f"), path.join(state, "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f"), { recursive: true });
    const added = await syncWorkspace(ctx);
    expect(added.read_paths.map((p) => path.basename(path.dirname(p)))).toEqual(["9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f"]);
    expect(added.reused).toBeGreaterThan(0);
    // The first session resumes (the rest of the file appended).
    await fs.writeFile(events, `${full.join("\n")}\n`);
    const synced = await syncWorkspace(ctx);
    expect(synced.read_paths.map((p) => path.basename(path.dirname(p)))).toEqual(["5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c"]);
    expect(synced.unchanged).toBe(false);
    rows = await rowsOf(ctx.workspaceRoot);
    const grown = rows.find((r) => r.source_session_id === "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c")!;
    expect(grown.session_ref).toBe("S0001");
    expect(grown.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[6, 25], [26, 33]]);
    expect(physicalLines(await fs.readFile(grown.file, "utf8"))).toEqual(full);
    // The new one is a session of its own project (its own cwd): S0001 there.
    const other = rows.find((r) => r.source_session_id === "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f")!;
    expect(other.project_key).not.toBe(grown.project_key);
    expect(other.turns.length).toBeGreaterThan(0);
  });
});

describe("a forced sync of agent sessions", () => {
  it("writes every session's file again: none is kept on the word of a file the rebuild removes", async () => {
    const state = path.join(await makeTempDir(), "session-state");
    for (const id of ["5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c", "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f"]) await fs.cp(path.join(COPILOT_FIXTURES, id), path.join(state, id), { recursive: true });
    const ctx = createCoreContext(await makeTempDir());
    await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: { "copilot-cli": [state] }, demo: false } });
    const before = await rowsOf(ctx.workspaceRoot);
    expect(before).toHaveLength(2);
    const written = new Map(await Promise.all(before.map(async (r) => [r.session_path, await fs.readFile(r.file, "utf8")] as const)));
    for (let run = 0; run < 2; run++) {
      await syncWorkspace(ctx, { force: true });
      const rows = await rowsOf(ctx.workspaceRoot);
      expect(rows.map((r) => r.session_path)).toEqual([...written.keys()]);
      for (const row of rows) expect(await fs.readFile(row.file, "utf8").catch(() => "(no file)"), row.session_path).toBe(written.get(row.session_path));
    }
  });
});

describe("sync of agent sessions: files trusted by size, duplicates by content", () => {
  const A = "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c";
  const B = "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f";

  it("writes a remembered session's file again when it is not the size written (a write a crash cut short)", async () => {
    const state = path.join(await makeTempDir(), "session-state");
    await fs.cp(path.join(COPILOT_FIXTURES, A), path.join(state, A), { recursive: true });
    const ctx = createCoreContext(await makeTempDir());
    await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: { "copilot-cli": [state] }, demo: false } });
    const file = (await rowsOf(ctx.workspaceRoot))[0]!.file;
    const written = await fs.readFile(file, "utf8");
    await fs.writeFile(file, "");
    // Another session appears, so the sync runs; the first one's stamp is unchanged.
    await fs.cp(path.join(COPILOT_FIXTURES, B), path.join(state, B), { recursive: true });
    await syncWorkspace(ctx);
    expect(await fs.readFile(file, "utf8")).toBe(written);
  });

  it("keeps one of identical copies and skips differing ones, also when the first was remembered by an earlier sync", async () => {
    const home = await makeTempDir();
    const one = path.join(home, "one", "session-state");
    const two = path.join(home, "two", "session-state");
    await fs.cp(path.join(COPILOT_FIXTURES, A), path.join(one, A), { recursive: true });
    const ctx = createCoreContext(await makeTempDir());
    await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: { "copilot-cli": [one] }, demo: false } });
    // The same session copied under a second root: its first copy is planned from the memo, hashed from its source.
    await fs.cp(path.join(COPILOT_FIXTURES, A), path.join(two, A), { recursive: true });
    const same = await syncWorkspace(ctx, { sources: { claude: [], codex: [], agents: { "copilot-cli": [one, two] }, demo: false } });
    expect(same.sessions).toBe(1);
    expect(same.skipped).toEqual([{ path: path.join(two, A, "events.jsonl"), reason: `identical duplicate of ${path.join(one, A, "events.jsonl")}` }]);
    // The second copy changes (one more line): it is skipped as a conflict, naming both.
    await fs.appendFile(path.join(two, A, "events.jsonl"), '{"type":"assistant.message","data":{"content":"more"},"id":"e99","timestamp":"2026-07-01T09:30:00.000Z","parentId":null}\n');
    const differ = await syncWorkspace(ctx);
    expect(differ.skipped).toEqual([{ path: path.join(two, A, "events.jsonl"), reason: expect.stringMatching(/^Conflicting source session copilot-cli\/5f0c2a7e.*: .*one.* and .*two.* have different content/) }]);
  });
});
