/**
 * A window's records of a Gemini CLI workspace file without the whole read (issue 38 speed: a
 * 2,000-line compact window of a 12 MB chat): the chat is replayed from each line's ids, found by
 * the SIMD scan kernel (lib/sources/common/json-members) without `JSON.parse` of whole messages,
 * and a message line is parsed only when its record is asked for.
 */
import type { AgentEvent, AgentLines, AgentRecord, SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { linesFromFactsText, linesMadeOnDemand, withFacts } from "@/lib/sources/common/line-facts";
import { MemberLines } from "@/lib/sources/common/json-members";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import { messageRecord, unknownRecord } from "@/lib/sources/gemini-cli/parse";
import { finishRecord, GeminiReplay } from "@/lib/sources/gemini-cli/replay";

/** Top-level keys the replay reads, by name; every other member is checked and stepped over. */
const KEYS = ["id", "$set", "$rewindTo", "sessionId", "projectHash", "toolCalls"] as const;

/** What replay reads of a line: its kind's key, the message's id and its calls' ids, a structural line's object. */
type LineKeys =
  | { kind: "rewind"; target: string }
  | { kind: "message"; id: string; callIds: string[]; value: JsonObject | null }
  | { kind: "set"; set: JsonObject }
  | { kind: "header"; value: JsonObject }
  | { kind: "unknown"; value: JsonObject | null };

/**
 * What a window of a chat needs to know of its other lines, as JSON (issue 38 speed: persisted per
 * file version by lib/sources/agent-transcripts, so a later window reads only its own lines).
 */
type GeminiLineFacts = {
  format: typeof FACTS_FORMAT;
  lineCount: number;
  /** The records replay made (header, `$set` and `$rewindTo` lines), finished: `[line, record]`. */
  made: [number, AgentRecord][];
  /** What replay gave the other lines: `[line, events]`. */
  events: [number, AgentEvent[]][];
  /** Message lines a later same-id line replaced. */
  superseded: number[];
  /** The first line after a subagent header (user messages from then on are the parent agent's task), else null. */
  subagentFrom: number | null;
  firstRewind: number | null;
  /** Each call id with the lines holding a call with it that no later line superseded, in line order: `[id, ...lines]`. */
  calls: [string, ...number[]][];
};

/** Bump when a record's making or the replay changes: facts stored by an older reader are not used. */
const FACTS_FORMAT = "gemini-line-facts/1";

/**
 * The lines of Gemini workspace file `data` (`file` names it) as {@link parseGeminiLines} reads
 * them: `record(line)` equals its `records[line - 1]` (events, replaced versions' dropped calls,
 * triggers and subagent tasks included), `firstCall` and `firstRewindLine` answer as its records
 * would, and `facts()` gives what {@link geminiLinesFromFacts} needs to answer so again. One pass
 * over the bytes replays the chat from each line's `id`, `$set`, `$rewindTo`, header keys and its
 * `toolCalls[].id`: the lines of `window` (1-based, inclusive: those whose records will be asked
 * for) are parsed, the others read by the scan kernel (headers, `$set` and `$rewindTo` lines
 * parsed: small and rare); a message or unknown record is made when first asked for, and kept.
 * Null — the caller parses the lines in full — unless `data` is UTF-8 whose only breaks are `\n`,
 * ending with one, and every line is one valid JSON object (outside the window with no escaped key
 * where the replay reads keys: top level, `toolCalls` items). Never throws.
 */
export function readGeminiLines(data: Buffer, file: string, window?: { start: number; end: number }): AgentLines | null {
  if (lazyByteCopyLines(data).bytes === undefined) return null;
  // Loaded into the kernel's memory only when a line outside the window is met.
  let scan: MemberLines<(typeof KEYS)[number]> | null = null;
  const replay = new GeminiReplay();
  // Each line's first byte in `data` (one past the last: the end).
  const starts: number[] = [];
  const made = new Map<number, AgentRecord>();
  // Objects of the window's lines, until their records are made.
  const objects = new Map<number, JsonObject>();
  // The lines whose calls have an id, in line order, by id (a line once per id).
  const callLines = new Map<string, number[]>();
  let subagentFrom: number | null = null;

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
    if (keys.kind === "rewind") made.set(line, replay.rewind(line, keys.target));
    else if (keys.kind === "message") {
      replay.message(line, keys.id);
      for (const id of keys.callIds) {
        const lines = callLines.get(id);
        if (lines === undefined) callLines.set(id, [line]);
        else if (lines[lines.length - 1] !== line) lines.push(line);
      }
      if (keys.value !== null) objects.set(line, keys.value);
    } else if (keys.kind === "set") made.set(line, replay.set(line, keys.set));
    else if (keys.kind === "header") {
      const wasSubagent = replay.subagent;
      made.set(line, replay.header(line, keys.value));
      if (replay.subagent && !wasSubagent) subagentFrom = line + 1;
    } else if (keys.value !== null) objects.set(line, keys.value);
  }
  starts.push(data.length);
  for (const record of made.values()) replay.finish(record);
  const calls: [string, ...number[]][] = [];
  for (const [id, lines] of callLines) calls.push([id, ...lines.filter((at) => !replay.superseded.has(at))]);
  const facts: GeminiLineFacts = {
    format: FACTS_FORMAT,
    lineCount: line,
    made: [...made],
    events: [...replay.events].filter(([at]) => !made.has(at)),
    superseded: [...replay.superseded],
    subagentFrom,
    firstRewind: replay.firstRewind,
    calls,
  };
  // Facts are serialized when asked for, before any record leaves: the made records are still as replay left them.
  const lines = linesOf(facts, (at) => data.toString("utf8", starts[at - 1]!, starts[at]! - 1), file, objects);
  return withFacts(lines, facts);
}

