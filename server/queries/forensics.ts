import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { isAppError } from "@/lib/errors";
import { listSessionsTool } from "@/lib/catalog/tools";
import { grepJsonlTool } from "@/lib/forensics/tools";
import { sessionOverviewTool } from "@/lib/tools/session-forensics";
import type { GrepJsonlResult, SearchHitContext, SessionOverviewResult } from "@/lib/forensics/schema";
import { invokeToolForUi, isToolSuccess } from "@/lib/tools/registry";
import type { ListSessionsResult, SessionTurnsPage } from "@/lib/workspace/schema";
import { listSessionTurnsTool } from "@/lib/workspace/tools";
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
export const firstSessionsPageQuery = cache(async (projectKey: string, sort: string, order: string, q: string, risk: string, source: string, limit: number, machine = ""): Promise<ListSessionsResult | null> => {
  // Empty filters are left out, as the table's own request leaves them out of its query string.
  const input = { project_key: projectKey, limit, offset: 0, sort, order, ...(q ? { q } : {}), ...(risk ? { risk } : {}), ...(source ? { source } : {}), ...(machine ? { machine } : {}) };
  try {
    const result = await invokeToolForUi(getCoreContext(), listSessionsTool, input);
    return isToolSuccess(result) ? (result as ListSessionsResult) : null;
  } catch (error) {
    if (isAppError(error) && (error.code === "invalid_input" || error.code === "not_found")) return null;
    throw error;
  }
});


/** Turns one `list_session_turns` call returns for a session's hits (the tool's MAX_TURNS_PAGE). */
const TURNS_PER_CALL = 2000;

/**
 * Titles (first user message) and turns of the sessions a page of search hits falls in: one
 * `list_sessions` page walk (500 rows a call, stopped once every session is found) and one
 * `list_session_turns` call per session over the hits' line range (door `ui`).
 */
export const searchHitContextQuery = cache(async (projectKey: string, hits: readonly { session_ref: string; line_number: number; main: boolean }[]): Promise<SearchHitContext> => {
  const ctx = getCoreContext();
  const wanted = new Set(hits.map((h) => h.session_ref));
  const titles: Record<string, string | null> = {};
  for (let offset = 0; wanted.size > Object.keys(titles).length && offset < 5000; offset += 500) {
    const page = await invokeToolForUi(ctx, listSessionsTool, { project_key: projectKey, limit: 500, offset, sort: "session_ref", order: "asc" });
    if (!isToolSuccess(page)) break;
    const rows = (page as ListSessionsResult).sessions;
    for (const row of rows) if (wanted.has(row.session_ref)) titles[row.session_ref] = row.first_user_message;
    if (rows.length < 500) break;
  }
  const turns: SearchHitContext["turns"] = {};
  for (const ref of wanted) {
    const lines = hits.filter((h) => h.session_ref === ref && h.main).map((h) => h.line_number);
    if (lines.length === 0) continue;
    try {
      const page = await invokeToolForUi(ctx, listSessionTurnsTool, { project_key: projectKey, session_ref: ref, line: Math.min(...lines), to_line: Math.max(...lines), limit: TURNS_PER_CALL });
      turns[ref] = (page as SessionTurnsPage).turns.map((t) => ({ turn_ref: t.turn_ref, start: t.turn_start_line, end: t.turn_end_line }));
    } catch {
      turns[ref] = []; // a session the index lost since the search: its hits show no turn
    }
  }
  return { titles, turns };
});
