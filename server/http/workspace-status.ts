import "server-only";

import { workspaceStatusTool } from "@/lib/pipeline/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

/** `GET /api/workspace-status`: the pipeline's phase and the search index's coverage (the `workspace_status` tool, door `ui`), polled by the home page while not ready. */
export async function getWorkspaceStatusHandler(): Promise<Response> {
  try {
    const { status: _status, ...workspaceStatus } = await invokeToolForUi(getCoreContext(), workspaceStatusTool, {});
    return Response.json(workspaceStatus, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
