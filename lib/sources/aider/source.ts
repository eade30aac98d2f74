/**
 * Aider behind the source contract (lib/sources/common/agent-source.ts; agent-formats.md §4,
 * docs/sources/aider.md): each run of a project's `.aider.chat.history.md` is a session.
 */
import { aiderProjectsUnder } from "@/lib/sources/aider/home-projects";
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { discoverAiderSessions } from "@/lib/sources/aider/discover";
import { exportAiderLines } from "@/lib/sources/aider/export-lines";
import { AIDER_ABSENT, parseAiderLines } from "@/lib/sources/aider/parse";
import { aiderPushedFiles } from "@/lib/sources/aider/pushed-files";

/**
 * The Aider source. Aider writes its history into each project folder, with no home folder of
 * sessions: `defaultRoots` are the project folders a bounded walk of the home finds
 * ({@link aiderProjectsUnder}); projects elsewhere are added as source paths.
 */
export const aiderSource: AgentSource = {
  name: "aider",
  label: "Aider",
  absent: AIDER_ABSENT,
  defaultRoots: (home) => aiderProjectsUnder(home),
  pushed: aiderPushedFiles,
  discover: discoverAiderSessions,
  exportLines: exportAiderLines,
  parseLines: parseAiderLines,
};
