/** What is wrong with one project's folder that Casefile will not read through: it degrades that project only (issue 35). */
import { linksOutside } from "@/lib/fs/paths";
import { EVIDENCE_DIR, PROJECT_JSON, projectRelPath, SESSIONS_DIR, SESSIONS_INDEX, SYNTHESIS_FILE } from "@/lib/fs/workspace-layout";
import type { LoadedProject } from "@/lib/workspace/load";

/** The project entries whose content Casefile reads: each must stay inside the project (the loader reads a project without the first two when they do not). */
const GUARDED = [PROJECT_JSON, SESSIONS_INDEX, EVIDENCE_DIR, SESSIONS_DIR, SYNTHESIS_FILE] as const;

/**
 * What is wrong with the project's folder, said for its row of `list_projects` and the home page,
 * or null when nothing is: a `project.json`, index, evidence folder, sessions folder or synthesis
 * envelope that is a link leading outside the project (nothing is read through it). Synchronous: an `lstat` per entry, and a
 * `realpath` only for a link.
 */
export function projectProblem(project: Pick<LoadedProject, "projectKey" | "dir">): string | null {
  const out = GUARDED.filter((name) => linksOutside(project.dir, name)).map((name) => projectRelPath(project.projectKey, name));
  if (out.length === 0) return null;
  return `${out.join(", ")} ${out.length === 1 ? "is a link" : "are links"} leading outside the project: not read (make ${out.length === 1 ? "it a folder or file" : "them folders or files"} inside the project)`;
}
