/** Claude Code session files found under a source root, with their side files. */
import fs from "node:fs/promises";
import path from "node:path";
import { probeClaudeTranscript, type ClaudeProbe } from "@/lib/sources/claude-code/probe";
import { expandHome } from "@/lib/sources/common/project-key";
import { listFilesRecursive, sortPosixPaths } from "@/lib/sources/common/walk-files";

/** One main (root) Claude Code session file and the side files that belong to it. */
export type ClaudeCandidate = {
  /** Absolute path of the main transcript. */
  path: string;
  /** `source_session_id`: always the filename stem (contract §1.4), UUID or not. */
  sessionId: string;
  /** Absolute paths of its subagent transcripts (era 2 `<id>/subagents/*.jsonl`, era 1 sidechain siblings), POSIX-sorted. */
  subagents: string[];
  /** Absolute paths of persisted tool outputs under `<id>/tool-results/`, POSIX-sorted. */
  toolResults: string[];
};

/** A file that discovery looked at but did not turn into a candidate or an attachment. */
export type ClaudeSkipped = { path: string; reason: string };

/** Result of {@link discoverClaudeSessions}. */
export type ClaudeDiscovery = { candidates: ClaudeCandidate[]; skipped: ClaudeSkipped[] };

/** The fixed `reason` strings of {@link ClaudeSkipped}. `unreadable` is followed by `: <errno code>`. */
export const CLAUDE_SKIP_REASONS = {
  sidechain: "subagent transcript (isSidechain)",
  orphanSubagent: "subagent transcript without a parent session file",
  unreadable: "unreadable transcript",
  missingRoot: "source root does not exist",
  notJsonl: "not a .jsonl file",
} as const;

const SUBAGENTS_DIR = "subagents";
const TOOL_RESULTS_DIR = "tool-results";

/**
 * Discovers Claude Code main sessions under `root` (contract §1.1, §1.8; seed 003 eras).
 *
 * `root` may be a `projects` root, one project directory or one `.jsonl` file (`~` expanded).
 * Files are walked recursively and POSIX-sorted. Rules:
 * - a path with a `subagents` component (anywhere in the absolute path, as prompt-diary checks
 *   `Path.parts`) is never a candidate and never opened; era 2
 *   `<dir>/<id>/subagents/*.jsonl` attaches to `<dir>/<id>.jsonl`, else it is skipped;
 * - files under `<dir>/<id>/tool-results/` attach to `<dir>/<id>.jsonl` when that file exists;
 * - every other `.jsonl` is probed (first records only). A sidechain file (era 1 flat
 *   `agent-*.jsonl`) is excluded and attaches to the sibling whose stem equals its `sessionId`,
 *   else to the only sibling candidate whose own `sessionId` field matches, else it is skipped;
 * - all remaining `.jsonl` files are candidates, with `sessionId` = filename stem.
 * A missing root yields no candidates and one skipped entry. Never throws for unreadable files.
 * `probe` reads a file's head; the incremental sync passes a remembering one, so an unchanged file is not re-read.
 */
export async function discoverClaudeSessions(root: string, probe: (file: string) => Promise<ClaudeProbe> = probeClaudeTranscript): Promise<ClaudeDiscovery> {
  const rootPath = path.resolve(expandHome(root));
  const skipped: ClaudeSkipped[] = [];
  const stat = await fs.stat(rootPath).catch(() => null);
  if (stat === null) return { candidates: [], skipped: [{ path: rootPath, reason: CLAUDE_SKIP_REASONS.missingRoot }] };
  if (!stat.isDirectory() && !rootPath.endsWith(".jsonl")) {
    return { candidates: [], skipped: [{ path: rootPath, reason: CLAUDE_SKIP_REASONS.notJsonl }] };
  }
  const files = stat.isDirectory() ? await listFilesRecursive(rootPath) : [rootPath];
  const walked = new Set(files);

  const subagentFiles: string[] = [];
  const toolResultFiles: { file: string; parent: string }[] = [];
  const probed = new Map<string, ClaudeProbe>();
  for (const file of files) {
    const parts = file.split(path.sep);
    if (parts.includes(SUBAGENTS_DIR)) {
      if (file.endsWith(".jsonl")) subagentFiles.push(file);
      continue;
    }
    const toolParent = sideDirParent(parts, TOOL_RESULTS_DIR);
    if (toolParent !== null && walked.has(toolParent)) {
      toolResultFiles.push({ file, parent: toolParent });
      continue;
    }
    if (!file.endsWith(".jsonl")) continue;
    try {
      probed.set(file, await probe(file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "error";
      skipped.push({ path: file, reason: `${CLAUDE_SKIP_REASONS.unreadable}: ${code}` });
    }
  }

  const candidates = new Map<string, ClaudeCandidate>();
  for (const [file, probe] of probed) {
    if (!probe.isSidechain) {
      candidates.set(file, { path: file, sessionId: path.basename(file, ".jsonl"), subagents: [], toolResults: [] });
    }
  }
  for (const [file, probe] of probed) {
    if (!probe.isSidechain) continue;
    const parent = sidechainParent(file, probe.sessionId, candidates, probed);
    if (parent) parent.subagents.push(file);
    else skipped.push({ path: file, reason: CLAUDE_SKIP_REASONS.sidechain });
  }
  for (const file of subagentFiles) {
    const parentPath = sideDirParent(file.split(path.sep), SUBAGENTS_DIR);
    const parent = parentPath === null ? undefined : candidates.get(parentPath);
    if (parent) parent.subagents.push(file);
    else skipped.push({ path: file, reason: CLAUDE_SKIP_REASONS.orphanSubagent });
  }
  for (const { file, parent } of toolResultFiles) candidates.get(parent)?.toolResults.push(file);

  const list = [...candidates.values()].map((c) => ({
    ...c,
    subagents: sortPosixPaths(c.subagents),
    toolResults: sortPosixPaths(c.toolResults),
  }));
  return { candidates: list, skipped: sortSkipped(skipped) };
}

/**
 * For `<dir>/<id>/<sideDir>/…`, the main file `<dir>/<id>.jsonl` (using the last `sideDir`
 * component); null when the path has no such component or it sits at the top.
 */
function sideDirParent(parts: readonly string[], sideDir: string): string | null {
  const index = parts.lastIndexOf(sideDir);
  if (index < 2) return null;
  return [...parts.slice(0, index - 1), `${parts[index - 1]}.jsonl`].join(path.sep);
}

function sidechainParent(
  file: string,
  sessionId: string | null,
  candidates: ReadonlyMap<string, ClaudeCandidate>,
  probed: ReadonlyMap<string, ClaudeProbe>,
): ClaudeCandidate | undefined {
  if (sessionId === null) return undefined;
  const dir = path.dirname(file);
  const byStem = candidates.get(path.join(dir, `${sessionId}.jsonl`));
  if (byStem) return byStem;
  // Renamed main files (test fixtures, exports) still carry the parent's sessionId inside.
  const bySessionField = [...candidates.values()].filter(
    (c) => path.dirname(c.path) === dir && probed.get(c.path)?.sessionId === sessionId,
  );
  return bySessionField.length === 1 ? bySessionField[0] : undefined;
}

function sortSkipped(skipped: ClaudeSkipped[]): ClaudeSkipped[] {
  const order = new Map(sortPosixPaths(skipped.map((s) => s.path)).map((p, i) => [p, i]));
  return [...skipped].sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));
}
