/**
 * A window's records of a Gemini CLI workspace file without the whole read (issue 38 speed: a
 * 2,000-line compact window of a 12 MB chat): the chat is replayed from each line's ids, found by
 * the SIMD scan kernel (lib/sources/common/json-members) without `JSON.parse` of whole messages,
 * and a message line is parsed only when its record is asked for.
 */
import type { AgentLines, AgentRecord, AgentToolCall, SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { MemberLines } from "@/lib/sources/common/json-members";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import { messageRecord, unknownRecord } from "@/lib/sources/gemini-cli/parse";
import { GeminiReplay } from "@/lib/sources/gemini-cli/replay";

/** Top-level keys the replay reads, by name; every other member is checked and stepped over. */
const KEYS = ["id", "$set", "$rewindTo", "sessionId", "projectHash", "toolCalls"] as const;

/** What a line holds, for the records made on demand. */
const MESSAGE = 1;
const UNKNOWN = 2;

/** What replay reads of a line: its kind's key, the message's id and its calls' ids, a structural line's object. */
type LineKeys =
  | { kind: "rewind"; target: string }
  | { kind: "message"; id: string; callIds: string[]; value: JsonObject | null }
  | { kind: "set"; set: JsonObject }
  | { kind: "header"; value: JsonObject }
  | { kind: "unknown"; value: JsonObject | null };

/**
 * The lines of Gemini workspace file `data` (`file` names it) as {@link parseGeminiLines} reads
 * them: `record(line)` equals its `records[line - 1]` (events, replaced versions' dropped calls,
 * triggers and subagent tasks included), `firstCall` and `firstRewindLine` answer as its records
 * would. One pass over the bytes replays the chat from each line's `id`, `$set`, `$rewindTo`,
 * header keys and its `toolCalls[].id`: the lines of `window` (1-based, inclusive: those whose
 * records will be asked for) are parsed, the others read by the scan kernel (headers, `$set` and
 * `$rewindTo` lines parsed: small and rare); a message or unknown record is made when first asked
 * for, and kept. Null — the caller parses the lines in full — unless `data` is UTF-8 whose only
 * breaks are `\n`, ending with one, and every line is one valid JSON object (outside the window
 * with no escaped key where the replay reads keys: top level, `toolCalls` items). Never throws.
 */
export function readGeminiLines(data: Buffer, file: string, window?: { start: number; end: number }): AgentLines | null {
  if (lazyByteCopyLines(data).bytes === undefined) return null;
  // Loaded into the kernel's memory only when a line outside the window is met.
  let scan: MemberLines<(typeof KEYS)[number]> | null = null;
  const replay = new GeminiReplay();
  // Each line's first byte in `data` (one past the last: the end).
  const starts: number[] = [];
  const kinds: number[] = [0];
  const built = new Map<number, AgentRecord>();
  // Objects of the window's lines, until their records are made.
  const objects = new Map<number, JsonObject>();
  // The lines whose calls have an id, in line order, by id (a line once per id).
  const callLines = new Map<string, number[]>();
  // The first line after a subagent header (user messages from then on are the parent agent's task).
  let subagentFrom = Infinity;

  let line = 0;
  for (let start = 0; start < data.length; ) {
    line++;
    const nl = data.indexOf(0x0a, start);
    const lineEnd = nl === -1 ? data.length : nl;
    starts.push(start);
    const inWindow = window !== undefined && line >= window.start && line <= window.end;
    const keys = inWindow ? parsedKeys(data.toString("utf8", start, lineEnd), line) : scannedKeys((scan ??= new MemberLines(data, KEYS)), start, lineEnd, line);
    start = lineEnd + 1;
    if (keys === null) return null;
    let kind = 0;
    if (keys.kind === "rewind") built.set(line, replay.rewind(line, keys.target));
    else if (keys.kind === "message") {
      kind = MESSAGE;
      replay.message(line, keys.id);
      for (const id of keys.callIds) {
        const lines = callLines.get(id);
        if (lines === undefined) callLines.set(id, [line]);
        else if (lines[lines.length - 1] !== line) lines.push(line);
      }
      if (keys.value !== null) objects.set(line, keys.value);
    } else if (keys.kind === "set") built.set(line, replay.set(line, keys.set));
    else if (keys.kind === "header") {
      const wasSubagent = replay.subagent;
      built.set(line, replay.header(line, keys.value));
      if (replay.subagent && !wasSubagent) subagentFrom = line + 1;
    } else {
      kind = UNKNOWN;
      if (keys.value !== null) objects.set(line, keys.value);
    }
    kinds.push(kind);
  }
  starts.push(data.length);
  const lineCount = line;
  for (const record of built.values()) replay.finish(record);

  // Warnings are parseLines' to give: the ones made here are dropped.
  const warnings: SourceWarning[] = [];
  const record = (at: number): AgentRecord | undefined => {
    if (!(at >= 1 && at <= lineCount) || !Number.isInteger(at)) return undefined;
    let made = built.get(at);
    if (made !== undefined) return made;
    const value = objects.get(at) ?? (JSON.parse(data.toString("utf8", starts[at - 1]!, starts[at]! - 1)) as JsonObject);
    objects.delete(at);
    made = kinds[at] === MESSAGE ? messageRecord(at, value, at >= subagentFrom, file, warnings) : unknownRecord(at, value, file, warnings);
    warnings.length = 0;
    built.set(at, replay.finish(made));
    return made;
  };
  const firstCalls = new Map<string, AgentToolCall | undefined>();
  return {
    lineCount,
    record,
    firstCall(id) {
      if (firstCalls.has(id)) return firstCalls.get(id);
      let found: AgentToolCall | undefined;
      // A replaced version gave up its calls: the first line that kept them.
      for (const at of callLines.get(id) ?? []) {
        if (replay.superseded.has(at)) continue;
        found = record(at)!.calls.find((c) => c.id === id);
        if (found !== undefined) break;
      }
      firstCalls.set(id, found);
      return found;
    },
    firstRewindLine: () => replay.firstRewind,
  };
}

/** A parsed line's {@link LineKeys} (as parse.ts tells a line's kind), the object kept; null when it is not a JSON object. */
function parsedKeys(text: string, line: number): LineKeys | null {
  const value = parseJsonObject(text);
  if (value === null) return null;
  if (typeof value.$rewindTo === "string") return { kind: "rewind", target: value.$rewindTo };
  if (typeof value.id === "string") {
    const callIds: string[] = [];
    // As messageFacts reads calls: object items, a non-empty string id.
    if (Array.isArray(value.toolCalls)) for (const call of value.toolCalls) if (isJsonObject(call) && typeof call.id === "string" && call.id !== "") callIds.push(call.id);
    return { kind: "message", id: value.id, callIds, value };
  }
  if (isJsonObject(value.$set)) return { kind: "set", set: value.$set };
  if (line === 1 || (typeof value.sessionId === "string" && typeof value.projectHash === "string")) return { kind: "header", value };
  return { kind: "unknown", value };
}

/** A line's {@link LineKeys} read by the scan kernel from `[start, end)` of `data` (offsets into `data`); null when it is not one valid object or a key replay reads is escaped. */
function scannedKeys(scan: MemberLines<(typeof KEYS)[number]>, dataStart: number, dataEnd: number, line: number): LineKeys | null {
  const { b } = scan;
  const start = scan.start + dataStart;
  const end = scan.start + dataEnd;
  const members = scan.members(start, end);
  if (members === null) return null;
  if (scan.isString(members.$rewindTo)) return { kind: "rewind", target: scan.json(members.$rewindTo) as string };
  if (scan.isString(members.id)) {
    const callIds: string[] = [];
    for (const item of scan.items(members.toolCalls) ?? []) {
      if (b[item[0]] !== 0x7b) continue;
      const call = scan.members(item[0], item[1]);
      if (call === null) return null;
      if (!scan.isString(call.id)) continue;
      const id = scan.json(call.id) as string;
      if (id !== "") callIds.push(id);
    }
    return { kind: "message", id: scan.json(members.id) as string, callIds, value: null };
  }
  if (scan.isObject(members.$set)) return { kind: "set", set: scan.json(members.$set) as JsonObject };
  if (line === 1 || (scan.isString(members.sessionId) && scan.isString(members.projectHash))) return { kind: "header", value: JSON.parse(b.toString("utf8", start, end)) as JsonObject };
  return { kind: "unknown", value: null };
}
