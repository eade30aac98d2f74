/** Test workspace prepared from a real corpus folder, for the ledger tests. */
import fs from "node:fs/promises";
import path from "node:path";

import { createCoreContext } from "@/lib/context";
import { makeTempDir, SHARED_DIR } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";

/** A real corpus folder with main and subagent transcripts (marot__spotter, ~3 MB). */
export const CORPUS_SOURCE = path.join(SHARED_DIR, "corpus", "claude-code", "misc", "marot__spotter");

let template: Promise<string> | null = null;

/**
 * A fresh copy of a workspace prepared from the real corpus (prepared once per test file, then
 * copied). Requires ../shared: callers skip with SKIP_SHARED_MESSAGE when it is absent.
 */
export async function corpusWorkspace(): Promise<string> {
  template ??= (async () => {
    const root = await makeTempDir("casefile-ledger-tpl-");
    await prepareWorkspace(createCoreContext(root, { now: () => new Date("2026-11-23T10:00:00Z") }), { claudeRoots: [CORPUS_SOURCE] });
    return root;
  })();
  const dir = await makeTempDir("casefile-ledger-ws-");
  await fs.cp(await template, dir, { recursive: true });
  return dir;
}

/** The project key and the sessions (ref, turns) of a prepared corpus workspace. */
export async function corpusSessions(root: string): Promise<{ projectKey: string; sessions: { ref: string; turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[] }[] }> {
  const ws = await loadWorkspace(createCoreContext(root));
  const project = ws.projects[0]!;
  return { projectKey: project.projectKey, sessions: project.rows.map((r) => ({ ref: r.session_ref, turns: r.turns })) };
}
