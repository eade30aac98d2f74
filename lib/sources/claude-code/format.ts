/** Claude Code's transcript as every layer above lib/sources reads it (issue 38: one descriptor per source). */
import { claudeHeadFacts } from "@/lib/sources/claude-code/head-facts";
import { compactClaudeRecord } from "@/lib/sources/claude-code/compact";
import { claudeFileEdits, claudeHeadline } from "@/lib/sources/claude-code/headline";
import { claudeLocalCommand } from "@/lib/sources/claude-code/local-command";
import { claudeSummaryTitle } from "@/lib/sources/claude-code/summary-title";
import { claudeToolUses } from "@/lib/sources/claude-code/tool-uses";
import { claudeExtras } from "@/lib/sources/claude-code/viewer-extras";
import { claudeFacts, claudeFactsReader } from "@/lib/sources/claude-code/record-facts";
import { claudeUsageRules } from "@/lib/sources/claude-code/usage";
import { SOURCE_LABELS } from "@/lib/sources/common/schema";
import { readSessionWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat } from "@/lib/sources/common/source-format";

/**
 * Claude Code: `~/.claude/projects/<project>/<session>.jsonl`, one record a line, subagents and
 * persisted tool results beside it. Lines hold no state between them; a record writes its own
 * `timestamp` after its message.
 */
export const claudeCodeFormat: SourceFormat<"claude-code"> = {
  name: "claude-code",
  label: SOURCE_LABELS["claude-code"],
  agent: null,
  workscopeId: readSessionWorkscopeId,
  transcript: {
    compact: compactClaudeRecord,
    headline: { parsesMessages: false, of: claudeHeadline, edits: claudeFileEdits },
    viewer: {
      extras: claudeExtras,
      bulkLine: (record) => record.record_type === "assistant" || record.tool_results.length > 0,
      timestampAt: "tail",
    },
    facts: { of: (record) => claudeFacts(record), reader: claudeFactsReader, independentLines: true, promptsLoggedTwice: false },
    localCommand: claudeLocalCommand,
    sessionTitle: claudeSummaryTitle,
    headFacts: claudeHeadFacts,
    usage: claudeUsageRules,
    toolUses: claudeToolUses,
    analysis: { scan: "tool-reads" },
    callMarker: '"tool_use"',
  },
};
