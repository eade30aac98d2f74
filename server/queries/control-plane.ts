import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { reconstructSessionTool, sessionOverviewTool } from "@/lib/tools/session-forensics";
import type { CpListSessionsResult, CpReconstructResult, CpSessionOverview } from "@/lib/sources/control-plane/forensics";
import { getControlPlaneProjectTool, readLedgerLinesTool, verifyLedgersTool } from "@/lib/sources/control-plane/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { listSessionsTool } from "@/lib/catalog/tools";
import { getCoreContext } from "@/server/core";

/** The registered control-plane project with this key, or null (a transcript project): the `get_control_plane_project` tool. */
export const getControlPlaneProjectQuery = cache(async (projectKey: string) => (await invokeToolForUi(getCoreContext(), getControlPlaneProjectTool, { project_key: projectKey })).project);

/** Integrity verdict of every ledger of the project, or of one `ledger` (the `verify_ledgers` tool). */
export const verifyLedgersQuery = cache((projectKey: string, ledger?: string) => invokeToolForUi(getCoreContext(), verifyLedgersTool, { project_key: projectKey, ledger }));

/** A window of one ledger's raw lines (the `read_ledger_lines` tool); 404 for an unknown ledger. */
export const ledgerLinesQuery = cache(async (projectKey: string, ledger: string, offset: number, file?: string, line?: number) => {
  const result = await invokeToolForUi(getCoreContext(), readLedgerLinesTool, { project_key: projectKey, ledger, offset, limit: 500, file, line });
  if (result.status !== "ok") notFound();
  return result;
});

/*
 * Seed 004's tools for a control-plane project, through the registry: the registered
 * list_sessions / session_overview / reconstruct_session dispatch to the Control Plane source
 * first (lib/sources/control-plane/dispatch.ts), so their results have its shapes.
 */

/** Sessions of the project's ho2m ledger (`list_sessions`). */
export const cpSessionsQuery = cache(async (projectKey: string) => (await invokeToolForUi(getCoreContext(), listSessionsTool, { project_key: projectKey, limit: 500, offset: 0 })) as unknown as CpListSessionsResult);

/** `session_overview` of one session; 404 when the session is unknown. */
export const cpOverviewQuery = cache(async (projectKey: string, sessionId: string) => {
  const result = await invokeToolForUi(getCoreContext(), sessionOverviewTool, { project_key: projectKey, session_ref: sessionId });
  if (result.status !== "ok") notFound();
  return result as unknown as CpSessionOverview;
});

/** One page of `reconstruct_session` (200 events; full verbosity includes prompts). */
export const cpTimelineQuery = cache(async (projectKey: string, sessionId: string, offset: number, verbosity: "compact" | "full") => {
  const result = await invokeToolForUi(getCoreContext(), reconstructSessionTool, { project_key: projectKey, session_ref: sessionId, offset, limit: 200, verbosity, include_prompts: verbosity === "full", max_bytes: 2_000_000 });
  if (result.status !== "ok") notFound();
  return result as unknown as CpReconstructResult;
});