/**
 * The lines {@link readGeminiLines} read from a file of `lineCount` lines, from the JSON text its
 * `facts()` gave for that file's bytes: `lineText(line)` gives the text of a line (without its
 * `\n`) when its record is first asked for. Null when `facts` are not such text for `lineCount`
 * lines (another reader's version: the caller reads the file instead). Never throws.
 */
export function geminiLinesFromFacts(facts: string, lineCount: number, lineText: (line: number) => string, file: string): AgentLines | null {
  return linesFromFactsText<GeminiLineFacts>(facts, FACTS_FORMAT, lineCount, (value) => linesOf(value, lineText, file, new Map()));
}

/** The {@link AgentLines} of a replayed chat: `objects` (the lines already parsed) are taken before `lineText` is read. */
function linesOf(facts: GeminiLineFacts, lineText: (line: number) => string, file: string, objects: Map<number, JsonObject>): AgentLines {
  const { lineCount, subagentFrom } = facts;
  const made = new Map(facts.made);
  const events = new Map(facts.events);
  const superseded = new Set(facts.superseded);
  const callLines = new Map(facts.calls.map(([id, ...lines]) => [id, lines]));
  // Warnings are parseLines' to give: the ones made here are dropped.
  const warnings: SourceWarning[] = [];
  const make = (at: number): AgentRecord => {
    const byReplay = made.get(at);
    if (byReplay !== undefined) return byReplay;
    // Replay made every other kind's record: this line holds a message or an unknown record.
    const value = objects.get(at) ?? (JSON.parse(lineText(at)) as JsonObject);
    objects.delete(at);
    const isMessage = typeof value.$rewindTo !== "string" && typeof value.id === "string";
    const record = isMessage ? messageRecord(at, value, subagentFrom !== null && at >= subagentFrom, file, warnings) : unknownRecord(at, value, file, warnings);
    warnings.length = 0;
    return finishRecord(record, events.get(at), superseded.has(at));
  };
  return linesMadeOnDemand(lineCount, make, (id) => callLines.get(id) ?? [], facts.firstRewind);
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
