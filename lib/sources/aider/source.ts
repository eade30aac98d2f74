/**
 * Aider behind the source contract (lib/sources/common/agent-source.ts; agent-formats.md §4,
 * docs/sources/aider.md): each run of a project's `.aider.chat.history.md` is a session.
 */
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { discoverAiderSessions } from "@/lib/sources/aider/discover";
import { exportAiderLines } from "@/lib/sources/aider/export-lines";
import { parseAiderLines } from "@/lib/sources/aider/parse";

/**
 * The Aider source. `defaultRoots` is always `[]`: Aider writes its history into each project
 * folder, with no home folder to look in, so its projects are added as source paths.
 */
export const aiderSource: AgentSource = {
  name: "aider",
  label: "Aider",
  defaultRoots: () => [],
  discover: discoverAiderSessions,
  exportLines: exportAiderLines,
  parseLines: parseAiderLines,
};
