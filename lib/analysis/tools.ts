/** The analysis domain's registered tools: `analyze_session`, `read_chat_export`. */
import * as z from "zod";

import { analyzeSession, getChatExport } from "@/lib/analysis/session-analysis";
import { analyzeSessionInputSchema } from "@/lib/analysis/schema";
import { defineTool } from "@/lib/tools/define-tool";

/** `analyze_session` (issue 10, seed 003): context resets, risk, tokens, reads, persistence, export. */
export const analyzeSessionTool = defineTool({
  name: "analyze_session",
  title: "Analyze session (context resets, phantom-read risk)",
  description:
    "Seed 003 analysis of one indexed session: context resets (cache_read_input_tokens drops of more than `threshold` tokens, default 10000) with line, from/to tokens and position; risk_level (low 0-1 resets, high 2+); the token progression per assistant record; every Read with its batch, success, persisted/inline and whether a reset came before the agent used it; persisted tool outputs; phantom-read markers found in tool_result content only; Workscope ID and the paired chat export. Codex sessions get tokens and resets from token_count events; figures a source does not record are null with a reason. Read-only.",
  readOnly: true,
  input: analyzeSessionInputSchema,
  inputHint: "pass {project_key, session_ref, threshold?} (threshold: tokens, integer ≥ 1)",
  run: (ctx, input) => analyzeSession(ctx, input),
});

/** The dashboard's chat-export pane (seed 003 Q2): the paired export with its tool lines linked to transcript lines. */
export const readChatExportTool = defineTool({
  name: "read_chat_export",
  title: "Read chat export",
  description: "The /export chat export paired with a session by Workscope ID, as lines, with its tool lines linked to the transcript lines of the same tool calls. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1), session_ref: z.string().min(1) }),
  inputHint: "pass {project_key, session_ref}",
  run: (ctx, input) => getChatExport(ctx, input),
});

export const analysisTools = [analyzeSessionTool, readChatExportTool];
