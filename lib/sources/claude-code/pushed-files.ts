/** Which files of a Claude Code projects root a team push sends (issue 39; lib/sources/common/pushed-files). */
import { APPEND_ONLY_TRANSCRIPT, SIDE_FILE, type PushedFiles } from "@/lib/sources/common/pushed-files";

/**
 * `*.jsonl` transcripts (those under `subagents/` and era-1 `agent-*.jsonl` are subagents, not
 * sessions), files under `tool-results/` (persisted big results) and `*.txt` chat exports (discover.ts).
 */
export const claudePushedFiles: PushedFiles = {
  file(rel) {
    const parts = rel.split("/");
    const name = parts.at(-1)!;
    if (parts.includes("tool-results")) return SIDE_FILE;
    if (name.endsWith(".jsonl")) return !parts.includes("subagents") && !name.startsWith("agent-") ? APPEND_ONLY_TRANSCRIPT : { transcript: false, appendOnly: true };
    return name.endsWith(".txt") ? SIDE_FILE : null;
  },
  oneFileAppendOnly: () => true,
};
