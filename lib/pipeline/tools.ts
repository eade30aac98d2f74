/** `workspace_status`: what the workspace pipeline is doing, and how much of the workspace search covers. */
import * as z from "zod";

import type { WorkspaceStatus } from "@/lib/pipeline/schema";
import { getWorkspaceStatus } from "@/lib/pipeline/workspace-status";
import { defineReadTool } from "@/lib/tools/define-tool";

/**
 * `workspace_status` (issue 36 item 2): `{status:"ok", phase, done, total, sessions_indexed,
 * sessions_total, started_at, last_error}` ({@link getWorkspaceStatus}). The home page polls it
 * for its progress bar; an agent can ask it whether search already covers every session.
 * Read-only; no input.
 * @throws AppError not_found | parse_error when the workspace cannot be loaded.
 */
export const workspaceStatusTool = defineReadTool({
  name: "workspace_status",
  title: "Workspace status",
  description:
    "What the workspace is doing: phase syncing | cataloguing | indexing | ready, with done of total for the phase (source files, sessions catalogued, sessions indexed for search), sessions_indexed of sessions_total in the full-text index (search_sessions covers only those), started_at and the last error of a stage. Read-only.",
  input: z.object({}),
  inputHint: "workspace_status takes no input: pass {}",
  run: async (ctx): Promise<{ status: "ok" } & WorkspaceStatus> => ({ status: "ok", ...(await getWorkspaceStatus(ctx)) }),
});

export const pipelineTools = [workspaceStatusTool];
