/** Evidence coverage of a project: per session, the indexed turns that have a chain. */

import path from "node:path";

import { readCardFile, type CardRead } from "@/lib/evidence/card-file";
import { inspectCard } from "@/lib/evidence/inspect-card";
import { pyRepr } from "@/lib/evidence/py-repr";
import { ABSENT_VERSION, type ProjectEvidenceCoverage, type SessionEvidenceCoverage } from "@/lib/evidence/schema";
import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { linksOutside, resolveInside } from "@/lib/fs/paths";
import { listDir } from "@/lib/fs/list-dir";
import { EVIDENCE_DIR, evidenceCardPath, evidenceCardRel, evidenceDir, projectRelPath } from "@/lib/fs/workspace-layout";
import { findProject, loadWorkspace } from "@/lib/workspace/load";

/**
 * Evidence coverage of a project for its page (issue 3, "Build" 6): per session, in index
 * order, the indexed turns that have a chain in the card over all indexed turns, plus the card's
 * §2.5 status; and the project totals. A chain counts when it is a stored object whose
 * `turn_ref` names an indexed turn, valid or not (`status` tells validity).
 * @throws AppError not_found (unknown project) | parse_error (malformed workspace) | invalid_input (the
 * project's evidence folder is a link leading outside it)
 */
export async function evidenceCoverage(ctx: CoreContext, projectKey: string): Promise<ProjectEvidenceCoverage> {
  const project = findProject(await loadWorkspace(ctx), projectKey);
  if (!project) throw new AppError("not_found", `unknown project_key ${pyRepr(projectKey)} in prepared workspace`, { hint: "use the project_key from the prepared workspace" });
  // A folder linked out of the project is not listed (issue 35): nothing outside the workspace is read.
  if (linksOutside(project.dir, EVIDENCE_DIR)) {
    const where = projectRelPath(projectKey, EVIDENCE_DIR);
    throw new AppError("invalid_input", `${where} is a link leading outside the project; its evidence is not read`, { path: where, hint: "make it a folder inside the project" });
  }
  const sessions: SessionEvidenceCoverage[] = [];
  // The evidence folder is listed once: a session without a card costs no lookup (a catalog
  // refresh of 20,000 sessions spent seconds failing to resolve and read cards that do not exist).
  const cards = new Set(await listDir(evidenceDir(project.dir)));
  for (const row of project.rows) {
    const rel = evidenceCardRel(row.session_ref);
    const read: CardRead = cards.has(path.basename(rel)) ? await readCardFile(await resolveInside(project.dir, rel)) : { state: "absent", version: ABSENT_VERSION };
    const inspection = inspectCard(read, row, projectKey, evidenceCardPath(project.dir, row.session_ref));
    const withChain = new Set(inspection.chains.map((c) => c.turn_ref));
    sessions.push({
      session_ref: row.session_ref,
      turns_with_chain: row.turns.filter((t) => withChain.has(t.turn_ref)).length,
      indexed_turns: row.turns.length,
      status: inspection.status,
    });
  }
  return {
    project_key: projectKey,
    sessions,
    turns_with_chain: sessions.reduce((n, s) => n + s.turns_with_chain, 0),
    indexed_turns: sessions.reduce((n, s) => n + s.indexed_turns, 0),
    sessions_complete: sessions.filter((s) => s.status === "complete").length,
  };
}
