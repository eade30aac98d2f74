/** The overview of every project for the home page, from the catalog. */
import { createHash } from "node:crypto";

import { catalogProjectRows } from "@/lib/catalog/queries";
import type { CoreContext } from "@/lib/context";
import type { ProjectOverview, WorkspaceOverview } from "@/lib/overview/schema";
import { controlPlaneProjectSummaries } from "@/lib/sources/control-plane/summary";

/**
 * The overview of every project for the home page, from the catalog (issue 25): most recently
 * active first, per project the counts, last activity, tokens and evidence and synthesis coverage;
 * Control Plane roots last. `version` a hash of every row. Only projects whose files moved are re-read.
 * @throws AppError not_found (no workspace) | parse_error (malformed workspace)
 */
export async function getWorkspaceOverview(ctx: CoreContext): Promise<WorkspaceOverview> {
  const rows = await catalogProjectRows(ctx);
  const projects: ProjectOverview[] = rows.map((r) => ({
    project_key: r.project_key,
    project_label: r.project_label,
    session_count: r.session_count,
    turn_count: r.indexed_turns,
    turns_with_chain: r.turns_with_chain,
    covered_turns: r.covered_turns,
    synthesis_complete: r.synthesis_complete === 1,
    has_envelope: r.has_envelope === 1,
    cwd: r.cwd,
    git_branch: r.git_branch,
    last_activity_at: r.last_activity_at,
    total_tokens: r.total_tokens,
    broken_row_count: (JSON.parse(r.broken_rows) as unknown[]).length,
    ...(r.problem !== null ? { problem: r.problem } : {}),
  }));
  for (const cp of await controlPlaneProjectSummaries(ctx)) {
    projects.push({ project_key: cp.project_key, project_label: cp.project_label, session_count: cp.session_count, turn_count: cp.turn_count, turns_with_chain: 0, covered_turns: 0, synthesis_complete: false, has_envelope: false, cwd: cp.root, git_branch: null, last_activity_at: null, total_tokens: null, broken_row_count: 0, source_kind: "control-plane" });
  }
  const version = createHash("sha256").update(JSON.stringify(projects)).digest("hex").slice(0, 16);
  return { version, projects };
}

