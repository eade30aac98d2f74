/** Control Plane roots as rows of the projects list. */
import type { CoreContext } from "@/lib/context";
import { discoverControlPlane } from "@/lib/sources/control-plane/discover";
import { cpListSessions } from "@/lib/sources/control-plane/forensics";
import { listControlPlaneProjects } from "@/lib/sources/control-plane/projects";

/** A registered Control Plane root as a row of the projects list. */
export type ControlPlaneProjectSummary = { project_key: string; project_label: string; session_count: number; turn_count: number; root: string; missing: boolean };

/**
 * Every registered control-plane project with its ho2m session and turn counts, for the projects
 * list and the home overview. A root that has gone (or lost its ledgers) is listed with zero
 * counts and `missing: true` rather than hiding the workspace's other projects.
 */
export async function controlPlaneProjectSummaries(ctx: CoreContext): Promise<ControlPlaneProjectSummary[]> {
  const out: ControlPlaneProjectSummary[] = [];
  for (const p of await listControlPlaneProjects(ctx)) {
    try {
      const sessions = await cpListSessions(await discoverControlPlane(p.root), { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      out.push({ project_key: p.project_key, project_label: p.project_label, session_count: sessions.total, turn_count: sessions.sessions.reduce((n, s) => n + s.turn_count, 0), root: p.root, missing: false });
    } catch {
      ctx.log.warn(`Control Plane root ${p.root} (${p.project_key}) cannot be read`);
      out.push({ project_key: p.project_key, project_label: p.project_label, session_count: 0, turn_count: 0, root: p.root, missing: true });
    }
  }
  return out;
}
