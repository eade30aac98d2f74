/** One window of lines for the dashboard viewer, main session or a subagent. */
import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { readLineRange } from "@/lib/jsonl/line-index";
import { checkRange, readCompactRecords, toFullRecord } from "@/lib/session-reader/read-session-lines";
import { VIEWER_RAW_CLIP_BYTES, type ReadMode, type ViewerCompactRecord, type ViewerFullRecord, type ViewerLinesResult } from "@/lib/session-reader/schema";
import { agentViewerExtras, compactViewerExtras, viewerExtras } from "@/lib/session-reader/viewer-extras";
import { lineView, type ToolCallNames } from "@/lib/session-reader/headline";
import { readAgentLines } from "@/lib/sources/agent-transcripts";
import { getSession, getWorkspaceLineIndex, resolveSubagentFile, workspaceIndexDir, workspaceLineFacts } from "@/lib/workspace/sessions";

export type ViewerLinesQuery = { projectKey: string; sessionRef: string; start: number; end: number; mode: ReadMode; agent?: string };

/**
 * One window of lines for the dashboard viewer: the main session, or one of its subagent
 * transcripts (`agent`). Same records as `read_session_lines`, with the same range caps, except
 * that full-mode raw lines over 256 KiB are clipped for display (`clipped: true`; `raw_bytes`
 * and `raw_sha256` still describe the whole line), and that every record carries `view`, what
 * the viewer renders from the raw line beyond the contract's record (issue 12: slash commands,
 * system/summary/progress text, timestamp, filter group). An agent session's extras come from
 * the whole file's replay (lib/sources/agent-transcripts `readAgentLines`, as its compact records do).
 * @throws AppError not_found (unknown project/session/agent), invalid_input (bad range).
 */
export async function readViewerLines(ctx: CoreContext, query: ViewerLinesQuery): Promise<ViewerLinesResult> {
  const session = await getSession(ctx, query.projectKey, query.sessionRef);
  const filePath = query.agent ? await resolveSubagentFile(session, query.agent) : session.filePath;
  const index = await getWorkspaceLineIndex(ctx, filePath);
  const problem = checkRange(query.start, query.end, index.lineCount, query.mode);
  if (problem) throw new AppError("invalid_input", problem.message, { hint: problem.hint, fieldErrors: { [problem.field]: [problem.message] } });
  const source = session.row.source;
  // Read before the compact window, which then finds these lines read (lib/sources/agent-transcripts).
  const agent = await readAgentLines(source, filePath, { start: query.start, end: query.end }, workspaceLineFacts(ctx));
  // An agent's compact records and extras come off its records: its raw lines are read for full mode only.
  const lines = agent === null || query.mode === "full" ? await readLineRange(filePath, index, query.start, query.end) : [];
  // An agent's history written as text (Markdown, not JSONL): its lines are not malformed JSON.
  const textLines = agent !== null && !filePath.endsWith(".jsonl");
  // Results name their calls within the window (a call in an earlier window leaves "Result").
  const calls: ToolCallNames = new Map();
  const records =
    query.mode === "compact"
      ? (await readCompactRecords(filePath, index, query.start, query.end, source, workspaceIndexDir(ctx), ctx.log)).map((record, i): ViewerCompactRecord => {
          if (agent !== null) return { ...record, view: agentViewerExtras(agent, record.line, textLines, record) };
          const text = lines[i]?.line === record.line ? lines[i]!.text : "";
          return { ...record, view: { ...compactViewerExtras(text, source, record), ...lineView(text, source, record, calls) } };
        })
      : lines.map((l): ViewerFullRecord => {
          const full = toFullRecord(l.line, l.text);
          const view = agent !== null ? agentViewerExtras(agent, l.line, textLines) : viewerExtras(l.text, source);
          if (full.raw_bytes <= VIEWER_RAW_CLIP_BYTES) return { ...full, clipped: false, view };
          return { ...full, raw_line: clipUtf8(l.text, VIEWER_RAW_CLIP_BYTES), clipped: true, view };
        });
  return { status: "ok", line_count: index.lineCount, line_range: { start: query.start, end: query.end }, mode: query.mode, records };
}

function clipUtf8(text: string, maxBytes: number): string {
  // A UTF-16 unit is at most 3 UTF-8 bytes; slice generously, then trim to the byte budget.
  let out = text.slice(0, maxBytes);
  while (Buffer.byteLength(out, "utf8") > maxBytes) out = out.slice(0, Math.floor(out.length * 0.9));
  return out;
}
