/** The transcript sources a workspace syncs from, kept in its configuration. */
import fs from "node:fs/promises";
import path from "node:path";

import { AppError } from "@/lib/errors";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { CONFIG_DIR, configPath } from "@/lib/fs/workspace-layout";

/**
 * The transcript sources a workspace syncs from (issue 12, item 1): absolute Claude Code and
 * Codex roots (each a directory or one `.jsonl` file), and whether they are Casefile's generated
 * demo transcripts (a demo workspace is replaced, never mixed, once real sources exist).
 */
export type WorkspaceSources = { claude: string[]; codex: string[]; demo: boolean };

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
  if (!v || typeof v !== "object" || !strings(v.claude) || !strings(v.codex)) {
    throw new AppError("parse_error", `${CONFIG_DIR}/sources.json is not a sources file`, { path: `${CONFIG_DIR}/sources.json`, hint: "fix it, or record the sources again with casefile sources add" });
  }
  return { claude: v.claude, codex: v.codex, demo: v.demo === true };
}

/** Records the sources (absolute, deduplicated, in the given order), atomically. */
export async function writeSources(workspaceRoot: string, sources: WorkspaceSources): Promise<void> {
  const unique = (list: string[]) => [...new Set(list.map((p) => path.resolve(p)))];
  const value = { claude: unique(sources.claude), codex: unique(sources.codex), demo: sources.demo };
  await fs.mkdir(path.dirname(sourcesFile(workspaceRoot)), { recursive: true });
  await writeFileAtomic(sourcesFile(workspaceRoot), toPrettyJson(value));
}

/**
 * `casefile sources add|remove`: adds a root of one kind (recording real sources turns a demo
 * workspace's `demo` flag off, so the next sync replaces the demo) or removes a root from both
 * kinds. Returns the sources now recorded.
 * @throws AppError invalid_input when an added path does not exist or a removed one is not recorded.
 */
export async function editSources(workspaceRoot: string, edit: { add?: { kind: "claude" | "codex"; path: string }; remove?: string }): Promise<WorkspaceSources> {
  const current = (await readSources(workspaceRoot)) ?? { claude: [], codex: [], demo: false };
  let next: WorkspaceSources = current;
  if (edit.add) {
    const abs = path.resolve(edit.add.path);
    if (!(await fs.stat(abs).then(() => true, () => false))) throw new AppError("invalid_input", `source ${abs} does not exist`, { hint: "pass an existing directory or .jsonl file" });
    const base = current.demo ? { claude: [], codex: [], demo: false } : current;
    next = { ...base, [edit.add.kind]: [...base[edit.add.kind], abs] };
  }
  if (edit.remove !== undefined) {
    const abs = path.resolve(edit.remove);
    if (!next.claude.includes(abs) && !next.codex.includes(abs)) throw new AppError("invalid_input", `source ${abs} is not recorded`, { hint: "run casefile sources to list the recorded sources" });
    next = { ...next, claude: next.claude.filter((p) => p !== abs), codex: next.codex.filter((p) => p !== abs) };
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
