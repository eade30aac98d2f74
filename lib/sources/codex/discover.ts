/** Codex rollout files found under the source roots. */
import fs from "node:fs/promises";
import path from "node:path";

import { expandHome } from "@/lib/sources/common/project-key";
import { listFilesRecursive, sortPosixPaths } from "@/lib/sources/common/walk-files";

/** One Codex rollout file to analyse. */
export type CodexCandidate = {
  /** Absolute path of the rollout (`YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl` or any other `.jsonl`). */
  path: string;
  /** Filename stem: the `source_session_id` fallback when no `session_meta` has an id (§1.4). */
  fileStem: string;
};

/** A root or file that discovery did not turn into a candidate. */
export type CodexSkipped = { path: string; reason: string };

/** Result of {@link discoverCodexSessions}: candidates in POSIX path order, then skipped roots. */
export type CodexDiscovery = { candidates: CodexCandidate[]; skipped: CodexSkipped[] };

/** The fixed `reason` strings of {@link CodexSkipped}. */
export const CODEX_SKIP_REASONS = {
  missingRoot: "source root does not exist",
  notJsonl: "not a .jsonl file",
} as const;

/** Rollout folders inside a Codex home (`$CODEX_HOME`, default `~/.codex`). */
export const CODEX_HOME_SESSION_DIRS = ["sessions", "archived_sessions"] as const;

/**
 * Discovers Codex rollout files under `root` (contract §1.1; source-formats §1.1), `~` expanded:
 * - a single `.jsonl` file is the only candidate (any other file is skipped);
 * - a Codex home (a directory holding `sessions/` or `archived_sessions/`, e.g. `~/.codex`)
 *   contributes the `.jsonl` files of those two folders only, so side files such as
 *   `history.jsonl` are never mistaken for sessions;
 * - any other directory (a `sessions` root with `YYYY/MM/DD/rollout-*.jsonl`, the flat
 *   `archived_sessions`, a fixture folder) contributes every `**\/*.jsonl`.
 * Candidates are sorted by POSIX path, like prompt-diary's `sorted(rglob("*.jsonl"))`. Files are
 * not opened here: exclusion (subagents, report sessions) needs the `session_meta`, which
 * `analyzeCodexTranscript` reads. A missing root yields one skipped entry. Never throws.
 */
export async function discoverCodexSessions(root: string): Promise<CodexDiscovery> {
  const rootPath = path.resolve(expandHome(root));
  const stat = await fs.stat(rootPath).catch(() => null);
  if (stat === null) return { candidates: [], skipped: [{ path: rootPath, reason: CODEX_SKIP_REASONS.missingRoot }] };
  if (!stat.isDirectory()) {
    return rootPath.endsWith(".jsonl")
      ? { candidates: [toCandidate(rootPath)], skipped: [] }
      : { candidates: [], skipped: [{ path: rootPath, reason: CODEX_SKIP_REASONS.notJsonl }] };
  }
  const homeDirs = await codexHomeSessionDirs(rootPath);
  const dirs = homeDirs.length > 0 ? homeDirs : [rootPath];
  const files: string[] = [];
  for (const dir of dirs) files.push(...(await listFilesRecursive(dir)).filter((f) => f.endsWith(".jsonl")));
  return { candidates: sortPosixPaths(files).map(toCandidate), skipped: [] };
}

/**
 * The existing rollout folders of a Codex home (`sessions`, then `archived_sessions`), or `[]`
 * when `dir` has neither.
 */
export async function codexHomeSessionDirs(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of CODEX_HOME_SESSION_DIRS) {
    const full = path.join(dir, name);
    if ((await fs.stat(full).catch(() => null))?.isDirectory()) found.push(full);
  }
  return found;
}

function toCandidate(file: string): CodexCandidate {
  return { path: file, fileStem: path.basename(file, ".jsonl") };
}
