import { streamPhysicalLines } from "@/lib/jsonl/stream-lines";
import { parseJsonObject } from "@/lib/sources/common/json-object";

/** What discovery learns from the head of a transcript. */
export type ClaudeProbe = {
  /** `isSidechain` of the first record that carries a boolean one (false when none does). */
  isSidechain: boolean;
  /** First non-blank top-level `sessionId` string, or null. */
  sessionId: string | null;
};

/** Lines read at most; real files carry the envelope on line 1–20 (after summaries/snapshots). */
export const PROBE_MAX_LINES = 64;

/**
 * Reads only the first records of a transcript to tell a sidechain (subagent) file from a main
 * session and to learn its `sessionId`. Sidechain files carry `isSidechain: true` on every
 * record, so the first enveloped record decides; `analyzeClaudeTranscript` remains the
 * authoritative any-record check. Stops once both facts are known or after
 * {@link PROBE_MAX_LINES} lines.
 * @throws the fs error when the file cannot be read.
 */
export async function probeClaudeTranscript(filePath: string): Promise<ClaudeProbe> {
  let isSidechain: boolean | null = null;
  let sessionId: string | null = null;
  for await (const { line, text } of streamPhysicalLines(filePath)) {
    const record = parseJsonObject(text);
    if (record !== null) {
      if (isSidechain === null && typeof record.isSidechain === "boolean") isSidechain = record.isSidechain;
      if (sessionId === null && typeof record.sessionId === "string" && record.sessionId.trim() !== "") {
        sessionId = record.sessionId;
      }
    }
    if ((isSidechain !== null && sessionId !== null) || line >= PROBE_MAX_LINES) break;
  }
  return { isSidechain: isSidechain ?? false, sessionId };
}
