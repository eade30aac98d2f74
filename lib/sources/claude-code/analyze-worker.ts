/** Worker entry of `analyzeClaudeTranscript`: reads one byte range of a big transcript into line facts (issue 13). */
import { serveRanges } from "@/lib/jsonl/parallel";
import { claudeRangeFacts } from "@/lib/sources/claude-code/line-facts";

serveRanges(claudeRangeFacts);
