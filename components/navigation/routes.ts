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
  /** A Control Plane ledger in the ledger viewer (ids like `governance`, `SES-…/exec`), optionally at a line of a segment. */
  ledger: (projectKey: string, ledger: string, at?: { file: string; line: number | null } | null) =>
    `${routes.project(projectKey)}/ledgers/${ledger.split("/").map(encodeURIComponent).join("/")}${at?.line ? `?file=${encodeURIComponent(at.file)}&line=${at.line}#L${at.line}` : ""}`,
};
