/** A session resolved from `(project_key, session_ref)` to its files, never from a path. */
import fs from "node:fs/promises";
import path from "node:path";

import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { resolveInside } from "@/lib/fs/paths";
import { listDir, readDirNames } from "@/lib/fs/list-dir";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { getLineIndex, type LineIndex } from "@/lib/jsonl/line-index";
import type { LineFactsStore } from "@/lib/sources/agent-transcripts";
import { findProject, loadWorkspace, type LoadedProject } from "@/lib/workspace/load";
import type { IndexRow, SubagentSummary } from "@/lib/workspace/schema";

export type ResolvedSession = {
  project: LoadedProject;
  row: IndexRow;
  /** Absolute, realpath-checked path of the copied session file. */
  filePath: string;
};

/** The structured `{field|path, message, hint}` lookup failures shared by the tools (seed 000). */
export type LookupFailure = { field: "project_key" | "session_ref"; message: string; hint: string };

/**
 * Resolves `(project_key, session_ref)` through `sessions.index.jsonl`, never through a path
 * (seed 000, "Workspace Resolution"). Returns a failure value with the seed's messages for
 * an unknown project, an unknown session, or a missing session file.
 * @throws AppError parse_error from the workspace loader (contract §1.10 hard errors).
 */
export async function resolveSession(
  ctx: CoreContext,
  projectKey: string,
  sessionRef: string,
): Promise<{ ok: true; session: ResolvedSession } | { ok: false; failure: LookupFailure }> {
  const ws = await loadWorkspace(ctx);
  const project = findProject(ws, projectKey);
  if (!project) {
    return { ok: false, failure: { field: "project_key", message: `unknown project_key '${projectKey}'`, hint: "use the project_key from the prepared workspace" } };
  }
  const row = project.rows.find((r) => r.session_ref === sessionRef);
  const broken = row ? undefined : project.brokenRows.find((b) => b.session_ref === sessionRef);
  if (broken) {
    return { ok: false, failure: { field: "session_ref", message: `session_ref '${sessionRef}' has a malformed index row: ${broken.message}`, hint: "fix the row, or prepare the workspace again" } };
  }
  if (!row) {
    return {
      ok: false,
      failure: { field: "session_ref", message: `unknown session_ref '${sessionRef}' for project '${projectKey}'`, hint: "use a session_ref listed in sessions.index.jsonl" },
    };
  }
  const missing: LookupFailure = {
    field: "session_ref",
    message: `session file for session_ref '${sessionRef}' is missing from the prepared workspace`,
    hint: "ensure the prepared workspace still contains the copied session file",
  };
  let filePath: string;
  try {
    filePath = await resolveInside(project.dir, row.session_path);
  } catch (error) {
    ctx.trace?.policy("path.containment", "deny", `${row.session_path}: ${(error as Error).message}`);
    return { ok: false, failure: missing };
  }
  // Contained: a missing file is then a missing file, not a containment refusal.
  ctx.trace?.policy("path.containment", "allow", `projects/${projectKey}/${row.session_path}`);
  const st = await fs.stat(filePath).catch(() => null);
  if (!st?.isFile()) return { ok: false, failure: missing };
  return { ok: true, session: { project, row, filePath } };
}

/**
 * Like resolveSession, but throws: for dashboard queries that map failures to 404.
 * @throws AppError not_found | parse_error
 */
export async function getSession(ctx: CoreContext, projectKey: string, sessionRef: string): Promise<ResolvedSession> {
  const resolved = await resolveSession(ctx, projectKey, sessionRef);
  if (!resolved.ok) throw new AppError("not_found", resolved.failure.message, { hint: resolved.failure.hint });
  return resolved.session;
}

/** The persisted line index of a workspace file (cached under `.casefile/index`; a corrupt one is set aside with a warning through `ctx.log` and built again). */
export function getWorkspaceLineIndex(ctx: CoreContext, filePath: string): Promise<LineIndex> {
  return getLineIndex(filePath, workspaceIndexDir(ctx), ctx.log);
}

/** `<workspace>/.casefile/index`: line indexes and, beside them, persisted compact records. */
export function workspaceIndexDir(ctx: CoreContext): string {
  return derivedPath(ctx.workspaceRoot, "index");
}

/** Where an agent session's line facts are kept and found: beside its line index (lib/sources/agent-transcripts `readAgentLines`). */
export function workspaceLineFacts(ctx: CoreContext): LineFactsStore {
  return { cacheDir: workspaceIndexDir(ctx), log: ctx.log };
}

/** Directory holding a session's attached subagent transcripts: `<dir>/<stem>/subagents` (seed 003 era 2 layout). */
export function subagentsDir(session: ResolvedSession): string {
  return path.join(path.dirname(session.filePath), path.basename(session.filePath, ".jsonl"), "subagents");
}

/** Sub-folder of a session's side folder holding its paired chat exports (seed 003 Q2). */
export const EXPORTS_SUBDIR = "exports";

