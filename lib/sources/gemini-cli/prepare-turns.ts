/**
 * Prepare's turns-only replay of a Gemini CLI workspace file (issue 38 speed): the same turns,
 * prompt times and warnings as {@link parseGeminiLines}, read from each line's bytes by the SIMD
 * scan kernel (lib/jsonl/json-scan) without `JSON.parse` of whole messages.
 */
import { isUtf8 } from "node:buffer";

import type { ExportedLines, PreparedTurns, SourceWarning } from "@/lib/sources/common/agent-source";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { MemberLines } from "@/lib/sources/common/json-members";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { isKnownMessageType, partsText } from "@/lib/sources/gemini-cli/message-facts";
import { GeminiReplay } from "@/lib/sources/gemini-cli/replay";

/** Top-level keys the replay reads, by name; every other member is checked and stepped over. */
const KEYS = ["id", "type", "content", "timestamp", "$set", "$rewindTo", "sessionId", "projectHash"] as const;

/**
 * The turns (a trigger's line to the line before the next), each turn's prompt time (ISO `Z` or
 * null) and the warnings that {@link parseGeminiLines} gives for `exported`'s lines (`file` names
 * them), replayed as it does (same-id replacement takes the older line's trigger unless it came
 * from a `$set`; `$set.messages` and `$rewindTo` reshape the list; a subagent header stops
 * triggers) reading only `id`, `type`, `timestamp` and a user message's `content` of each message
 * (a header, a `$set` or an unknown record, small and rare, is parsed).
 * Null — the caller parses the lines in full — unless the export holds its `bytes` (no line holds
 * a break), they are UTF-8, and every line is one valid JSON object (no blank, malformed or
 * continued line) with no escaped top-level key. Never throws.
 */
export function prepareGeminiTurns(exported: ExportedLines, file: string): PreparedTurns | null {
  const data = exported.bytes;
  if (data === undefined || exported.objects !== undefined || !isUtf8(data)) return null;
  const scan = new MemberLines(data, KEYS);
  const { b, end } = scan;
  const json = (span: [number, number] | undefined): unknown => scan.json(span);
  const isString = (span: [number, number] | undefined): boolean => scan.isString(span);

  // The bytes are the lines, each followed by `\n` (their strings are not read: not decoded).
  let lineCount = 0;
  for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, nl + 1)) lineCount++;
  const triggers = new Uint8Array(lineCount + 1);
  const times = new Map<number, string | null>();
  const warnings: SourceWarning[] = [];
  // The full read's replay: its records of the rare structural lines are made and dropped.
  const replay = new GeminiReplay();

  let start = scan.start;
  for (let line = 1; line <= lineCount; line++) {
    const nl = b.indexOf(0x0a, start);
    const lineEnd = nl === -1 || nl > end ? end : nl;
    const members = scan.members(start, lineEnd);
    const lineStart = start;
    start = lineEnd + 1;
    if (members === null) return null;
    if (isString(members.$rewindTo)) replay.rewind(line, json(members.$rewindTo) as string);
    else if (isString(members.id)) {
      const rawType = json(members.type);
      const type = typeof rawType === "string" && rawType !== "" ? rawType : "message";
      if (!isKnownMessageType(type)) warnings.push({ file, where: `line ${line}`, problem: `unknown message type "${type}"; shown as text` });
      if (type === "user" && !replay.subagent && !partsText(json(members.content)).trimStart().startsWith("<session_context>")) {
        triggers[line] = 1;
        const ms = parseAwareTimestamp(json(members.timestamp));
        times.set(line, ms === null ? null : new Date(ms).toISOString());
      }
      replay.message(line, json(members.id) as string);
    } else if (scan.isObject(members.$set)) replay.set(line, json(members.$set) as JsonObject);
    else if (line === 1 || (isString(members.sessionId) && isString(members.projectHash))) replay.header(line, JSON.parse(b.toString("utf8", lineStart, lineEnd)) as JsonObject);
    else {
      // An unknown record (rare): parsed to name it as parse.ts does.
      const value = JSON.parse(b.toString("utf8", lineStart, lineEnd)) as JsonObject;
      const type = typeof value.type === "string" && value.type !== "" ? value.type : (Object.keys(value)[0] ?? "unknown");
      warnings.push({ file, where: `line ${line}`, problem: `unknown record "${type}"; shown as text` });
    }
  }
  // An older version of a message gives up its trigger to the line that restated it.
  for (const line of replay.superseded) triggers[line] = 0;

  const starts: number[] = [];
  for (let line = 1; line <= lineCount; line++) if (triggers[line] === 1) starts.push(line);
  const turns = starts.map((s, i) => ({ turn_start_line: s, turn_end_line: (starts[i + 1] ?? lineCount + 1) - 1 }));
  return { turns, promptTimes: starts.map((s) => times.get(s) ?? null), warnings };
}
