import "server-only";

import { cache } from "react";

import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { getCoreContext } from "@/server/core";

/** The overview for the home page's first paint (the client then polls `/api/overview`). */
export const getWorkspaceOverviewQuery = cache(() => getWorkspaceOverview(getCoreContext()));
