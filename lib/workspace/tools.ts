/** The workspace domain's registered tools: turns, project, session detail, info. */
import * as z from "zod";

import { defineTool } from "@/lib/tools/define-tool";
import { getProject, getSessionDetail, getWorkspaceInfo } from "@/lib/workspace/projects";
import { listSessionTurns } from "@/lib/workspace/session-turns";
import { type ProjectSummary, type SessionDetail, sessionTurnsInputSchema } from "@/lib/workspace/schema";
import { readSources } from "@/lib/workspace/sources";

/**
 * `list_session_turns` (issue 13, dashboard only): a page of a session's indexed turns, by
 * ordinal or by line, optionally with token usage, so the session page never ships every turn
 * of a session with tens of thousands of them.
 */
export const listSessionTurnsTool = defineTool({
  name: "list_session_turns",
  title: "List session turns",
  description:
    "A page of one session's indexed turns (turn_ref, turn_start_line, turn_end_line, ordinal), by offset or by the line a page starts at, up to to_line; usage: true adds input/output/total tokens. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: sessionTurnsInputSchema,
  inputHint: "pass {project_key, session_ref} and optionally offset ≥ 0 or line ≥ 1, to_line ≥ 1, limit 1-2000, usage true|false",
  run: (ctx, input) => listSessionTurns(ctx, input),
});

const projectKey = z.string().min(1, "project_key must be a non-empty string");
const sessionRef = z.string().min(1, "session_ref must be a non-empty string");

/**
 * `get_project` (dashboard, issue 8 item 1): one project's summary — `{status:"ok", project}`,
 * the {@link ProjectSummary} `list_projects` lists. Read-only.
 * @throws AppError not_found for an unknown project_key (the page shows its not-found page).
 */
export const getProjectTool = defineTool({
  name: "get_project",
  title: "Get project",
  description: "One project's summary (project_key, project_label, session and turn counts, cwd, git_branch, broken_rows), as list_projects lists it. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: projectKey }),
  inputHint: "pass {project_key}",
  run: async (ctx, input): Promise<{ status: "ok"; project: ProjectSummary }> => ({ status: "ok", project: await getProject(ctx, input.project_key) }),
});

/**
 * `get_session_detail` (dashboard, issue 8 item 1): the session viewer's detail of one session,
 * or of one of its subagents with agent_id — `{status:"ok", detail}`, without its turns (issue 13:
 * pages ask for turns through `list_session_turns`). Read-only.
 * @throws AppError not_found for an unknown project, session or agent; invalid_input for a bad ref.
 */
export const getSessionDetailTool = defineTool({
  name: "get_session_detail",
  title: "Get session detail",
  description: "The viewer detail of one session (or of its subagent agent_id): source, paths, line count, size, subagents; without turns (see list_session_turns). Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: projectKey, session_ref: sessionRef, agent_id: z.string().min(1).optional() }),
  inputHint: "pass {project_key, session_ref} and optionally agent_id",
  run: async (ctx, input): Promise<{ status: "ok"; detail: SessionDetail }> => ({
    status: "ok",
    detail: await getSessionDetail(ctx, input.project_key, input.session_ref, input.agent_id, { turns: false }),
  }),
});

/**
 * `get_workspace_info` (dashboard, issue 8 item 1): the header's workspace facts —
 * `{status:"ok", workspace_root, report_date, timezone, schema_version, read_only, all_time, demo}`.
 * Read-only; takes no input.
 * @throws AppError not_found | parse_error when the workspace cannot be loaded.
 */
export const getWorkspaceInfoTool = defineTool({
  name: "get_workspace_info",
  title: "Get workspace info",
  description: "The workspace's facts for the dashboard header: root, report_date, timezone, schema_version, read_only, all_time, demo. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({}),
  inputHint: "get_workspace_info takes no input: pass {}",
  run: async (ctx) => ({ status: "ok" as const, ...(await getWorkspaceInfo(ctx)) }),
});

/**
 * `is_demo_workspace` (dashboard, issue 12 item 2 through issue 8 item 1): `{status:"ok", demo}`,
 * true when the workspace syncs from Casefile's generated demo transcripts; false when its
 * sources file is absent or unreadable (works before the workspace is prepared). Read-only.
 */
export const isDemoWorkspaceTool = defineTool({
  name: "is_demo_workspace",
  title: "Is demo workspace",
  description: "Whether the workspace shows Casefile's generated demo transcripts (false when unknown). Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({}),
  inputHint: "is_demo_workspace takes no input: pass {}",
  run: async (ctx) => ({ status: "ok" as const, demo: (await readSources(ctx.workspaceRoot).catch(() => null))?.demo === true }),
});

export const workspaceTools = [listSessionTurnsTool, getProjectTool, getSessionDetailTool, getWorkspaceInfoTool, isDemoWorkspaceTool];
