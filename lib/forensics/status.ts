import fs from "node:fs/promises";

import type { CoreContext } from "@/lib/context";
import { classifyRecord, type RecordFacts } from "@/lib/forensics/classify";
import { previewLine } from "@/lib/format/one-line";
import { readLineRange, type LineIndex } from "@/lib/jsonl/line-index";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { parseJsonObject } from "@/lib/sources/common/json-object";

/** Seed 004 status, adapted to transcripts. */
export type SessionStatus = "completed" | "active" | "errored";

/** Why a status was given: a file changed recently, the last turn's outcome. */
export type StatusReason = "recent" | "reply" | "error" | "no_reply";

/** A file changed within this many milliseconds counts as active (issue 9: 10 minutes). */
export const ACTIVE_WINDOW_MS = 10 * 60 * 1000;
/** Lines read from the end of the main transcript to find how it ended. */
export const STATUS_TAIL_LINES = 400;
/** `last_response_preview` length, in characters. */
export const RESPONSE_PREVIEW_CHARS = 300;

export type SessionEnding = { status: SessionStatus; reason: StatusReason; last_response_preview: string | null };

type Outcome = "reply" | "error" | "trigger" | "tool" | null;

function outcomeOf(facts: RecordFacts): Outcome {
  if (facts.apiError !== null || facts.toolResults.some((r) => r.failed)) return "error";
  if (facts.assistantReply) return "reply";
  if (facts.userText !== null || facts.interrupted) return "trigger";
  if (facts.toolCalls.length > 0 || facts.toolResults.length > 0) return "tool";
  return null;
}

/**
 * How a session ended (issue 9's adapted seed 004 status): `active` when the main transcript
 * changed in the last 10 minutes (by `ctx.now()`; its last record timestamp, else its mtime), else `errored` when its last outcome is an
 * API error or a failed tool result, `completed` when it is an agent reply, and `active`
 * (reason `no_reply`) when the last turn has no reply. Reads only the last 400 lines, through
 * the line index. `last_response_preview` is the last agent reply's text, one line, ≤ 300 chars.
 * @throws the fs error when the file cannot be read.
 */
export async function sessionEnding(ctx: CoreContext, filePath: string, index: LineIndex, source: string): Promise<SessionEnding> {
  let lastMs: number | null = null;
  let outcome: Outcome = null;
  let preview: string | null = null;
  if (index.lineCount > 0) {
    const from = Math.max(1, index.lineCount - STATUS_TAIL_LINES + 1);
    const lines = await readLineRange(filePath, index, from, index.lineCount);
    for (let i = lines.length - 1; i >= 0; i--) {
      const { line, text } = lines[i]!;
      const record = parseJsonObject(text);
      if (record === null) continue;
      const facts = classifyRecord(record, source);
      if (lastMs === null && facts.timestampMs !== null) lastMs = facts.timestampMs;
      const o = outcomeOf(facts);
      if (outcome === null && o !== null) outcome = o;
      if (preview === null && facts.assistantReply) preview = previewLine(buildCompactRecord({ line, text, source }).text_preview ?? assistantEventText(record), RESPONSE_PREVIEW_CHARS);
      if (outcome !== null && preview !== null && lastMs !== null) break;
    }
  }
  // A prepared workspace holds copies whose mtime is the copy time: the last record's own
  // timestamp stands for the file's last change; the mtime only when no record has one.
  const changedMs = lastMs ?? (await fs.stat(filePath)).mtimeMs;
  const recent = Math.abs(ctx.now().getTime() - changedMs) < ACTIVE_WINDOW_MS;
  if (recent) return { status: "active", reason: "recent", last_response_preview: preview };
  if (outcome === "error") return { status: "errored", reason: "error", last_response_preview: preview };
  if (outcome === "reply") return { status: "completed", reason: "reply", last_response_preview: preview };
  return { status: "active", reason: "no_reply", last_response_preview: preview };
}

function assistantEventText(record: Record<string, unknown>): string | null {
  const payload = record.payload;
  if (typeof payload === "object" && payload !== null && typeof (payload as Record<string, unknown>).message === "string") return (payload as Record<string, string>).message!;
  return null;
}

