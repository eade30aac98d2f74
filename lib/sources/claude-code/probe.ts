/** The head of a Claude Code transcript read to tell a subagent file from a main session. */
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
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
 * Reads of 64 KiB (the few head lines are all a probe wants), with room for a line of up to 1 MiB
 * carried over, made on this thread: the thread pool's open, stat, read and close cost ~75 µs of
 * CPU each, several times such a read (issue 25: discovery probes 20,000 heads).
 */
const PROBE_READ = { chunkBytes: 64 << 10, headroomBytes: 1 << 20, syncReads: true };

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
  await forEachLineBytes(filePath, PROBE_READ, (line, bytes, start, end) => {
    const record = parseJsonObject(bytes.toString("utf8", start, end));
    if (record !== null) {
      if (isSidechain === null && typeof record.isSidechain === "boolean") isSidechain = record.isSidechain;
      if (sessionId === null && typeof record.sessionId === "string" && record.sessionId.trim() !== "") {
        sessionId = record.sessionId;
      }
    }
    return !((isSidechain !== null && sessionId !== null) || line >= PROBE_MAX_LINES);
  });
  return { isSidechain: isSidechain ?? false, sessionId };
}
