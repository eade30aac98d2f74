/** The workspace file lines of one Gemini CLI session (agent-formats.md §1, "Legacy format", "JSONL format"). */
import { jsonLine, type ExportedLines, type ExportScratch, type FoundSession } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { readAsRead } from "@/lib/sources/common/read-as-read";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import { scanLegacyChat } from "@/lib/sources/gemini-cli/legacy-scan";

/**
 * The lines of a session's workspace file, without terminators:
 * - a `.jsonl` session (2026-04 onward) is already one record per line: its physical lines,
 *   unchanged (a byte copy; a half-written last line stays as it is, for parseLines to flag), and
 *   the file's `bytes` when they are those lines each followed by `\n`, the lines then decoded
 *   only when read (lib/jsonl/text-lines lazyByteCopyLines), with `copyOf` the file as read;
 * - a legacy `.json` session (one object `{sessionId, projectHash, startTime, lastUpdated,
 *   messages[], summary?}`) becomes line 1 = the object without `messages` (every other key kept,
 *   `summary` included), then one line per original message, so a line's number stays the same
 *   while the session grows ({@link legacyLines}). The same grammar as JSONL: parseLines reads both alike.
 * A file that cannot be read, or a legacy file that is not one JSON object, gives no lines and a
 * warning; never throws. With a `scratch` (prepare's), the file is read into its slot 0 and a
 * legacy chat's bytes built in its slot 1.
 */
export async function exportGeminiLines(session: FoundSession, scratch?: ExportScratch): Promise<ExportedLines> {
  const file = session.sourcePath;
  // Read on the calling thread (prepare's worker has nothing else to do meanwhile; a sync reads a few).
  const read = readAsRead(file, scratch);
  if ("error" in read) return { lines: [], warnings: [{ file, where: "file", problem: "cannot be read" }] };
  const { bytes, asRead } = read;
  if (!file.endsWith(".jsonl")) return legacyLines(bytes, file, scratch);
  // Lines decoded only if read: prepare's turns come from the bytes (prepare-turns.ts).
  const lines = lazyByteCopyLines(bytes);
  return Object.assign(lines, { warnings: [] }, lines.bytes === bytes && asRead.size === bytes.length ? { copyOf: asRead } : {});
}

/**
 * Header line plus one line per message of a legacy `.json` session (see {@link exportGeminiLines}):
 * each line its value's bytes without the whitespace outside strings, with the file's `bytes` when
 * it reads that way in one pass (lib/sources/gemini-cli/legacy-scan; issue 38 speed: no parse and
 * re-serialization of the document; parseLines parses each line once); else the document parsed
 * whole ({@link parsedLegacyLines}: its warning for a malformed file, its lines for an odd one).
 */
export function legacyLines(data: Buffer, file: string, scratch?: ExportScratch): ExportedLines {
  const scanned = scanLegacyChat(data, scratch);
  return scanned === null ? parsedLegacyLines(data.toString("utf8"), file) : Object.assign(scanned, { warnings: [] });
}

/**
 * {@link legacyLines} by `JSON.parse` of the whole text: line 1 = `jsonLine` of the object without
 * `messages`, then `jsonLine` of each message, with the `objects` the lines were made from (parseLines
 * takes them); no lines and a warning when the text is not JSON, a warning when it has no `messages` list.
 */
export function parsedLegacyLines(text: string, file: string): ExportedLines {
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