/** A session's side folder `<dir>/<stem>/` (subagents, tool-results, exports). */
export function sessionSideDir(session: ResolvedSession): string {
  return path.join(path.dirname(session.filePath), path.basename(session.filePath, ".jsonl"));
}

/** Lists the regular files of one sub-folder of a session's side folder, sorted; null when the folder is absent. */
export async function listSideFiles(session: ResolvedSession, subdir: "tool-results" | typeof EXPORTS_SUBDIR): Promise<string[] | null> {
  return readDirNames(path.join(sessionSideDir(session), subdir), { type: "file" });
}

/** Lists the subagent transcripts copied beside a session, sorted by file name. */
export async function listSubagents(session: ResolvedSession): Promise<SubagentSummary[]> {
  const dir = subagentsDir(session);
  const names = await listDir(dir, { filter: (n) => n.endsWith(".jsonl") });
  const out: SubagentSummary[] = [];
  for (const name of names) {
    const st = await fs.stat(path.join(dir, name));
    if (st.isFile()) out.push({ agent_id: name.slice(0, -".jsonl".length), file_name: name, size_bytes: st.size });
  }
  return out;
}

/**
 * Resolves one subagent transcript of a session by its agent id (file stem).
 * @throws AppError not_found | invalid_input (an id that is not a plain file stem)
 */
export async function resolveSubagentFile(session: ResolvedSession, agentId: string): Promise<string> {
  if (!/^[A-Za-z0-9._-]+$/.test(agentId)) throw new AppError("invalid_input", `agent '${agentId}' is not a valid agent id`, { hint: "use an agent_id listed for this session" });
  const dir = subagentsDir(session);
  const file = path.join(dir, `${agentId}.jsonl`);
  try {
    const real = await resolveInside(session.project.dir, path.relative(session.project.dir, file));
    if ((await fs.stat(real)).isFile()) return real;
  } catch {
    /* fall through */
  }
  throw new AppError("not_found", `no subagent transcript '${agentId}' for session ${session.row.session_ref}`, { hint: "use an agent_id listed for this session" });
}

/** One file that belongs to a session (seed 003 §Question 1): its transcript, a subagent transcript, or a persisted tool result. */
export type SessionFile = {
  kind: "main" | "subagent" | "tool_result";
  /** Absolute path inside the prepared workspace. */
  path: string;
  /** Path relative to the project directory, `/`-separated (what tools report as `file`). */
  relative: string;
  /** Subagent file stem (`agent-…`) for subagents, tool-use id (file stem) for tool results, null for the main transcript. */
  id: string | null;
  size_bytes: number;
};

/**
 * Every file of one session, in a fixed order: the main transcript, then its subagent
 * transcripts (`<stem>/subagents/*.jsonl`, both directory eras are copied there by prepare),
 * then its persisted tool results (`<stem>/tool-results/*`), each group sorted by file name.
 * Codex sessions have only the main file. Missing folders are empty groups; never throws for them.
 * `toolResults: false` leaves the tool results out unlisted (token usage has none to count).
 * @throws the fs error when the main transcript cannot be stat'ed.
 */
export async function sessionFiles(session: ResolvedSession, options: { toolResults?: boolean } = {}): Promise<SessionFile[]> {
  return sessionFilesAt(session.project.dir, session.filePath, options);
}

/**
 * {@link sessionFiles} of the transcript at `filePath` (absolute, inside `projectDir`), for a
 * caller that has the catalog's row and not a resolved session (the full-text fill).
 * @throws the fs error when the main transcript cannot be stat'ed.
 */
export async function sessionFilesAt(projectDir: string, filePath: string, options: { toolResults?: boolean } = {}): Promise<SessionFile[]> {
  const rel = (p: string) => path.relative(projectDir, p).split(path.sep).join("/");
  const side = path.join(path.dirname(filePath), path.basename(filePath, ".jsonl"));
  const out: SessionFile[] = [{ kind: "main", path: filePath, relative: rel(filePath), id: null, size_bytes: (await fs.stat(filePath)).size }];
  const subDir = path.join(side, "subagents");
  for (const name of await listDir(subDir, { filter: (n) => n.endsWith(".jsonl") })) {
    const p = path.join(subDir, name);
    const st = await fs.stat(p);
    if (st.isFile()) out.push({ kind: "subagent", path: p, relative: rel(p), id: name.slice(0, -".jsonl".length), size_bytes: st.size });
  }
  if (options.toolResults === false) return out;
  const toolDir = path.join(side, "tool-results");
  for (const name of await listDir(toolDir)) {
    const p = path.join(toolDir, name);
    const st = await fs.stat(p);
    if (st.isFile()) out.push({ kind: "tool_result", path: p, relative: rel(p), id: name.replace(/\.[^.]*$/, ""), size_bytes: st.size });
  }
  return out;
}
