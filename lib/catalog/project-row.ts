// A project's row: its stamps, label, counts and origin, and its evidence and synthesis coverage.

import { isFsError } from "@/lib/catalog/catalog-fault";
import type { CatalogStore } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { linksOutside } from "@/lib/fs/paths";
import { entryStamp, EVIDENCE_DIR, PROJECT_JSON, SESSION_MACHINES, SESSIONS_DIR, SESSIONS_INDEX, SYNTHESIS_FILE } from "@/lib/fs/workspace-layout";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import type { LoadedProject } from "@/lib/workspace/load";
import { getProjectOrigin } from "@/lib/workspace/project-origin";
import { projectProblem } from "@/lib/workspace/project-problem";

// An entry linked out of the project is not stat'ed through the link (issue 35): its row says so instead.
// The machines record (issue 39) counts: a session retagged to another machine rewrites its row.
export function projectIndexStamp(project: LoadedProject): string {
  return [entryStamp(project.dir, SESSIONS_INDEX), entryStamp(project.dir, PROJECT_JSON), project.projectLabel, entryStamp(project.dir, SESSION_MACHINES)].join("|");
}

export function coverageStamp(project: LoadedProject, indexStamp: string): string {
  return [indexStamp, entryStamp(project.dir, EVIDENCE_DIR), entryStamp(project.dir, SYNTHESIS_FILE), linksOutside(project.dir, SESSIONS_DIR) ? "outside" : "-"].join("|");
}

/** Writes a project's row: label, order, counts, origin (lib/workspace/project-origin), malformed rows. */
export async function upsertProject(ctx: CoreContext, store: CatalogStore, project: LoadedProject, ord: number, indexStamp: string): Promise<void> {
  const origin = await getProjectOrigin(ctx, project);
  await store.upsertProject({
    project_key: project.projectKey,
    ord,
    project_label: project.projectLabel,
    index_stamp: indexStamp,
    session_count: project.rows.length,
    turn_count: project.rows.reduce((n, r) => n + r.turns.length, 0),
    cwd: origin.cwd,
    git_branch: origin.git_branch,
    broken_rows: JSON.stringify(project.brokenRows),
  });
}

/**
 * Writes a project's evidence and synthesis coverage, and what is wrong with its folder (issue 35):
 * an entry linked out of the project is not read, and evidence or synthesis that cannot be read
 * (a coded error, a file system error) leaves the coverage empty; either way the project's row
 * says why in `problem`, and the other projects are not affected.
 */
export async function refreshCoverage(ctx: CoreContext, store: CatalogStore, project: LoadedProject, indexStamp: string): Promise<void> {
  const stamp = coverageStamp(project, indexStamp);
  const stored = await store.projectStamp(project.projectKey);
  if (stored?.coverage_stamp === stamp) return;
  let problem = projectProblem(project);
  let counts = { turns_with_chain: 0, covered_turns: 0, indexed_turns: project.rows.reduce((n, r) => n + r.turns.length, 0), synthesis_complete: 0, has_envelope: 0 };
  if (problem === null) {
    try {
      const [evidence, synthesis] = await Promise.all([evidenceCoverage(ctx, project.projectKey), getSynthesisState(ctx, project.projectKey)]);
      counts = { turns_with_chain: evidence.turns_with_chain, covered_turns: synthesis.counts.covered_turns, indexed_turns: synthesis.counts.indexed_turns, synthesis_complete: synthesis.complete ? 1 : 0, has_envelope: synthesis.envelope !== null ? 1 : 0 };
    } catch (error) {
      if (!isAppError(error) && !isFsError(error)) throw error;
      problem = `its evidence or synthesis cannot be read: ${(error as Error).message}`;
      ctx.log.warn(`[casefile] catalog: project ${project.projectKey}: ${problem}`);
    }
  }
  await store.setCoverage(project.projectKey, { coverage_stamp: stamp, ...counts, problem });
}
