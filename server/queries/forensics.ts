import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { isAppError } from "@/lib/errors";
import { listSessionsTool } from "@/lib/catalog/tools";
import { grepJsonlTool, sessionOverviewTool } from "@/lib/forensics/tools";
import type { GrepJsonlResult, SessionOverviewResult } from "@/lib/forensics/schema";
import { invokeToolForUi, isToolSuccess } from "@/lib/tools/registry";
import type { ListSessionsResult } from "@/lib/workspace/schema";
import { getCoreContext } from "@/server/core";

/** A session's forensics overview (the `session_overview` tool, door `ui`), or the not-found page. */
export const getSessionOverviewQuery = cache(async (projectKey: string, sessionRef: string): Promise<SessionOverviewResult> => {
  const result = await invokeToolForUi(getCoreContext(), sessionOverviewTool, { project_key: projectKey, session_ref: sessionRef });
  if (result.status !== "ok") notFound();
  return result as SessionOverviewResult;
});

/** One page of a project-wide search (`grep_jsonl` without a session, door `ui`); invalid input (a bad pattern) is returned as is. */
export const searchProjectQuery = cache(async (projectKey: string, pattern: string, offset: number) => {
  const result = await invokeToolForUi(getCoreContext(), grepJsonlTool, { project_key: projectKey, pattern, offset, limit: 100, max_bytes: 2_000_000 });
  return result as GrepJsonlResult | { status: "invalid"; errors: { field: string; message: string; hint: string }[] };
});

/**
 * The first page of a project's session list as the table asks for it (`list_sessions`, door
 * `ui`, offset 0, `limit` rows, the table's sort and filter), so the page ships its first rows
 * with the HTML (issue 13: the session list ≤ 300 ms); null when the tool refuses the input or
 * the project is unknown (the table then asks itself and shows the error).
 */
export const firstSessionsPageQuery = cache(async (projectKey: string, sort: string, order: string, q: string, risk: string, limit: number): Promise<ListSessionsResult | null> => {
  // Empty filters are left out, as the table's own request leaves them out of its query string.
  const input = { project_key: projectKey, limit, offset: 0, sort, order, ...(q ? { q } : {}), ...(risk ? { risk } : {}) };
  try {
    const result = await invokeToolForUi(getCoreContext(), listSessionsTool, input);
    return isToolSuccess(result) ? (result as ListSessionsResult) : null;
  } catch (error) {
    if (isAppError(error) && (error.code === "invalid_input" || error.code === "not_found")) return null;
    throw error;
  }
});
