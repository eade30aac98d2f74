import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getEvidenceCardTool } from "@/lib/evidence/tools";
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

/** The evidence card view of one session, for the first paint of the evidence panel. */
export const getEvidenceCardQuery = cache((projectKey: string, sessionRef: string) =>
  orNotFound(() => invokeToolForUi(getCoreContext(), getEvidenceCardTool, { project_key: projectKey, session_ref: sessionRef })),
);

/** Evidence coverage of a project and each of its sessions, for the project page. */
export const getEvidenceCoverageQuery = cache((projectKey: string) => orNotFound(() => evidenceCoverage(getCoreContext(), projectKey)));
