/** Seed 004's session status (active, completed, failed, …) adapted to transcripts. */
import type { CoreContext } from "@/lib/context";
import { agentEnding } from "@/lib/forensics/agent-session";
import { ACTIVE_WINDOW_MS, RESPONSE_PREVIEW_CHARS, STATUS_TAIL_LINES, type SessionEnding } from "@/lib/forensics/ending";
import { classifyRecord, type RecordFacts } from "@/lib/forensics/classify";
import { previewLine } from "@/lib/format/one-line";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { readAgentLines } from "@/lib/sources/agent-transcripts";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { workspaceLineFacts } from "@/lib/workspace/sessions";

export { ACTIVE_WINDOW_MS, RESPONSE_PREVIEW_CHARS, STATUS_TAIL_LINES, type SessionEnding, type StatusReason } from "@/lib/forensics/ending";

type Outcome = "reply" | "error" | "interrupted" | "trigger" | "tool" | null;

function outcomeOf(facts: RecordFacts): Outcome {
  if (facts.apiError !== null || facts.toolResults.some((r) => r.failed)) return "error";
  if (facts.interrupted) return "interrupted";
  if (facts.assistantReply) return "reply";
  if (facts.userText !== null) return "trigger";
  if (facts.toolCalls.length > 0 || facts.toolResults.length > 0) return "tool";
  return null;
}

const EXIT_COMMANDS = new Set(["exit", "quit"]);

/**
 * How a session ended (issue 9's adapted seed 004 status, issue 28's rules), from the last 400
 * lines of the main transcript read through the line index: `active` only when the last record's
 * OWN timestamp is within 10 minutes of `ctx.now()` and no `/exit` follows the last activity (a
 * copy's mtime never counts); else `errored` when the last outcome is an API error or a failed
 * tool result, else `completed` (with the reason: reply, interrupted, user_exit, no_reply).
 * Trailing local commands (`/export`, `/exit`, their output, injected context) are skipped when
 * finding the last outcome; `/exit` or `/quit` among them is the `user_exit` end marker when the
 * last turn got no reply. `last_response_preview` is the last agent reply's text, one line, ≤ 300 chars.
 * `windows`: the file's lines as another probe of the same index already read some of them.
 * A session of an agent read through the source contract (lib/sources/agents) ends by the same
 * rules on its records (lib/forensics/agent-session `agentEnding`).
 * @throws the fs error when the file cannot be read.
 */
export async function sessionEnding(ctx: CoreContext, filePath: string, index: LineIndex, source: string, windows = new LineWindows(filePath, index)): Promise<SessionEnding> {
  const lines = await readAgentLines(source, filePath, undefined, workspaceLineFacts(ctx));
  if (lines !== null) return agentEnding(lines, ctx.now().getTime());
  let lastMs: number | null = null;
  let outcome: Outcome = null;
  let preview: string | null = null;
  let exited = false;
  const localCommand = transcriptFormat(source)?.localCommand;
  if (index.lineCount > 0) {
    const from = Math.max(1, index.lineCount - STATUS_TAIL_LINES + 1);
    // Read backwards a window at a time: the answer is nearly always in the last few lines.
    for (let line = index.lineCount; line >= from; line--) {
      const text = (await windows.line(line, "start")).toString("utf8");
      const record = parseJsonObject(text);
      if (record === null) continue;
      const facts = classifyRecord(record, source);
      if (lastMs === null && facts.timestampMs !== null) lastMs = facts.timestampMs;
      const local = outcome === null ? (localCommand?.(record) ?? null) : null;
      if (local !== null) {
        if (EXIT_COMMANDS.has(local)) exited = true;
        continue;
      }
      const o = outcomeOf(facts);
      if (outcome === null && o !== null) outcome = o;
      if (preview === null && facts.assistantReply) preview = previewLine(buildCompactRecord({ line, text, source }).text_preview ?? assistantEventText(record), RESPONSE_PREVIEW_CHARS);
      if (outcome !== null && preview !== null && lastMs !== null) break;
    }
  }
  const recent = lastMs !== null && Math.abs(ctx.now().getTime() - lastMs) < ACTIVE_WINDOW_MS;
  if (recent && !exited) return { status: "active", reason: "recent", last_response_preview: preview };
  if (outcome === "error") return { status: "errored", reason: "error", last_response_preview: preview };
  if (outcome === "reply") return { status: "completed", reason: "reply", last_response_preview: preview };
  if (outcome === "interrupted") return { status: "completed", reason: "interrupted", last_response_preview: preview };
  return { status: "completed", reason: exited ? "user_exit" : "no_reply", last_response_preview: preview };
}

function assistantEventText(record: Record<string, unknown>): string | null {
  const payload = record.payload;
  if (typeof payload === "object" && payload !== null && typeof (payload as Record<string, unknown>).message === "string") return (payload as Record<string, string>).message!;
  return null;
}

