import { fetchJson } from "@/components/query/fetch-json";
import type { SearchHit, SearchSessionsResult } from "@/lib/catalog/schema";

/** Hits asked per request (search_sessions' page cap). */
const PAGE = 200;
/** Hits read at most per search: a query matching more lines says so with a `+`. */
const MAX_HITS = 1_000;

/** The lines of the transcript on screen that match, ascending, each with its snippet; `more` when the session has hits not read. */
export type SessionMatches = { lines: number[]; snippets: Map<number, string>; more: boolean };

type FindInSessionInput = { projectKey: string; sessionRef: string; agentId: string | null; query: string };

/**
 * Find in session (issue 37): `search_sessions` restricted to the session (the same matcher and
 * hits as the global search), keeping the hits of the transcript on screen: the main transcript,
 * or the subagent `agentId`'s. Reads the session's hits page by page, up to MAX_HITS.
 * @throws AppError `invalid_input` for a malformed query (the tool's message and hint).
 */
export async function findInSession({ projectKey, sessionRef, agentId, query }: FindInSessionInput): Promise<SessionMatches> {
  const snippets = new Map<number, string>();
  let offset = 0;
  let total = 0;
  do {
    const page = await fetchJson<SearchSessionsResult>("/api/tools/search_sessions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      // In line order, the transcript on screen only: the check stops once a page is full (fast on a 1 GB session).
      body: JSON.stringify({ query, project_key: projectKey, session_ref: sessionRef, transcript: agentId ?? "main", order: "line", limit: PAGE, offset }),
    });
    for (const hit of page.hits) if (onScreen(hit, agentId) && !snippets.has(hit.line_number)) snippets.set(hit.line_number, hit.snippet);
    total = page.total + page.coverage.lines_unchecked;
    offset += page.hits.length;
    if (page.hits.length === 0) break;
  } while (offset < total && offset < MAX_HITS);
  return { lines: [...snippets.keys()].sort((a, b) => a - b), snippets, more: offset < total };
}

function onScreen(hit: SearchHit, agentId: string | null): boolean {
  return agentId ? hit.file.kind === "subagent" && hit.file.id === agentId : hit.file.kind === "main";
}
