/** The agents read through the source contract (issue 38), by name: the one place above their folders that names them. */
import { existsSync } from "node:fs";

import { aiderSource } from "@/lib/sources/aider/source";
import type { AgentSource, AgentSourceName } from "@/lib/sources/common/agent-source";
import { copilotSource } from "@/lib/sources/copilot-cli/source";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { opencodeSource } from "@/lib/sources/opencode/source";

/** Every agent behind the contract, in the order pages list them. */
export const AGENT_SOURCES: readonly AgentSource[] = [geminiSource, copilotSource, opencodeSource, aiderSource];

/** The agent named `name` (an index row's `source`), or null for Claude Code, Codex and anything unknown. */
export function agentSource(name: string): AgentSource | null {
  return AGENT_SOURCES.find((s) => s.name === name) ?? null;
}

/** Each agent's default roots that exist on this machine (`home`, `env`: the user's), by agent; agents with none are left out. */
export function defaultAgentRoots(home: string, env: NodeJS.ProcessEnv): Partial<Record<AgentSourceName, string[]>> {
  const out: Partial<Record<AgentSourceName, string[]>> = {};
  for (const source of AGENT_SOURCES) {
    const roots = source.defaultRoots(home, env).filter((root) => existsSync(root));
    if (roots.length > 0) out[source.name] = roots;
  }
  return out;
}
