/** Where a project's sessions ran: working directory and git branch. */
import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { fileStamp } from "@/lib/fs/file-stamp";
import { readLineRange } from "@/lib/jsonl/line-index";
import type { LoadedProject } from "@/lib/workspace/load";
import { getWorkspaceLineIndex, resolveSession } from "@/lib/workspace/sessions";

/** Where a project's sessions ran: the recorded working directory and git branch, null when unknown. */
export type ProjectOrigin = { cwd: string | null; git_branch: string | null };

/** How many lines from the top of a session are probed for `cwd` and the branch. */
const PROBE_LINES = 32;
/** Origins by project folder, stamped by the latest session's path, size and mtime (~200 bytes each). */
const cache = stampedCache<ProjectOrigin>("workspace:project-origin", 1 << 20);

/**
 * The working directory and git branch recorded in the project's latest session (the highest
 * session_ref), so two projects with the same label can be told apart (issue 12, item 3).
 * `project.json` holds no paths (contract §1.3), so they come from the transcript itself: Claude
 * Code records `cwd` and `gitBranch` on each line; Codex `session_meta` / `turn_context` carry
 * `payload.cwd` and `payload.git.branch`. Reads at most 32 lines through the line index, cached
 * per session file size and mtime.
 * Never throws: an unreadable session gives `{cwd: null, git_branch: null}`.
 */
export async function getProjectOrigin(ctx: CoreContext, project: LoadedProject): Promise<ProjectOrigin> {
  const none: ProjectOrigin = { cwd: null, git_branch: null };
  const latest = project.rows.at(-1);
  if (!latest) return none;
  try {
    const resolved = await resolveSession(ctx, project.projectKey, latest.session_ref);
    if (!resolved.ok) return none;
    const index = await getWorkspaceLineIndex(ctx, resolved.session.filePath);
    const stamp = `${resolved.session.filePath}:${fileStamp(index)}`;
    const hit = cache.get(project.dir, stamp);
    if (hit) return hit;
    const lines = index.lineCount === 0 ? [] : await readLineRange(resolved.session.filePath, index, 1, Math.min(PROBE_LINES, index.lineCount));
    const origin = originOf(lines.map((l) => l.text));
    cache.set(project.dir, stamp, origin, 2 * (stamp.length + project.dir.length + (origin.cwd?.length ?? 0) + (origin.git_branch?.length ?? 0)) + 64);
    return origin;
  } catch {
    return none;
  }
}

/** The first `cwd` and git branch found in transcript lines (Claude Code or Codex shapes). */
export function originOf(texts: string[]): ProjectOrigin {
  let cwd: string | null = null;
  let branch: string | null = null;
  for (const text of texts) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!isObject(value)) continue;
    const payload = isObject(value.payload) ? value.payload : {};
    const git = isObject(payload.git) ? payload.git : isObject(value.git) ? value.git : {};
    cwd ??= str(value.cwd) ?? str(payload.cwd);
    branch ??= str(value.gitBranch) ?? str(git.branch);
    if (cwd && branch) break;
  }
  return { cwd, git_branch: branch };
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
