/** Worker entry of `analyzeClaudeTranscript`: reads byte ranges of a big transcript into line facts (issue 13), for a RangePool. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { claudeRangeFacts, type ClaudeRangeFacts } from "@/lib/sources/claude-code/line-facts";

/** The typed arrays of one range's facts, moved to the main thread rather than copied. */
function transfer(r: ClaudeRangeFacts): ArrayBuffer[] {
  const c = r.columns;
  return [c.flags, c.timestamps, c.typeIndex, c.usageKind, c.usageTokens, c.listedKind, c.listedTokens, r.starts].map((a) => a.buffer as ArrayBuffer);
}

serveRangeStream(claudeRangeFacts, transfer);
