/** The transcript sources a workspace syncs from, kept in its configuration. */
import fs from "node:fs/promises";
import path from "node:path";

import { AppError } from "@/lib/errors";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { CONFIG_DIR, configPath } from "@/lib/fs/workspace-layout";
import { AGENT_SOURCE_NAMES, type AgentSourceName } from "@/lib/sources/common/agent-source";
import { checkMachineName, localMachine, MACHINE_NAME } from "@/lib/workspace/machines";

/**
 * The transcript sources a workspace syncs from (issue 12, item 1): absolute Claude Code and
 * Codex roots (each a directory or one `.jsonl` file), the other agents' roots by agent (issue 38;
 * absent when none), the machine of each root that is not the local machine's (issue 39: a team
 * server's mirror of what a machine pushed; absent when none) and whether they are Casefile's
 * generated demo transcripts (a demo workspace is replaced, never mixed, once real sources exist).
 */
export type WorkspaceSources = { claude: string[]; codex: string[]; agents?: AgentRoots; machines?: RootMachines; origins?: RootOrigins; demo: boolean };

/**
 * Where a root is on its machine, by its absolute path here (issue 39: a team server's mirror of
 * a pushed root): a project root a source finds inside the mirror is named by the machine's path
 * ({@link originPath}), as Aider's project (the history file's folder) is on the machine.
 */
export type RootOrigins = Record<string, string>;

/**
 * `p` (a project root a source found under `root`) as it is on the root's machine: inside a root
 * with an origin (or, for a one-file root, its folder), the origin's path with the rest of `p`;
 * anything else unchanged.
 */
export function originPath(origins: RootOrigins | undefined, root: string, p: string | null): string | null {
  const origin = origins?.[path.resolve(root)];
  if (origin === undefined || p === null) return p;
  const sep = origin.includes("\\") && !origin.includes("/") ? "\\" : "/";
  if (p === path.dirname(root) && p !== root) return origin.slice(0, Math.max(origin.lastIndexOf(sep), 1));
  if (p === root) return origin;
  return p.startsWith(root + path.sep) ? origin + sep + p.slice(root.length + 1).split(path.sep).join(sep) : p;
}

/** The machine of a root, by its absolute path (issue 39); a root not named is the local machine's ({@link localMachine}). */
export type RootMachines = Record<string, string>;

/** The machine a recorded root's sessions came from: the one recorded with it, else the local machine (`CASEFILE_MACHINE`, else the host name). */
export function rootMachine(sources: Pick<WorkspaceSources, "machines">, root: string): string {
  return sources.machines?.[path.resolve(root)] ?? localMachine();
}

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
  const machinesValue = v?.machines as Record<string, unknown> | undefined;
  const machinesOk = machinesValue === undefined || (typeof machinesValue === "object" && machinesValue !== null && Object.values(machinesValue).every((m) => typeof m === "string" && MACHINE_NAME.test(m)));
  if (!v || typeof v !== "object" || !strings(v.claude) || !strings(v.codex) || !agentsOk || !machinesOk) {
    throw new AppError("parse_error", `${CONFIG_DIR}/sources.json is not a sources file`, { path: `${CONFIG_DIR}/sources.json`, hint: "fix it, or record the sources again with casefile sources add" });
  }
  const machines = machinesValue && Object.keys(machinesValue).length > 0 ? { machines: machinesValue as RootMachines } : {};
  const originsValue = v?.origins as Record<string, unknown> | undefined;
  const origins = originsValue && typeof originsValue === "object" && Object.values(originsValue).every((o) => typeof o === "string") && Object.keys(originsValue).length > 0 ? { origins: originsValue as RootOrigins } : {};
  return { claude: v.claude, codex: v.codex, ...(agentsValue ? { agents: agentsValue as AgentRoots } : {}), ...machines, ...origins, demo: v.demo === true };
}

/**
 * Records the sources (absolute, deduplicated, in the given order) and the machines of those
 * roots that have one, atomically.
 * @throws AppError invalid_input when a root's machine is not a machine name.
 */
