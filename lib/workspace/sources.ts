/** The transcript sources a workspace syncs from, kept in its configuration. */
import fs from "node:fs/promises";
import path from "node:path";

import { AppError } from "@/lib/errors";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { CONFIG_DIR, configPath } from "@/lib/fs/workspace-layout";
import { AGENT_SOURCE_NAMES, type AgentSourceName } from "@/lib/sources/common/agent-source";

/**
 * The transcript sources a workspace syncs from (issue 12, item 1): absolute Claude Code and
 * Codex roots (each a directory or one `.jsonl` file), the other agents' roots by agent (issue 38;
 * absent when none), and whether they are Casefile's generated demo transcripts (a demo
 * workspace is replaced, never mixed, once real sources exist).
 */
export type WorkspaceSources = { claude: string[]; codex: string[]; agents?: AgentRoots; demo: boolean };

/** Roots of the agents behind the source contract, by agent name. */
export type AgentRoots = Partial<Record<AgentSourceName, string[]>>;

/** The kinds of root `casefile sources add` takes: `claude`, `codex` or an agent's name. */
export type SourceKind = "claude" | "codex" | AgentSourceName;

/** Every root of `sources`, of every kind, with its kind. */
export function allRoots(sources: WorkspaceSources): { kind: SourceKind; root: string }[] {
  return [
    ...sources.claude.map((root) => ({ kind: "claude" as const, root })),
    ...sources.codex.map((root) => ({ kind: "codex" as const, root })),
    ...AGENT_SOURCE_NAMES.flatMap((kind) => (sources.agents?.[kind] ?? []).map((root) => ({ kind, root }))),
  ];
}

function rootsOf(sources: WorkspaceSources, kind: SourceKind): string[] {
  return kind === "claude" || kind === "codex" ? sources[kind] : (sources.agents?.[kind] ?? []);
}

function withRoots(sources: WorkspaceSources, kind: SourceKind, roots: string[]): WorkspaceSources {
  if (kind === "claude" || kind === "codex") return { ...sources, [kind]: roots };
  const agents: AgentRoots = { ...sources.agents, [kind]: roots };
  if (roots.length === 0) delete agents[kind];
  return { ...sources, agents };
}

/** The one file this module owns: `<workspace>/.casefile-config/sources.json` (moved there from `.casefile/` on first use). */
export function sourcesFile(workspaceRoot: string): string {
  return configPath(workspaceRoot, "sources.json");
}

/**
 * The recorded sources, or null when the workspace records none (a workspace prepared by
 * prompt-diary, or by a Casefile older than the sync).
 * @throws AppError parse_error when the file exists but is not a sources object.
 */
export async function readSources(workspaceRoot: string): Promise<WorkspaceSources | null> {
  const file = sourcesFile(workspaceRoot);
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = null;
  }
  const v = value as Partial<WorkspaceSources> | null;
  const strings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
  const agentsValue = v?.agents as Record<string, unknown> | undefined;
  const agentsOk = agentsValue === undefined || (typeof agentsValue === "object" && agentsValue !== null && Object.entries(agentsValue).every(([k, roots]) => (AGENT_SOURCE_NAMES as readonly string[]).includes(k) && strings(roots)));
  if (!v || typeof v !== "object" || !strings(v.claude) || !strings(v.codex) || !agentsOk) {
    throw new AppError("parse_error", `${CONFIG_DIR}/sources.json is not a sources file`, { path: `${CONFIG_DIR}/sources.json`, hint: "fix it, or record the sources again with casefile sources add" });
  }
  return { claude: v.claude, codex: v.codex, ...(agentsValue ? { agents: agentsValue as AgentRoots } : {}), demo: v.demo === true };
}

/** Records the sources (absolute, deduplicated, in the given order), atomically. */
export async function writeSources(workspaceRoot: string, sources: WorkspaceSources): Promise<void> {
  const unique = (list: string[]) => [...new Set(list.map((p) => path.resolve(p)))];
  const agents = Object.fromEntries(AGENT_SOURCE_NAMES.filter((k) => (sources.agents?.[k]?.length ?? 0) > 0).map((k) => [k, unique(sources.agents![k]!)]));
  const value = { claude: unique(sources.claude), codex: unique(sources.codex), ...(Object.keys(agents).length > 0 ? { agents } : {}), demo: sources.demo };
  await fs.mkdir(path.dirname(sourcesFile(workspaceRoot)), { recursive: true });
  await writeFileAtomic(sourcesFile(workspaceRoot), toPrettyJson(value));
}

/**
 * `casefile sources add|remove`: adds a root of one kind (recording real sources turns a demo
 * workspace's `demo` flag off, so the next sync replaces the demo) or removes a root from every
 * kind. Returns the sources now recorded.
 * @throws AppError invalid_input when an added path does not exist or a removed one is not recorded.
 */
export async function editSources(workspaceRoot: string, edit: { add?: { kind: SourceKind; path: string }; remove?: string }): Promise<WorkspaceSources> {
  const current = (await readSources(workspaceRoot)) ?? { claude: [], codex: [], demo: false };
  let next: WorkspaceSources = current;
  if (edit.add) {
    const abs = path.resolve(edit.add.path);
    if (!(await fs.stat(abs).then(() => true, () => false))) throw new AppError("invalid_input", `source ${abs} does not exist`, { hint: "pass an existing directory or file" });
    const base: WorkspaceSources = current.demo ? { claude: [], codex: [], demo: false } : current;
    next = withRoots(base, edit.add.kind, [...rootsOf(base, edit.add.kind), abs]);
  }
  if (edit.remove !== undefined) {
    const abs = path.resolve(edit.remove);
    const kinds = allRoots(next).filter((r) => r.root === abs).map((r) => r.kind);
    if (kinds.length === 0) throw new AppError("invalid_input", `source ${abs} is not recorded`, { hint: "run casefile sources to list the recorded sources" });
    for (const kind of kinds) next = withRoots(next, kind, rootsOf(next, kind).filter((p) => p !== abs));
  }
  await writeSources(workspaceRoot, next);
  return next;
}

/**
 * The user's price override file (issue 28), configuration beside `sources.json`:
 * `<workspace>/.casefile-config/pricing.json`. Read by lib/usage/pricing; Casefile never writes it.
 */
export function pricingOverrideFile(workspaceRoot: string): string {
  return configPath(workspaceRoot, "pricing.json");
}
