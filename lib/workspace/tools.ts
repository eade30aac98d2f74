import * as z from "zod";

import { defineTool } from "@/lib/tools/define-tool";
import { listProjects } from "@/lib/workspace/projects";
import { listSessionTurns } from "@/lib/workspace/session-turns";
import { type ProjectSummary, sessionTurnsInputSchema } from "@/lib/workspace/schema";

/**
 * `list_projects` (issue 12, item 3): every project of the workspace with its project_key, so an
 * agent can discover the keys the other tools take. Read-only; takes no input.
 */
export const listProjectsTool = defineTool({
  name: "list_projects",
  title: "List projects",
  description:
    "List the workspace's projects: project_key (the key every other tool takes), project_label, session_count, turn_count, the working directory (cwd) and git_branch recorded in the latest session, and broken_rows (malformed index rows, with their errors). Read-only.",
  readOnly: true,
  input: z.object({}),
  inputHint: "list_projects takes no input: pass {}",
  run: async (ctx): Promise<{ status: "ok"; count: number; projects: ProjectSummary[] }> => {
    const projects = await listProjects(ctx);
    return { status: "ok", count: projects.length, projects };
  },
});

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

export const workspaceTools = [listSessionTurnsTool];
