/** Worker entry of the Claude Code analysis: maps one byte range (see scan-claude.ts). */
import { mapClaudeRange } from "@/lib/analysis/claude-map";
import { columnBuffers } from "@/lib/columns/typed-columns";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(mapClaudeRange, columnBuffers);
