/** GitHub Copilot CLI behind the agent source contract (lib/sources/common/agent-source.ts; agent-formats.md §2). */
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { copilotDefaultRoots, discoverCopilotSessions } from "@/lib/sources/copilot-cli/discover";
import { exportCopilotLines } from "@/lib/sources/copilot-cli/export-lines";
import { COPILOT_ABSENT, parseCopilotLines } from "@/lib/sources/copilot-cli/parse";
import { prepareCopilotTurns } from "@/lib/sources/copilot-cli/prepare-turns";
import { copilotPushedFiles } from "@/lib/sources/copilot-cli/pushed-files";
import { copilotLinesFromFacts, readCopilotLines } from "@/lib/sources/copilot-cli/read-lines";

/**
 * Copilot CLI sessions: `~/.copilot/session-state/<uuid>/events.jsonl` (or under `$COPILOT_HOME`),
 * each a session whose workspace file is a byte copy of its events; usage from each run's
 * `session.shutdown` (docs/sources/copilot-cli.md).
 */
export const copilotSource: AgentSource = {
  name: "copilot-cli",
  label: "GitHub Copilot CLI",
  absent: COPILOT_ABSENT,
  defaultRoots: copilotDefaultRoots,
  pushed: copilotPushedFiles,
  discover: discoverCopilotSessions,
  exportLines: exportCopilotLines,
  parseLines: parseCopilotLines,
  prepareTurns: prepareCopilotTurns,
  readLines: readCopilotLines,
  linesFromFacts: copilotLinesFromFacts,
};