export async function writeSources(workspaceRoot: string, sources: WorkspaceSources): Promise<void> {
  const unique = (list: string[]) => [...new Set(list.map((p) => path.resolve(p)))];
  const agents = Object.fromEntries(AGENT_SOURCE_NAMES.filter((k) => (sources.agents?.[k]?.length ?? 0) > 0).map((k) => [k, unique(sources.agents![k]!)]));
  const roots = { claude: unique(sources.claude), codex: unique(sources.codex), ...(Object.keys(agents).length > 0 ? { agents } : {}) };
  const named = new Map(Object.entries(sources.machines ?? {}).map(([root, machine]) => [path.resolve(root), checkMachineName(machine)]));
  const machines = Object.fromEntries(allRoots({ ...roots, demo: false }).flatMap(({ root }) => (named.has(root) ? [[root, named.get(root)!]] : [])));
  const givenOrigins = new Map(Object.entries(sources.origins ?? {}).map(([root, origin]) => [path.resolve(root), origin]));
  const origins = Object.fromEntries(allRoots({ ...roots, demo: false }).flatMap(({ root }) => (givenOrigins.has(root) ? [[root, givenOrigins.get(root)!]] : [])));
  const value = { ...roots, ...(Object.keys(machines).length > 0 ? { machines } : {}), ...(Object.keys(origins).length > 0 ? { origins } : {}), demo: sources.demo };
  await fs.mkdir(path.dirname(sourcesFile(workspaceRoot)), { recursive: true });
  await writeFileAtomic(sourcesFile(workspaceRoot), toPrettyJson(value));
}

/**
 * `casefile sources add|remove`: adds a root of one kind (recording real sources turns a demo
 * workspace's `demo` flag off, so the next sync replaces the demo) or removes a root from every
 * kind. An added root's `machine` (issue 39: a team server's mirror of a machine's root) is
 * recorded with it, and its `origin` (its path on that machine, {@link RootOrigins}); without a
 * machine it is the local machine's. Returns the sources now recorded.
 * @throws AppError invalid_input when an added path does not exist, its machine is not a machine name, or a removed root is not recorded.
 */
export async function editSources(workspaceRoot: string, edit: { add?: { kind: SourceKind; path: string; machine?: string; origin?: string }; remove?: string }): Promise<WorkspaceSources> {
  const current = (await readSources(workspaceRoot)) ?? { claude: [], codex: [], demo: false };
  let next: WorkspaceSources = current;
  if (edit.add) {
    const abs = path.resolve(edit.add.path);
    if (!(await fs.stat(abs).then(() => true, () => false))) throw new AppError("invalid_input", `source ${abs} does not exist`, { hint: "pass an existing directory or file" });
    const base: WorkspaceSources = current.demo ? { claude: [], codex: [], demo: false } : current;
    next = withRoots(base, edit.add.kind, [...rootsOf(base, edit.add.kind), abs]);
    const machines: RootMachines = { ...next.machines };
    if (edit.add.machine === undefined) delete machines[abs];
    else machines[abs] = checkMachineName(edit.add.machine);
    const origins: RootOrigins = { ...next.origins };
    if (edit.add.origin === undefined) delete origins[abs];
    else origins[abs] = edit.add.origin;
    next = { ...next, machines, origins };
  }
  if (edit.remove !== undefined) {
    const abs = path.resolve(edit.remove);
    const kinds = allRoots(next).filter((r) => r.root === abs).map((r) => r.kind);
    if (kinds.length === 0) throw new AppError("invalid_input", `source ${abs} is not recorded`, { hint: "run casefile sources to list the recorded sources" });
    for (const kind of kinds) next = withRoots(next, kind, rootsOf(next, kind).filter((p) => p !== abs));
  }
  await writeSources(workspaceRoot, next);
  return (await readSources(workspaceRoot))!;
}

/**
 * The user's price override file (issue 28), configuration beside `sources.json`:
 * `<workspace>/.casefile-config/pricing.json`. Read by lib/usage/pricing; Casefile never writes it.
 */
export function pricingOverrideFile(workspaceRoot: string): string {
  return configPath(workspaceRoot, "pricing.json");
}
