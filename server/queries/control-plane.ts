import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { dispatchControlPlaneTool } from "@/lib/sources/control-plane/dispatch";
import type { CpListSessionsResult, CpReconstructResult, CpSessionOverview } from "@/lib/sources/control-plane/forensics";
import { findControlPlaneProject } from "@/lib/sources/control-plane/projects";
import { readLedgerLinesTool, verifyLedgersTool } from "@/lib/sources/control-plane/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** The registered control-plane project with this key, or null (a transcript project). */
export const getControlPlaneProjectQuery = cache((projectKey: string) => findControlPlaneProject(getCoreContext(), projectKey));

/** Integrity verdict of every ledger of the project (the `verify_ledgers` tool). */
export const verifyLedgersQuery = cache((projectKey: string) => invokeToolForUi(getCoreContext(), verifyLedgersTool, { project_key: projectKey }));

/** A window of one ledger's raw lines (the `read_ledger_lines` tool); 404 for an unknown ledger. */
export const ledgerLinesQuery = cache(async (projectKey: string, ledger: string, offset: number, file?: string, line?: number) => {
  const result = await invokeToolForUi(getCoreContext(), readLedgerLinesTool, { project_key: projectKey, ledger, offset, limit: 500, file, line });
  if (result.status !== "ok") notFound();
  return result;
});

/*
 * Seed 004's tools for a control-plane project. These call the dispatch branch that the
 * registered list_sessions / session_overview / reconstruct_session tools run first for such a
 * project (the same function, the same result), so the pages work whether or not the transcript
 * versions of session_overview and reconstruct_session have landed in the registry yet.
 */

/** Sessions of the project's ho2m ledger (`list_sessions`). */
export const cpSessionsQuery = cache(async (projectKey: string) => (await dispatchControlPlaneTool(getCoreContext(), "list_sessions", { project_key: projectKey, limit: 5000, offset: 0 })) as CpListSessionsResult);

/** `session_overview` of one session; 404 when the session is unknown. */
export const cpOverviewQuery = cache(async (projectKey: string, sessionId: string) => {
  const result = await dispatchControlPlaneTool(getCoreContext(), "session_overview", { project_key: projectKey, session_ref: sessionId });
  if (result?.status !== "ok") notFound();
  return result as unknown as CpSessionOverview;
});

/** One page of `reconstruct_session`. */
export const cpTimelineQuery = cache(async (projectKey: string, sessionId: string, offset: number, verbosity: "compact" | "full") => {
  const result = await dispatchControlPlaneTool(getCoreContext(), "reconstruct_session", { project_key: projectKey, session_ref: sessionId, offset, limit: 200, verbosity, include_prompts: verbosity === "full", max_bytes: 2_000_000 });
  if (result?.status !== "ok") notFound();
  return result as unknown as CpReconstructResult;
});
