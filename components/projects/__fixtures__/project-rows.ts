/** Project rows for the project list's tests. */
import type { ProjectOverview } from "@/lib/overview/schema";

/** A project row as the overview gives it; `over` sets what a test cares about. */
export function projectRow(key: string, over: Partial<ProjectOverview> = {}): ProjectOverview {
  return {
    project_key: key,
    project_label: key,
    session_count: 1,
    turn_count: 10,
    turns_with_chain: 0,
    covered_turns: 0,
    synthesis_complete: false,
    has_envelope: false,
    cwd: null,
    git_branch: null,
    last_activity_at: null,
    total_tokens: null,
    broken_row_count: 0,
    ...over,
  };
}
