/** Which files of a Codex root a team push sends (issue 39; lib/sources/common/pushed-files). */
import { APPEND_ONLY_TRANSCRIPT, type PushedFiles } from "@/lib/sources/common/pushed-files";

/** `*.jsonl` rollouts; a Codex home sends only its `sessions` and `archived_sessions` (as discovery reads it), not its history or config. */
export const codexPushedFiles: PushedFiles = {
  file: (rel) => (rel.endsWith(".jsonl") ? APPEND_ONLY_TRANSCRIPT : null),
  oneFileAppendOnly: () => true,
  homeFolders: ["sessions", "archived_sessions"],
};
