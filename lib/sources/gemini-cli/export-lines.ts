/** The workspace file lines of one Gemini CLI session (agent-formats.md §1, "Legacy format", "JSONL format"). */
import { readFileSync } from "node:fs";

import { jsonLine, type ExportedLines, type FoundSession } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { byteCopyLines } from "@/lib/jsonl/text-lines";

/**
 * The lines of a session's workspace file, without terminators:
 * - a `.jsonl` session (2026-04 onward) is already one record per line: its physical lines,
 *   unchanged (a byte copy; a half-written last line stays as it is, for parseLines to flag), and
 *   the file's `bytes` when they are those lines each followed by `\n` (lib/jsonl/text-lines
 *   byteCopyLines);
 * - a legacy `.json` session (one object `{sessionId, projectHash, startTime, lastUpdated,
 *   messages[], summary?}`) becomes line 1 = the object without `messages` (every other key kept,
 *   `summary` included), then one {@link jsonLine} per original message, so a line's number stays
 *   the same while the session grows, with the `objects` the lines were made from (parseLines
 *   takes them: issue 38, prepare exports a chat and reads it back at once). The same grammar as
 *   JSONL: parseLines reads both alike.
 * A file that cannot be read, or a legacy file that is not one JSON object, gives no lines and a
 * warning; never throws.
 */
export async function exportGeminiLines(session: FoundSession): Promise<ExportedLines> {
  const file = session.sourcePath;
  // Read on the calling thread (prepare's worker has nothing else to do meanwhile; a sync reads a few).
  const bytes = readOrNull(file);
  if (bytes === null) return { lines: [], warnings: [{ file, where: "file", problem: "cannot be read" }] };
  if (!file.endsWith(".jsonl")) return legacyLines(bytes.toString("utf8"), file);
  return { ...byteCopyLines(bytes), warnings: [] };
}

/** Header line plus one line per message of a legacy `.json` session, with the objects they were made from (see {@link exportGeminiLines}). */
export function legacyLines(text: string, file: string): ExportedLines {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { lines: [], warnings: [{ file, where: "file", problem: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!isJsonObject(value)) return { lines: [], warnings: [{ file, where: "file", problem: "not a Gemini session object" }] };
  const { messages, ...header } = value;
  const lines = [jsonLine(header)];
  const objects: (JsonObject | null)[] = [header];
  if (!Array.isArray(messages)) {
    const problem = messages === undefined ? "no messages list" : "messages is not a list; not exported";
    return { lines, warnings: [{ file, where: "key messages", problem }], objects };
  }
  for (const message of messages) {
    lines.push(jsonLine(message));
    objects.push(isJsonObject(message) ? message : null);
  }
  return { lines, warnings: [], objects };
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
