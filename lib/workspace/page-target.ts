import type { CoreContext } from "@/lib/context";
import { findControlPlaneProject } from "@/lib/sources/control-plane/projects";
import { findProject, loadWorkspace } from "@/lib/workspace/load";

/** What a dashboard URL path names, decided before any page renders. */
export type PageTarget = { kind: "ok" } | { kind: "bad_encoding"; segment: string } | { kind: "not_found"; what: string };

const PROJECT_PAGE = /^\/projects\/([^/]+)(?:\/(?:sessions\/([^/]+)|synthesis))?\/?$/;

/**
 * Checks a dashboard page path (issue 8 probe): a malformed percent-encoding in any segment is
 * `bad_encoding` (it used to answer 500), and `/projects/<key>[/synthesis|/sessions/<ref>]` naming
 * a project or session that is not in the workspace is `not_found` (it used to answer 200, as a
 * page's notFound() comes after streaming has begun); a registered Control Plane project's pages
 * pass (a session ref must be `SES-…`). Other paths are `ok`. An unreadable
 * workspace is left to the page's own error view.
 */
export async function checkPageTarget(ctx: CoreContext, pathname: string): Promise<PageTarget> {
  const segments = pathname.split("/");
  for (const segment of segments) {
    try {
      decodeURIComponent(segment);
    } catch {
      return { kind: "bad_encoding", segment };
    }
  }
  const m = PROJECT_PAGE.exec(pathname);
  if (!m) return { kind: "ok" };
  const projectKey = decodeURIComponent(m[1]!);
  const sessionRef = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
  let ws;
  try {
    ws = await loadWorkspace(ctx);
  } catch {
    return { kind: "ok" };
  }
  const project = findProject(ws, projectKey);
  if (!project) {
    // A registered Control Plane root (issue 11) is a project too; its sessions are ho2m `SES-…` ids,
    // checked by the page itself (finding one means reading the ledger).
    if (await findControlPlaneProject(ctx, projectKey)) return sessionRef === undefined || sessionRef.startsWith("SES-") ? { kind: "ok" } : { kind: "not_found", what: `session '${sessionRef}' of project '${projectKey}'` };
    return { kind: "not_found", what: `project '${projectKey}'` };
  }
  if (sessionRef !== undefined && !project.rows.some((r) => r.session_ref === sessionRef)) return { kind: "not_found", what: `session '${sessionRef}' of project '${projectKey}'` };
  return { kind: "ok" };
}
