/** Dashboard URLs in one place, so links and e2e page objects agree. */
export const routes = {
  home: () => "/",
  project: (projectKey: string) => `/projects/${encodeURIComponent(projectKey)}`,
  session: (projectKey: string, sessionRef: string, agentId?: string | null) =>
    `${routes.project(projectKey)}/sessions/${encodeURIComponent(sessionRef)}${agentId ? `?agent=${encodeURIComponent(agentId)}` : ""}`,
};
