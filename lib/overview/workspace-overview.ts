import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { evidenceDir } from "@/lib/fs/workspace-layout";
import { readDirNames } from "@/lib/fs/list-dir";
import type { ProjectOverview, WorkspaceOverview } from "@/lib/overview/schema";
import { controlPlaneProjectSummaries } from "@/lib/sources/control-plane/summary";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { loadWorkspace, type LoadedProject } from "@/lib/workspace/load";
import { getProjectOrigin } from "@/lib/workspace/project-origin";

/** Turns with a chain by project folder, stamped by its evidence cards and index (the stamp is most of an entry's bytes). */
const evidenceCache = stampedCache<number>("overview:turns-with-chain", 4 << 20);

/**
 * The overview of every project for the home page: session and turn counts, evidence coverage
 * (turns with a chain) and synthesis coverage (turns covered by a work item). Cheap enough to
 * poll every second: evidence coverage is recomputed only when a card file of the project
 * changes (stat of `evidence/`), and synthesis state has its own stat cache. `version` is a
 * hash of all rows, so a client can tell at a glance whether anything moved.
 * @throws AppError not_found (no workspace) | parse_error (malformed workspace)
 */
export async function getWorkspaceOverview(ctx: CoreContext): Promise<WorkspaceOverview> {
  const ws = await loadWorkspace(ctx);
  const projects: ProjectOverview[] = [];
  for (const project of ws.projects) {
    const synthesis = await getSynthesisState(ctx, project.projectKey);
    projects.push({
      project_key: project.projectKey,
      project_label: project.projectLabel,
      session_count: project.rows.length,
      turn_count: synthesis.counts.indexed_turns,
      turns_with_chain: await turnsWithChain(ctx, project),
      covered_turns: synthesis.counts.covered_turns,
      synthesis_complete: synthesis.complete,
      has_envelope: synthesis.envelope !== null,
      ...(await getProjectOrigin(ctx, project)),
      broken_row_count: project.brokenRows.length,
    });
  }
  // Registered Control Plane roots (issue 11): sessions from ho2m; no evidence or synthesis.
  for (const cp of await controlPlaneProjectSummaries(ctx)) {
    projects.push({ project_key: cp.project_key, project_label: cp.project_label, session_count: cp.session_count, turn_count: cp.turn_count, turns_with_chain: 0, covered_turns: 0, synthesis_complete: false, has_envelope: false, cwd: cp.root, git_branch: null, broken_row_count: 0, source_kind: "control-plane" });
  }
  const version = createHash("sha256").update(JSON.stringify(projects)).digest("hex").slice(0, 16);
  return { version, projects };
}

async function turnsWithChain(ctx: CoreContext, project: LoadedProject): Promise<number> {
  const stamp = await evidenceStamp(project);
  const hit = evidenceCache.get(project.dir, stamp);
  if (hit !== undefined) return hit;
  const coverage = await evidenceCoverage(ctx, project.projectKey);
  evidenceCache.set(project.dir, stamp, coverage.turns_with_chain, 2 * (stamp.length + project.dir.length) + 64);
  return coverage.turns_with_chain;
}

async function evidenceStamp(project: LoadedProject): Promise<string> {
  const dir = evidenceDir(project.dir);
  const parts = [String(project.rows.length), JSON.stringify(project.rows.map((r) => r.turns.length))];
  const names = await readDirNames(dir, { filter: (n) => n.endsWith(".json") });
  if (names === null) return parts.join("|");
  for (const name of names) {
    try {
      const st = await fs.stat(path.join(dir, name));
      parts.push(`${name}:${st.ino}:${st.mtimeMs}:${st.size}`);
    } catch {
      parts.push(`${name}:-`);
    }
  }
  return parts.join("|");
}
