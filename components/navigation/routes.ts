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
};
