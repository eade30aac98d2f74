import "server-only";

import { cache } from "react";

import type { WorkspaceStatus } from "@/lib/pipeline/schema";
import { workspaceStatusTool } from "@/lib/pipeline/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** The workspace's status for the home page's first paint (the `workspace_status` tool; the client then polls `/api/workspace-status` until ready). */
export const getWorkspaceStatusQuery = cache(async (): Promise<WorkspaceStatus> => {
  const { status: _status, ...workspaceStatus } = await invokeToolForUi(getCoreContext(), workspaceStatusTool, {});
  return workspaceStatus;
});
