/** The workspace file lines of one Gemini CLI session (agent-formats.md §1, "Legacy format", "JSONL format"). */
import fs from "node:fs/promises";

import { jsonLine, type FoundSession, type SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { physicalLines } from "@/lib/jsonl/text-lines";

/**
 * The lines of a session's workspace file, without terminators:
 * - a `.jsonl` session (2026-04 onward) is already one record per line: its physical lines,
 *   unchanged (a byte copy; a half-written last line stays as it is, for parseLines to flag);
 * - a legacy `.json` session (one object `{sessionId, projectHash, startTime, lastUpdated,
 *   messages[], summary?}`) becomes line 1 = the object without `messages` (every other key kept,
 *   `summary` included), then one {@link jsonLine} per original message, so a line's number stays
 *   the same while the session grows. The same grammar as JSONL: parseLines reads both alike.
 * A file that cannot be read, or a legacy file that is not one JSON object, gives no lines and a
 * warning; never throws.
 */
export async function exportGeminiLines(session: FoundSession): Promise<{ lines: string[]; warnings: SourceWarning[] }> {
  const file = session.sourcePath;
  const bytes = await fs.readFile(file).catch(() => null);
  if (bytes === null) return { lines: [], warnings: [{ file, where: "file", problem: "cannot be read" }] };
  const text = bytes.toString("utf8");
  if (file.endsWith(".jsonl")) return { lines: physicalLines(text), warnings: [] };
  return legacyLines(text, file);
}

/**
 * The objects the lines of a legacy session were made from, `[i]` for line `i + 1` (null for a line
 * that is not an object's), by the lines exported: parseGeminiLines takes them instead of parsing
 * each line again (issue 38: prepare exports a chat and reads it back at once). Taken once, and
 * held no longer than the lines (prepare keeps the lines until it writes them).
 */
const exportedObjects = new WeakMap<readonly string[], readonly (JsonObject | null)[]>();

/** The objects `lines` were exported from when {@link legacyLines} made them and nothing took them yet, else undefined. */
export function takeExportedObjects(lines: readonly string[]): readonly (JsonObject | null)[] | undefined {
  const objects = exportedObjects.get(lines);
  exportedObjects.delete(lines);
  return objects;
}

/** Header line plus one line per message of a legacy `.json` session (see {@link exportGeminiLines}). */
export function legacyLines(text: string, file: string): { lines: string[]; warnings: SourceWarning[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { lines: [], warnings: [{ file, where: "file", problem: `not valid JSON (${(error as Error).message})` }] };
  }
  if (!isJsonObject(value)) return { lines: [], warnings: [{ file, where: "file", problem: "not a Gemini session object" }] };
  const { messages, ...header } = value;
  const lines = [jsonLine(header)];
  if (!Array.isArray(messages)) {
    const problem = messages === undefined ? "no messages list" : "messages is not a list; not exported";
    return { lines, warnings: [{ file, where: "key messages", problem }] };
  }
  const objects: (JsonObject | null)[] = [header];
  for (const message of messages) {
    lines.push(jsonLine(message));
    objects.push(isJsonObject(message) ? message : null);
  }
  exportedObjects.set(lines, objects);
  return { lines, warnings: [] };
}
