import "server-only";

import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

/** `GET /api/overview`: every project's counts and coverage, polled by the home page. */
export async function getOverviewHandler(): Promise<Response> {
  try {
    return Response.json(await getWorkspaceOverview(getCoreContext()), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
