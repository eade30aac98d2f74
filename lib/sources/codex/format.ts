/** Codex's descriptor (issue 38): its rollout lines' readers (./transcript), Workscope ID and fork histories, as every layer above lib/sources reaches them. */
import path from "node:path";

import { codexPushedFiles } from "@/lib/sources/codex/pushed-files";
import { codexForkHistory } from "@/lib/sources/codex/select";
import { SOURCE_LABELS } from "@/lib/sources/common/source-names";
import { readWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat } from "@/lib/sources/common/source-format";
import { codexTranscript } from "@/lib/sources/codex/transcript";

/**
 * Codex: `~/.codex/sessions/**\/rollout-*.jsonl`, envelope records (`{timestamp, type, payload}`,
 * `timestamp` first) or the pre-envelope legacy format, whose header decides how the rest reads.
 * A human message is logged twice (an `event_msg` and a response item).
 */
export const codexFormat: SourceFormat<"codex"> = {
  name: "codex",
  label: SOURCE_LABELS.codex,
  // `sessions` and `archived_sessions` under `$CODEX_HOME` (default `~/.codex`).
  defaultRoots(home, env) {
    const codexHome = env.CODEX_HOME?.trim() ? path.resolve(env.CODEX_HOME) : path.join(home, ".codex");
    return ["sessions", "archived_sessions"].map((dir) => path.join(codexHome, dir));
  },
  rootKind: "codex",
  pushed: codexPushedFiles,
  agent: null,
  workscopeId: readWorkscopeId,
  forkHistory: codexForkHistory,
  transcript: codexTranscript,
};
