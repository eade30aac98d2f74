/** What a dashboard URL names, checked before a page renders. */
import type { CoreContext } from "@/lib/context";
import { discoverControlPlane, findLedger } from "@/lib/sources/control-plane/discover";
import { hasCpSession } from "@/lib/sources/control-plane/forensics";
import { findControlPlaneProject } from "@/lib/sources/control-plane/projects";
import { findProject, loadWorkspace } from "@/lib/workspace/load";

/** What a dashboard URL path names, decided before any page renders. */
export type PageTarget = { kind: "ok" } | { kind: "bad_encoding"; segment: string } | { kind: "not_found"; what: string };

/** A project's pages: its list, synthesis, search, a Control Plane ledger, and a session with its tabs. */
const PROJECT_PAGE = /^\/projects\/([^/]+)(?:\/(?:sessions\/([^/]+)(?:\/(?:timeline|analysis|export))?|synthesis|search|ledgers\/(.+?)))?\/?$/;

/**
 * Checks a dashboard page path before the page streams (a page's notFound() under a loading view
 * comes too late to change the status): a malformed percent-encoding in any segment is
 * `bad_encoding`, and a project page (`/projects/<key>`, its `synthesis`, `search` and
 * `ledgers/<id>`, `sessions/<ref>` and the session's `timeline`, `analysis` and `export` tabs)
 * naming a project, session or ledger that does not exist is `not_found`.
 * A transcript project has no ledgers; a registered Control Plane project's session must be a
 * `SES-…` id some entry of its main ledgers belongs to (issue 11), and its ledger one it has.
 * Other paths are `ok`. An unreadable workspace or Control Plane root is left to the page's own
 * error view.
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
  const ledger = m[3] === undefined ? undefined : m[3].split("/").map(decodeURIComponent).join("/");
  let ws;
  try {
    ws = await loadWorkspace(ctx);
  } catch {
    return { kind: "ok" };
  }
  const project = findProject(ws, projectKey);
  if (!project) {
    // A registered Control Plane root (issue 11) is a project too.
    const controlPlane = await findControlPlaneProject(ctx, projectKey);
    if (!controlPlane) return { kind: "not_found", what: `project '${projectKey}'` };
    if (sessionRef === undefined && ledger === undefined) return { kind: "ok" };
    let layout;
    try {
      layout = await discoverControlPlane(controlPlane.root);
    } catch {
      return { kind: "ok" };
    }
    if (ledger !== undefined) return findLedger(layout, ledger) ? { kind: "ok" } : { kind: "not_found", what: `ledger '${ledger}' of project '${projectKey}'` };
    return sessionRef!.startsWith("SES-") && (await hasCpSession(layout, sessionRef!).catch(() => true)) ? { kind: "ok" } : { kind: "not_found", what: `session '${sessionRef}' of project '${projectKey}'` };
  }
  if (sessionRef !== undefined && !project.rows.some((r) => r.session_ref === sessionRef)) return { kind: "not_found", what: `session '${sessionRef}' of project '${projectKey}'` };
  if (ledger !== undefined) return { kind: "not_found", what: `ledger '${ledger}' of project '${projectKey}' (a transcript project has no ledgers)` };
  return { kind: "ok" };
}
