/** Test fixture: the shared agents home (Gemini CLI, Copilot CLI, OpenCode, Aider sessions) prepared into a temp workspace. */
import path from "node:path";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { defaultAgentRoots } from "@/lib/sources/agents";
import { makeTempDir, SHARED_DIR } from "@/lib/testing/shared";
import { prepareWorkspace, type PrepareSummary } from "@/lib/workspace/prepare";

/** `corpus/agents-home` of ../shared: a home folder holding each agent's sessions where it writes them. */
export const AGENTS_HOME = path.join(SHARED_DIR, "corpus", "agents-home");

/**
 * A fresh temp workspace prepared from {@link AGENTS_HOME} (each agent's default roots in that
 * home, no environment overrides; no Claude Code or Codex source), with a one-shot context on it.
 * Needs ../shared (`HAS_SHARED`).
 */
export async function prepareAgentsWorkspace(): Promise<{ root: string; ctx: CoreContext; summary: PrepareSummary }> {
  const root = await makeTempDir("casefile-agents-ws-");
  const ctx = createCoreContext(root, { oneShot: true });
  const summary = await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [], agentRoots: defaultAgentRoots(AGENTS_HOME, { NODE_ENV: "test" }) });
  return { root, ctx, summary };
}
