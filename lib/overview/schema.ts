/** Types of the workspace overview (home page). */
import * as z from "zod";

/** One project's row on the overview page: sizes plus evidence and synthesis coverage (issue 4, "Live"). */
export const projectOverviewSchema = z.object({
  project_key: z.string(),
  project_label: z.string(),
  session_count: z.number().int(),
  turn_count: z.number().int(),
  /** Indexed turns whose session card holds a chain for them. */
  turns_with_chain: z.number().int(),
  /** Indexed turns covered by a work item of project-synthesis.json. */
  covered_turns: z.number().int(),
  synthesis_complete: z.boolean(),
  has_envelope: z.boolean(),
  /** Set for a registered Control Plane root (issue 11), whose rows have no evidence or synthesis. */
  source_kind: z.literal("control-plane").optional(),
  /** Working directory and git branch recorded in the project's latest session (issue 12, item 3). */
  cwd: z.string().nullable(),
  git_branch: z.string().nullable(),
  /** ISO time of the project's latest session record (issue 25: the home page is sorted by it); null when unknown. */
  last_activity_at: z.string().nullable(),
  /** Tokens of the project's sessions, null when none is known. */
  total_tokens: z.number().nullable(),
  /** Index rows left out because they are malformed. */
  broken_row_count: z.number().int(),
  /** What is wrong with the project's folder (issue 35: e.g. its evidence folder links outside the workspace); absent when nothing. */
  problem: z.string().optional(),
});
export type ProjectOverview = z.infer<typeof projectOverviewSchema>;

/** `GET /api/overview`: every project, and a version that changes whenever any row does. */
export type WorkspaceOverview = { version: string; projects: ProjectOverview[] };
