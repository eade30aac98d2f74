import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { requestActor } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { invokeToolForUi } from "@/lib/tools/registry";
import { listProjectsTool } from "@/lib/catalog/tools";
import { LOGOUT_PATH } from "@/lib/team/auth";
import { getProjectTool, getSessionDetailTool, getWorkspaceInfoTool, isDemoWorkspaceTool } from "@/lib/workspace/tools";
import { getCoreContext } from "@/server/core";

async function orNotFound<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_input")) notFound();
    throw error;
  }
}

/** Projects for the home page (the `list_projects` tool, door `ui`). */
export const listProjectsQuery = cache(async () => (await invokeToolForUi(getCoreContext(), listProjectsTool, {})).projects);

/** One project (the `get_project` tool), or the not-found page. */
export const getProjectQuery = cache((projectKey: string) => orNotFound(async () => (await invokeToolForUi(getCoreContext(), getProjectTool, { project_key: projectKey })).project));

/**
 * A session's viewer detail without its turns (the `get_session_detail` tool; issue 13: pages ask
 * for turns page by page through `list_session_turns`, so a session of tens of thousands of turns
 * ships none of them with the page), or the not-found page.
 */
export const getSessionDetailQuery = cache((projectKey: string, sessionRef: string, agentId?: string) =>
  orNotFound(async () => (await invokeToolForUi(getCoreContext(), getSessionDetailTool, { project_key: projectKey, session_ref: sessionRef, agent_id: agentId || undefined })).detail),
);

/** Workspace facts for the header (the `get_workspace_info` tool). */
export const getWorkspaceInfoQuery = cache(async () => {
  const { status: _status, ...info } = await invokeToolForUi(getCoreContext(), getWorkspaceInfoTool, {});
  return info;
});

/** True when the workspace shows Casefile's generated demo transcripts (issue 12, item 2; the `is_demo_workspace` tool); false when unknown. */
export const isDemoWorkspaceQuery = cache(() =>
  invokeToolForUi(getCoreContext(), isDemoWorkspaceTool, {}).then(
    (result) => result.demo,
    () => false,
  ),
);

/** A team server's caller of this request (issue 39: the token's machine and role) and where the browser signs out; null on a local dashboard. */
export function signedInQuery(): { machine: string; role: string; logoutPath: string } | null {
  const actor = requestActor();
  return actor ? { machine: actor.machine, role: actor.role, logoutPath: LOGOUT_PATH } : null;
}
