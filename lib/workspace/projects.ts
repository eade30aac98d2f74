/** The workspace's projects and sessions as the dashboard lists them. */
import fs from "node:fs/promises";

import { agentSource } from "@/lib/sources/agents";
import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { controlPlaneProjectSummaries } from "@/lib/sources/control-plane/summary";
import { findProject, loadWorkspace, type LoadedProject } from "@/lib/workspace/load";
import { sessionMachine } from "@/lib/workspace/machines";
import { getProjectOrigin } from "@/lib/workspace/project-origin";
import { projectProblem } from "@/lib/workspace/project-problem";
import { readSources } from "@/lib/workspace/sources";
import { CLOCK_WAIT_MAX_BYTES, readSessionClock, readTranscriptClock } from "@/lib/workspace/session-clock";
import { readSessionFacts } from "@/lib/workspace/session-facts";
import { getTurnUsage } from "@/lib/workspace/turn-usage";
import { subagentOverview, subagentTurns } from "@/lib/workspace/subagent-view";
import type { ProjectSummary, SessionDetail } from "@/lib/workspace/schema";
import { getSession, getWorkspaceLineIndex, listSubagents, resolveSubagentFile, workspaceLineFacts } from "@/lib/workspace/sessions";

/**
 * The workspace's projects in directory order, with session and turn counts, the working
 * directory and git branch of each ({@link getProjectOrigin}), its malformed index rows and, when
 * something is wrong with its folder, `problem`.
 * @throws AppError not_found (no workspace) | parse_error (contract §1.10).
 */
export async function listProjects(ctx: CoreContext): Promise<ProjectSummaryWithProblem[]> {
  const ws = await loadWorkspace(ctx);
  const transcripts = await Promise.all(ws.projects.map((p) => transcriptSummary(ctx, p)));
  // Registered Control Plane roots follow the transcript projects (issue 11).
  return [...transcripts, ...(await controlPlaneSummaries(ctx))];
}

/** A project's summary, with `problem` only when something is wrong with its folder (lib/workspace/project-problem, issue 35). */
export type ProjectSummaryWithProblem = ProjectSummary & { problem?: string };

async function transcriptSummary(ctx: CoreContext, p: LoadedProject): Promise<ProjectSummaryWithProblem> {
  const problem = projectProblem(p);
  return {
    project_key: p.projectKey,
    project_label: p.projectLabel,
    session_count: p.rows.length,
    turn_count: p.rows.reduce((n, r) => n + r.turns.length, 0),
    ...(await getProjectOrigin(ctx, p)),
    broken_rows: p.brokenRows,
    ...(problem !== null ? { problem } : {}),
  };
}

async function controlPlaneSummaries(ctx: CoreContext): Promise<ProjectSummary[]> {
  return (await controlPlaneProjectSummaries(ctx)).map(({ project_key, project_label, session_count, turn_count, root }) => ({ project_key, project_label, session_count, turn_count, cwd: root, git_branch: null, broken_rows: [] }));
}

/**
 * One project's summary, as {@link listProjects} lists it.
 * @throws AppError not_found | parse_error
 */
export async function getProject(ctx: CoreContext, projectKey: string): Promise<ProjectSummaryWithProblem> {
  // Only this project is summarised (issue 25: a project page costs O(project), not O(workspace)).
  const transcript = findProject(await loadWorkspace(ctx), projectKey);
  const project = transcript ? await transcriptSummary(ctx, transcript) : (await controlPlaneSummaries(ctx)).find((p) => p.project_key === projectKey);
  if (!project) throw new AppError("not_found", `unknown project_key '${projectKey}'`, { hint: "use the project_key from the prepared workspace" });
  return project;
}

/**
 * Everything the viewer needs for a session (or one of its subagent transcripts): line count
 * from the line index, byte size, turns (none for a subagent), the attached subagents, and the
 * header facts (model, client version, cwd, git branch, and the start and duration of
 * lib/workspace/session-clock: the session's, a subagent transcript's own; a session of more
 * than {@link CLOCK_WAIT_MAX_BYTES} not counted yet has none until its pass has run).
 * `options.turns: false` (the session page, issue 13) leaves `turns` and `turn_usage` empty and
 * reads no usage: the page asks for its turns page by page (`list_session_turns`); `turn_count`
 * is always set.
 * @throws AppError not_found | invalid_input | parse_error
 */
export async function getSessionDetail(ctx: CoreContext, projectKey: string, sessionRef: string, agentId?: string, options: { turns?: boolean } = {}): Promise<SessionDetail> {
  const withTurns = options.turns !== false && !agentId;
  const session = await getSession(ctx, projectKey, sessionRef);
  const filePath = agentId ? await resolveSubagentFile(session, agentId) : session.filePath;
  const [index, st, subagents] = await Promise.all([getWorkspaceLineIndex(ctx, filePath), fs.stat(filePath), listSubagents(session)]);
  const project = findProject(await loadWorkspace(ctx), projectKey)!;
  // A subagent transcript is small: its own turns and overview come with it (issue 29).
  const agentTurns = agentId ? await subagentTurns(filePath, index.lineCount) : [];
  const subagent = agentId ? await subagentOverview(session.filePath, await getWorkspaceLineIndex(ctx, session.filePath), filePath, index, agentId) : null;
  const clock = agentId ? await readTranscriptClock(ctx, filePath, session.row.source) : await readSessionClock(ctx, session, CLOCK_WAIT_MAX_BYTES);
  return {
    project_key: projectKey,
    project_label: project.projectLabel,
    session_ref: sessionRef,
    source: session.row.source,
    source_session_id: session.row.source_session_id,
    machine: sessionMachine(project.dir, sessionRef),
    session_path: session.row.session_path,
    line_count: index.lineCount,
    size_bytes: st.size,
    turn_count: agentId ? agentTurns.length : session.row.turns.length,
    turns: agentId ? agentTurns : withTurns ? session.row.turns : [],
    turn_usage: withTurns ? await getTurnUsage(ctx, session) : [],
    subagents,
    agent_id: agentId ?? null,
    facts: await readSessionFacts(filePath, index, session.row.source, clock, workspaceLineFacts(ctx)),
    not_recorded: [...(agentSource(session.row.source)?.absent ?? [])],
    subagent,
  };
}

/**
 * Workspace facts for the dashboard header; `all_time` is true when metadata.json records no
 * date window (issue 12, item 12: shown as "all time", not as the preparation day); `demo` is
 * true when the workspace syncs from Casefile's generated demo transcripts (item 2).
 * @throws AppError not_found | parse_error
 */
export async function getWorkspaceInfo(ctx: CoreContext) {
  const ws = await loadWorkspace(ctx);
  return {
    workspace_root: ws.root,
    report_date: ws.metadata.report_date,
    timezone: ws.metadata.timezone,
    schema_version: ws.metadata.schema_version,
    read_only: ws.readOnly,
    all_time: ws.metadata.all_time,
    demo: (await readSources(ws.root).catch(() => null))?.demo === true,
  };
}
