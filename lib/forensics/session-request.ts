/** What the user asked in a session: its first real prompt, else Claude Code's own title, else the first slash command (issue 36 item 5). */
import fs from "node:fs/promises";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { agentRequest } from "@/lib/forensics/agent-session";
import { readableUserText } from "@/lib/format/display-text";
import { fileStamp } from "@/lib/fs/file-stamp";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { userTextKind } from "@/lib/sources/claude-code/user-text";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { getWorkspaceLineIndex, type ResolvedSession } from "@/lib/workspace/sessions";

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
/** Lines from the start read for `summary` records (Claude Code writes them before the conversation). */
const SUMMARY_HEAD_LINES = 64;
/** Bytes read at a time while looking for a summary's leaf in the file. */
const SEARCH_CHUNK_BYTES = 1 << 20;

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
  const transcript = await readAgentTranscript(session.row.source, session.filePath);
  if (transcript !== null) return agentRequest(transcript);
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
  const title = session.row.source === "claude-code" ? await summaryTitle(windows) : null;
  if (title !== null) return { text: title, kind: "summary" };
  return command === null ? null : { text: command, kind: "command" };
}

const SUMMARY_TYPE = Buffer.from('"summary"');

/** The title of the last `summary` record among the file's first lines whose `leafUuid` is a record of the file, else null. */
async function summaryTitle(windows: LineWindows): Promise<string | null> {
  const summaries: { title: string; leaf: string }[] = [];
  for (let line = 1; line <= Math.min(SUMMARY_HEAD_LINES, windows.index.lineCount); line++) {
    const bytes = await windows.line(line, "end");
    if (bytes.indexOf(SUMMARY_TYPE) === -1) continue;
    const record = parseJsonObject(bytes.toString("utf8"));
    const title = record?.type === "summary" ? nonBlankString(record.summary) : null;
    const leaf = record ? nonBlankString(record.leafUuid) : null;
    if (title !== null && leaf !== null) summaries.push({ title: title.trim(), leaf });
  }
  if (summaries.length === 0) return null;
  const local = await recordsInFile(windows.filePath, summaries.map((s) => s.leaf));
  return summaries.findLast((s) => local.has(s.leaf))?.title ?? null;
}

/** Which of `uuids` name a record of the file (`"uuid":"<id>"` as Claude Code writes it), in one read of the file that stops when all are found. */
async function recordsInFile(filePath: string, uuids: string[]): Promise<Set<string>> {
  const needles = new Map([...new Set(uuids)].map((u) => [u, Buffer.from(`"uuid":${JSON.stringify(u)}`)]));
  const found = new Set<string>();
  const overlap = Math.max(...[...needles.values()].map((n) => n.length)) - 1;
  const file = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(SEARCH_CHUNK_BYTES + overlap);
    let carried = 0;
    let position = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, carried, SEARCH_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const view = buf.subarray(0, carried + bytesRead);
      for (const [uuid, needle] of needles) {
        if (view.indexOf(needle) !== -1) {
          found.add(uuid);
          needles.delete(uuid);
        }
      }
      if (needles.size === 0) break;
      carried = Math.min(overlap, view.length);
      view.copy(buf, 0, view.length - carried);
    }
  } finally {
    await file.close();
  }
  return found;
}
