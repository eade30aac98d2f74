/** Dashboard URLs in one place, so links and e2e page objects agree. */
export const routes = {
  home: () => "/",
  project: (projectKey: string) => `/projects/${encodeURIComponent(projectKey)}`,
  session: (projectKey: string, sessionRef: string, agentId?: string | null) =>
    `${routes.project(projectKey)}/sessions/${encodeURIComponent(sessionRef)}${agentId ? `?agent=${encodeURIComponent(agentId)}` : ""}`,
  /** A turn in the viewer: the session with its lines highlighted (`#L23-L114`, the viewer's line hash). */
  turn: (projectKey: string, sessionRef: string, startLine: number, endLine: number) =>
    `${routes.session(projectKey, sessionRef)}#L${startLine}${endLine === startLine ? "" : `-L${endLine}`}`,
  synthesis: (projectKey: string) => `${routes.project(projectKey)}/synthesis`,
  /** The Audit page, optionally filtered to one task (`project_key/session_ref` or a project). */
  audit: (taskId?: string) => `/audit${taskId ? `?task=${encodeURIComponent(taskId)}` : ""}`,
  /** The Usage page (issue 28), optionally for one project. */
  usage: (projectKey?: string) => `/usage${projectKey ? `?project=${encodeURIComponent(projectKey)}` : ""}`,
  /** A session's merged timeline; `row` deep-links one event (its timeline index). */
  timeline: (projectKey: string, sessionRef: string) => `${routes.project(projectKey)}/sessions/${encodeURIComponent(sessionRef)}/timeline`,
  /** One line of a session file in the viewer (`agentId` for a subagent transcript). */
  line: (projectKey: string, sessionRef: string, line: number, agentId?: string | null) => `${routes.session(projectKey, sessionRef, agentId)}#L${line}`,
  /**
   * A search hit in the viewer (issue 37): the line, with the query carried as `?q=` so the
   * viewer's find-in-session searches it on load and marks its matches.
   */
  searchHit: (projectKey: string, sessionRef: string, line: number | null, query: string, agentId?: string | null) =>
    `${routes.session(projectKey, sessionRef, agentId)}${agentId ? "&" : "?"}q=${encodeURIComponent(query)}${line === null ? "" : `#L${line}`}`,
  /** Search across every session of every project (issue 25); `params` the query and its filters. */
  searchAll: (params?: Record<string, string>) => {
    const query = new URLSearchParams(Object.entries(params ?? {}).filter(([, v]) => v !== "")).toString();
    return `/search${query ? `?${query}` : ""}`;
  },
  /** Project-wide search; `q` the pattern. */
  search: (projectKey: string, q?: string) => `${routes.project(projectKey)}/search${q ? `?q=${encodeURIComponent(q)}` : ""}`,
  /** A session's seed 003 analysis: token chart, context resets, reads. */
  analysis: (projectKey: string, sessionRef: string) => `${routes.session(projectKey, sessionRef)}/analysis`,
  /** A session's paired chat export beside its transcript. */
  chatExport: (projectKey: string, sessionRef: string) => `${routes.session(projectKey, sessionRef)}/export`,
  /** A Control Plane ledger in the ledger viewer (ids like `governance`, `SES-…/exec`), optionally at a line of a segment. */
  ledger: (projectKey: string, ledger: string, at?: { file: string; line: number | null } | null) =>
    `${routes.project(projectKey)}/ledgers/${ledger.split("/").map(encodeURIComponent).join("/")}${at?.line ? `?file=${encodeURIComponent(at.file)}&line=${at.line}#L${at.line}` : ""}`,
};
