/** What the user asked in a session: its first real prompt, else Claude Code's own title, else the first slash command (issue 36 item 5). */
import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { agentRequest } from "@/lib/forensics/agent-session";
import { readableUserText } from "@/lib/format/display-text";
import { fileStamp } from "@/lib/fs/file-stamp";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { readAgentLines } from "@/lib/sources/agent-transcripts";
import { userTextKind } from "@/lib/sources/claude-code/user-text";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import { getWorkspaceLineIndex, workspaceLineFacts, type ResolvedSession } from "@/lib/workspace/sessions";

/**
 * The user's request in a session, as every page and tool shows it: `text` as a person reads it
 * (whole, not cut: each caller cuts it to its width), and where it came from — `prompt` (the
 * first human trigger the user typed), `summary` (Claude Code's `summary` record title for this
 * session, when no prompt was typed), `command` (the first slash command as typed,
 * `/wsd:init --custom`, when neither exists).
 */
export type SessionRequest = { text: string; kind: "prompt" | "summary" | "command" };

/** Turns whose trigger line is read looking for the first prompt (a session opening with this many commands in a row has its title or command shown instead). */
export const REQUEST_TURNS = 64;

const cache = stampedCache<SessionRequest | null>("forensics:session-request", 2 << 20);

/**
 * The session's {@link SessionRequest} (null when it has none: no trigger, or only output and
 * markers), by the one rule of lib/sources/claude-code/user-text: the trigger lines of its first
 * {@link REQUEST_TURNS} turns (contract §1.7 turn starts, read through the line index and compacted
 * as `read_session_lines` compacts them) are read in order and the first whose text is a
 * `prompt` is the request; slash commands, local command output, bash mode, compaction summaries
 * and interruption markers never are. With no prompt, the title of the last `summary` record in
 * the first 64 lines whose `leafUuid` is a record of this file (contract §2.7: foreign summaries
 * title other sessions) is used, else the first slash command. Cached per file version and turns.
 * `windows`: the file's lines as another probe of the same index reads them.
 * A session of an agent read through the source contract (lib/sources/agents) has its first
 * prompt's text as its request (lib/forensics/agent-session `agentRequest`).
 * @throws the fs error when the session file cannot be read.
 */
export async function readSessionRequest(ctx: CoreContext, session: ResolvedSession, windows?: LineWindows): Promise<SessionRequest | null> {
  const lines = await readAgentLines(session.row.source, session.filePath, undefined, workspaceLineFacts(ctx));
  if (lines !== null) return agentRequest(lines);
  const index = await getWorkspaceLineIndex(ctx, session.filePath);
  // The turns read are part of the version: a new index row may start them elsewhere.
  const stamp = `${fileStamp(index)}:${session.row.turns.slice(0, REQUEST_TURNS).map((t) => t.turn_start_line).join(",")}`;
  return cache.getOrBuild(session.filePath, stamp, async () => {
    const reader = windows ?? new LineWindows(session.filePath, index);
    const value = await findRequest(session, reader);
    return { value, bytes: 200 + 2 * ((value?.text.length ?? 0) + session.filePath.length) };
  });
}

async function findRequest(session: ResolvedSession, windows: LineWindows): Promise<SessionRequest | null> {
  let command: string | null = null;
  for (const turn of session.row.turns.slice(0, REQUEST_TURNS)) {
    if (turn.turn_start_line > windows.index.lineCount) break;
    const text = (await windows.line(turn.turn_start_line, "end")).toString("utf8");
    const record = buildCompactRecord({ line: turn.turn_start_line, text, source: session.row.source });
    // A turn starts at a user message (contract §1.7); an index row pointing elsewhere names no request.
    const preview = record.role === "user" ? record.text_preview : null;
    if (preview === null) continue;
    const kind = userTextKind(preview);
    if (kind === "prompt") return { text: preview, kind };
    if (kind === "command") command ??= readableUserText(preview);
  }
  const title = (await transcriptFormat(session.row.source)?.sessionTitle?.(windows)) ?? null;
  if (title !== null) return { text: title, kind: "summary" };
  return command === null ? null : { text: command, kind: "command" };
}
