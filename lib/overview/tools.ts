/** `get_workspace_overview`: the home page's counts and coverage per project. */
import * as z from "zod";

import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { defineTool } from "@/lib/tools/define-tool";

/**
 * `get_workspace_overview` (dashboard, issue 8 item 1): every project's counts and coverage for
 * the home page — `{status:"ok", version, projects}` (WorkspaceOverview). Read-only; no input.
 * @throws AppError not_found | parse_error when the workspace cannot be loaded.
 */
export const getWorkspaceOverviewTool = defineTool({
  name: "get_workspace_overview",
  title: "Get workspace overview",
  description: "Every project of the workspace with its sessions, turns, evidence and synthesis coverage, as the dashboard home page shows them; version changes when any of them does. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({}),
  inputHint: "get_workspace_overview takes no input: pass {}",
  run: async (ctx) => ({ status: "ok" as const, ...(await getWorkspaceOverview(ctx)) }),
});

export const overviewTools = [getWorkspaceOverviewTool];
