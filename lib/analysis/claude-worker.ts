/** Worker entry of the Claude Code analysis: maps one byte range (see scan-claude.ts). */
import { mapClaudeRange } from "@/lib/analysis/claude-map";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(mapClaudeRange);
