import "server-only";

import { getWorkspaceOverviewTool } from "@/lib/overview/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

/** `GET /api/overview`: every project's counts and coverage (the `get_workspace_overview` tool, door `ui`), polled by the home page. */
export async function getOverviewHandler(): Promise<Response> {
  try {
    const { status: _status, ...overview } = await invokeToolForUi(getCoreContext(), getWorkspaceOverviewTool, {});
    return Response.json(overview, { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
