/** Claude Code's descriptor (issue 38): its JSONL lines' readers (./transcript), Workscope ID and chat-export tool uses, as every layer above lib/sources reaches them. */
import path from "node:path";

import { SOURCE_LABELS } from "@/lib/sources/common/source-names";
import { readSessionWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat } from "@/lib/sources/common/source-format";
import { claudePushedFiles } from "@/lib/sources/claude-code/pushed-files";
import { claudeToolUses } from "@/lib/sources/claude-code/tool-uses";
import { claudeTranscript } from "@/lib/sources/claude-code/transcript";

/**
 * Claude Code: `~/.claude/projects/<project>/<session>.jsonl`, one record a line, subagents and
 * persisted tool results beside it. Lines hold no state between them; a record writes its own
 * `timestamp` after its message.
 */
export const claudeCodeFormat: SourceFormat<"claude-code"> = {
  name: "claude-code",
  label: SOURCE_LABELS["claude-code"],
  defaultRoots: (home) => [path.join(home, ".claude", "projects")],
  rootKind: "claude",
  pushed: claudePushedFiles,
  agent: null,
  workscopeId: readSessionWorkscopeId,
  toolUses: claudeToolUses,
  transcript: claudeTranscript,
};
