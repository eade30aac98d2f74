/**
 * The request, ending and notes of a session of an agent read through the source contract
 * (issue 38, lib/sources/agents), from its records: the same answers
 * lib/forensics/session-request and lib/forensics/status give Claude Code and Codex sessions.
 */
import type { SessionRequest } from "@/lib/forensics/session-request";
import { ACTIVE_WINDOW_MS, RESPONSE_PREVIEW_CHARS, type SessionEnding } from "@/lib/forensics/ending";
import { previewLine } from "@/lib/format/one-line";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import { agentLines, type AgentLines, type AgentRecord, type AgentSession, type AgentTranscript } from "@/lib/sources/common/agent-source";

/** The `absent` entry of an agent whose records carry their run's start instead of a time of their own. */
export const NO_LINE_TIMES = "per-line times";

/** What the Timeline says of such a session's times (its rows all show the run's start). */
export const RUN_START_TIMES_NOTE = "Times are the run's start: this agent records no time per line.";

/**
 * The prompt that starts at trigger record `record` as `read_session_lines` shows it (its compact
 * record's text: the trigger's words with those of the user lines right after it,
 * lib/session-reader/compact-agent), or null when it has none.
 */
export function promptText(transcript: AgentSession, record: AgentRecord): string | null {
  return compactAgentBody(transcript, record.line)?.text_preview ?? null;
}

/**
 * The user's request in an agent session ({@link SessionRequest}, kind `prompt`): the text of the
 * first trigger whose prompt has any ({@link promptText}), whole; null when no trigger has text.
 */
export function agentRequest(session: AgentSession): SessionRequest | null {
  const lines = agentLines(session);
  for (let line = 1; line <= lines.lineCount; line++) {
    const record = lines.record(line)!;
    const text = record.trigger ? promptText(lines, record) : null;
    if (text !== null) return { text, kind: "prompt" };
  }
  return null;
}

/** An agent's text reply: an assistant record with text of its own and no tool call. */
export function isAgentReply(record: AgentRecord): boolean {
  return record.role === "assistant" && record.calls.length === 0 && record.text.trim() !== "";
}

type Outcome = "reply" | "error" | "trigger" | "tool" | null;

function outcomeOf(record: AgentRecord): Outcome {
  if (record.isError) return "error";
  if (record.trigger || record.role === "user") return "trigger";
  if (isAgentReply(record)) return "reply";
  if (record.calls.length > 0 || record.results.length > 0) return "tool";
  return null;
}

/**
 * How an agent session ended, by lib/forensics/status's rules on its records: `active` when the
 * last record with a time (in line order) is within 10 minutes of `nowMs` (for an agent without
 * per-line times, its run's start); else `errored` when the last outcome (walking back over the
 * records: an error, a user prompt, an agent reply, a tool call or result; other records such as
 * run ends and step markers pass) is an error, `completed` with reason `reply` when it is a reply,
 * else `completed` (`no_reply`). `last_response_preview` is the last agent reply — that record's
 * text with the replies right before it (a reply a reader gives one record a line), blank and
 * role-less records between them passed — on one line, at most 300 characters.
 */
export function agentEnding(session: AgentSession, nowMs: number): SessionEnding {
  const lines = agentLines(session);
  let lastMs: number | null = null;
  let outcome: Outcome = null;
  for (let line = lines.lineCount; line >= 1 && (lastMs === null || outcome === null); line--) {
    const r = lines.record(line)!;
    if (lastMs === null && r.time !== null && !Number.isNaN(Date.parse(r.time))) lastMs = Date.parse(r.time);
    outcome ??= outcomeOf(r);
  }
  const preview = previewLine(lastReplyText(lines), RESPONSE_PREVIEW_CHARS);
  if (lastMs !== null && Math.abs(nowMs - lastMs) < ACTIVE_WINDOW_MS) return { status: "active", reason: "recent", last_response_preview: preview };
  if (outcome === "error") return { status: "errored", reason: "error", last_response_preview: preview };
  if (outcome === "reply") return { status: "completed", reason: "reply", last_response_preview: preview };
  return { status: "completed", reason: "no_reply", last_response_preview: preview };
}

/**
 * The last agent message's words (its compact record's text: without its tool calls' words), with
 * those of the replies right before it, or null when the agent never wrote any.
 */
function lastReplyText(lines: AgentLines): string | null {
  const said = (r: AgentRecord) => (r.role === "assistant" ? (compactAgentBody(lines, r.line)?.text_preview ?? null) : null);
  let last = lines.lineCount;
  let text: string | null = null;
  while (last >= 1 && (text = said(lines.record(last)!)) === null) last--;
  if (text === null) return null;
  const parts = [text.trim()];
  let chars = parts[0]!.length;
  // A reply a reader gives one record a line: the lines before it join it, until the preview is full.
  for (let i = last - 1; i >= 1 && chars <= RESPONSE_PREVIEW_CHARS; i--) {
    const r = lines.record(i)!;
    if (isAgentReply(r)) {
      parts.unshift(r.text.trim());
      chars += r.text.length + 1;
    } else if (r.role !== null || r.text.trim() !== "") break;
  }
  return parts.join("\n");
}

/**
 * The paths the session's tool calls name (`AgentToolCall.files`), each once, sorted (the agent
 * scan keeps them: lib/forensics/agent-scan).
 */
export function filesTouched(transcript: AgentTranscript): string[] {
  const seen = new Set<string>();
  for (const r of transcript.records) for (const c of r.calls) for (const f of c.files) if (f.trim() !== "") seen.add(f);
  return [...seen].sort();
}
