/** OpenCode behind the agent-source contract (lib/sources/common/agent-source.ts; agent-formats.md §3). */
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { defaultRoots, discover } from "@/lib/sources/opencode/discover";
import { exportLines } from "@/lib/sources/opencode/export-lines";
import { OPENCODE_ABSENT, parseLines, prepareTurns } from "@/lib/sources/opencode/parse";
import { opencodePushedFiles } from "@/lib/sources/opencode/pushed-files";

/**
 * OpenCode: sessions from `opencode.db` (read-only, WAL-safe) and the older `storage/` JSON files,
 * one workspace file per session (`<ses_…>.jsonl`; child sessions of the task tool are sessions too,
 * titled `Subagent: …`), usage counted per docs/sources/opencode.md.
 */
export const opencodeSource: AgentSource = {
  name: "opencode",
  label: "OpenCode",
  absent: OPENCODE_ABSENT,
  defaultRoots,
  pushed: opencodePushedFiles,
  discover,
  exportLines,
  parseLines,
  prepareTurns,
};
