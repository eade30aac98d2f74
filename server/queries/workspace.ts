import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { isAppError } from "@/lib/errors";
import { getProject, getSessionDetail, getWorkspaceInfo, listProjects } from "@/lib/workspace/projects";
import { readSources } from "@/lib/workspace/sources";
import { getCoreContext } from "@/server/core";

async function orNotFound<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error) && (error.code === "not_found" || error.code === "invalid_input")) notFound();
    throw error;
  }
}

/** Projects for the home page. */
export const listProjectsQuery = cache(() => listProjects(getCoreContext()));

/** One project, or the not-found page. */
export const getProjectQuery = cache((projectKey: string) => orNotFound(() => getProject(getCoreContext(), projectKey)));

/**
 * A session's viewer detail without its turns (issue 13: pages ask for turns page by page
 * through `list_session_turns`, so a session of tens of thousands of turns ships none of them
 * with the page), or the not-found page.
 */
export const getSessionDetailQuery = cache((projectKey: string, sessionRef: string, agentId?: string) =>
  orNotFound(() => getSessionDetail(getCoreContext(), projectKey, sessionRef, agentId, { turns: false })),
);

/** Workspace facts for the header. */
export const getWorkspaceInfoQuery = cache(() => getWorkspaceInfo(getCoreContext()));

/** True when the workspace shows Casefile's generated demo transcripts (issue 12, item 2); false when unknown. */
export const isDemoWorkspaceQuery = cache(() =>
  readSources(getCoreContext().workspaceRoot).then(
    (sources) => sources?.demo === true,
    () => false,
  ),
);
