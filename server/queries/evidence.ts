import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { EVIDENCE_TURNS_PAGE } from "@/lib/evidence/schema";
import { getEvidenceCardTool, getEvidenceCoverageTool } from "@/lib/evidence/tools";
import { isAppError } from "@/lib/errors";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

async function orNotFound<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isAppError(error) && error.code === "not_found") notFound();
    throw error;
  }
}

/** The evidence card view of one session with its first page of turns (issue 13), for the first paint of the evidence panel. */
export const getEvidenceCardQuery = cache((projectKey: string, sessionRef: string) =>
  orNotFound(() => invokeToolForUi(getCoreContext(), getEvidenceCardTool, { project_key: projectKey, session_ref: sessionRef, turns_offset: 0, turns_limit: EVIDENCE_TURNS_PAGE })),
);

/** Evidence coverage of a project and each of its sessions, for the project page (the `get_evidence_coverage` tool), or the not-found page. */
export const getEvidenceCoverageQuery = cache((projectKey: string) =>
  orNotFound(async () => {
    const { status: _status, ...coverage } = await invokeToolForUi(getCoreContext(), getEvidenceCoverageTool, { project_key: projectKey });
    return coverage;
  }),
);
