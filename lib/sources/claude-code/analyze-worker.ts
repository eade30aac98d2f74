/** Worker entry of `analyzeClaudeTranscript`: reads byte ranges of a big transcript into line facts (issue 13), for a RangePool. */
import { columnBuffers } from "@/lib/columns/typed-columns";
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { claudeRangeFacts } from "@/lib/sources/claude-code/line-facts";

serveRangeStream(claudeRangeFacts, columnBuffers);
