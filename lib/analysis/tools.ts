/** The analysis domain's registered tools: `analyze_session`, `read_chat_export`. */
import * as z from "zod";

import { analysisViewInputSchema, analyzeSession, getChatExport, readAnalysisSummary, readTokenChart } from "@/lib/analysis/session-analysis";
import { analyzeSessionInputSchema } from "@/lib/analysis/schema";
import { defineReadTool } from "@/lib/tools/define-tool";

/** `analyze_session` (issue 10, seed 003): context resets, risk, tokens, reads, persistence, export. */
export const analyzeSessionTool = defineReadTool({
  name: "analyze_session",
  title: "Analyze session (context resets, phantom-read risk)",
  description:
    "Seed 003 analysis of one indexed session: context resets (cache_read_input_tokens drops of more than `threshold` tokens, default 10000) with line, from/to tokens and position; risk_level (low 0-1 resets, high 2+); the token progression per assistant record; every Read with its batch, success, persisted/inline and whether a reset came before the agent used it; persisted tool outputs; phantom-read markers found in tool_result content only; Workscope ID and the paired chat export. Codex sessions get tokens and resets from token_count events; figures a source does not record are null with a reason. Read-only.",
  input: analyzeSessionInputSchema,
  inputHint: "pass {project_key, session_ref, threshold?} (threshold: tokens, integer ≥ 1)",
  run: analyzeSession,
});

/** The dashboard's chat-export pane (seed 003 Q2): the paired export with its tool lines linked to transcript lines. */
export const readChatExportTool = defineReadTool({
  name: "read_chat_export",
  title: "Read chat export",
  description: "The /export chat export paired with a session by Workscope ID, as lines, with its tool lines linked to the transcript lines of the same tool calls. Read-only.",
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1), session_ref: z.string().min(1) }),
  inputHint: "pass {project_key, session_ref}",
  run: getChatExport,
});

/** The Analysis tab's facts and tables (issue 29): `analyze_session` with each list cut to `rows` and counted, no token points. */
export const readAnalysisSummaryTool = defineReadTool({
  name: "read_analysis_summary",
  title: "Read analysis summary",
  description: "The Analysis tab's view of analyze_session: every figure, each list (resets, reads, persisted non-reads) cut to its first `rows` entries with its length, markers and token points counted, not listed. Read-only.",
  audience: "dashboard",
  input: analysisViewInputSchema,
  inputHint: "pass {project_key, session_ref, threshold?, rows?} (rows: integer ≥ 1; all when left out)",
  run: readAnalysisSummary,
});

/** The Analysis tab's token chart (issue 29): the thinned token series as columns and the reset markers. */
export const readTokenChartTool = defineReadTool({
  name: "read_token_chart",
  title: "Read token chart",
  description: "The token chart of analyze_session as the Analysis tab draws it: at most 2,000 points (each stretch's lowest and highest cache read, every marked reset's point) as columns line/cache_read/cache_creation/input (the figures drawn), and at most 400 reset markers (the largest drop per stretch of lines), with the totals of both. Read-only.",
  audience: "dashboard",
  input: analyzeSessionInputSchema,
  inputHint: "pass {project_key, session_ref, threshold?}",
  run: readTokenChart,
});

export const analysisTools = [analyzeSessionTool, readChatExportTool, readAnalysisSummaryTool, readTokenChartTool];
