/**
 * The transcript source roots a CLI command reads (prepare, push): the paths given, else each
 * source's default roots that exist. Apart from prepare-command so `casefile push` loads only this.
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { AppError } from "@/lib/errors";
import { defaultAgentRoots } from "@/lib/sources/agents";
import { claudeCodeFormat } from "@/lib/sources/claude-code/format";
import { codexFormat } from "@/lib/sources/codex/format";
import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";
import { allRoots, type AgentRoots } from "@/lib/workspace/sources";

/** The source flags of prepare and push: `--claude`, `--codex` and each agent's paths. */
export type SourceFlags = { claude?: string[]; codex?: string[]; agents?: AgentRoots };

/** The user's Claude Code projects root, when it exists (lib/sources/claude-code/format `defaultRoots`). */
export function defaultClaudeRoots(): string[] {
  return claudeCodeFormat.defaultRoots(os.homedir(), process.env).filter((root) => existsSync(root));
}

/**
 * The user's Codex rollout folders that exist: `sessions` and `archived_sessions` under
 * `$CODEX_HOME` (default `~/.codex`; lib/sources/codex/format `defaultRoots`).
 */
export function defaultCodexRoots(): string[] {
  return codexFormat.defaultRoots(os.homedir(), process.env).filter((root) => existsSync(root));
}

/**
 * The source roots of a prepare: the explicit `--claude` / `--codex` / `--<agent>` paths when any
 * is given (only those), else every default root that exists ({@link defaultClaudeRoots},
 * {@link defaultCodexRoots}, and each agent's, lib/sources/agents `defaultAgentRoots`).
 * @throws AppError invalid_input when an explicit path does not exist, or when there is no source at all.
 */
export function resolveSourceRoots(flags: SourceFlags): { claudeRoots: string[]; codexRoots: string[]; agentRoots: AgentRoots } {
  const agentFlags = Object.values(flags.agents ?? {}).some((roots) => roots.length > 0);
  const explicit = Boolean(flags.claude?.length || flags.codex?.length || agentFlags);
  const claudeRoots = explicit ? (flags.claude ?? []).map((p) => path.resolve(p)) : defaultClaudeRoots();
  const codexRoots = explicit ? (flags.codex ?? []).map((p) => path.resolve(p)) : defaultCodexRoots();
  const agentRoots: AgentRoots = explicit
    ? Object.fromEntries(Object.entries(flags.agents ?? {}).filter(([, roots]) => roots.length > 0).map(([k, roots]) => [k, roots.map((p) => path.resolve(p))]))
    : defaultAgentRoots(os.homedir(), process.env);
  const all = allRoots({ claude: claudeRoots, codex: codexRoots, agents: agentRoots, demo: false });
  if (all.length === 0) {
    throw new AppError("invalid_input", `no transcript sources: none of ~/.claude/projects, ~/.codex/sessions or another agent's default folder exists and no source PATH was given`, {
      hint: `pass --claude PATH (a projects root, one project directory or one .jsonl file), --codex PATH (a sessions root, archived_sessions or one rollout .jsonl), or ${AGENT_SOURCE_NAMES.map((n) => `--${n} PATH`).join(", ")}`,
    });
  }
  for (const { kind, root } of all) {
    if (!existsSync(root)) throw new AppError("invalid_input", `source ${root} does not exist`, { hint: `pass an existing --${kind} PATH` });
  }
  return { claudeRoots, codexRoots, agentRoots };
}
