import "server-only";

import { cache } from "react";

import { getWorkspaceOverviewTool } from "@/lib/overview/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** The overview for the home page's first paint (the `get_workspace_overview` tool; the client then polls `/api/overview`). */
export const getWorkspaceOverviewQuery = cache(async () => {
  const { status: _status, ...overview } = await invokeToolForUi(getCoreContext(), getWorkspaceOverviewTool, {});
  return overview;
});
