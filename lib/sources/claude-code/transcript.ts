/** Claude Code's JSONL lines as the per-line readers above lib/sources read them (issue 38): the light half of its descriptor, loaded by workers. */
import { claudeHeadFacts } from "@/lib/sources/claude-code/head-facts";
import { compactClaudeRecord } from "@/lib/sources/claude-code/compact";
import { claudeLocalCommand } from "@/lib/sources/claude-code/local-command";
import { claudeSummaryTitle } from "@/lib/sources/claude-code/summary-title";
import { claudeExtras } from "@/lib/sources/claude-code/viewer-extras";
import { claudeFacts, claudeFactsReader } from "@/lib/sources/claude-code/record-facts";
import { claudeUsageRules } from "@/lib/sources/claude-code/usage";
import type { TranscriptFormat } from "@/lib/sources/common/source-format";

/**
 * Claude Code: `~/.claude/projects/<project>/<session>.jsonl`, one record a line, subagents and
 * persisted tool results beside it. Lines hold no state between them; a record writes its own
 * `timestamp` after its message.
 */
export const claudeTranscript: TranscriptFormat = {
  name: "claude-code",
  compact: compactClaudeRecord,
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
  analysis: { scan: "tool-reads" },
  callMarker: '"tool_use"',
};
