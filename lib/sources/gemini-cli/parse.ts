/**
 * Reading a Gemini CLI workspace file back into records by replaying it as the CLI does
 * (agent-formats.md §1, "JSONL format"; gemini-cli chatRecordingService `loadConversationRecord`).
 */
import {
  emptyRecord,
  oneLineHeadline,
  timeSpan,
  turnsFromTriggers,
  type AgentRecord,
  type AgentTranscript,
  type ExportedLines,
  type SourceWarning,
} from "@/lib/sources/common/agent-source";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { messageFacts } from "@/lib/sources/gemini-cli/message-facts";
import { collectStrings, GeminiReplay, isoTime } from "@/lib/sources/gemini-cli/replay";

/** Concepts Gemini CLI sessions do not record: no cost per message, no cache-write count. */
export const GEMINI_ABSENT = ["cost", "cache_write"] as const;

/**
 * At most this many physical lines are joined back into one record. A JSONL line holding a raw
 * U+2028, U+2029 or U+0085 inside a string (JSON.stringify leaves them raw) is several physical
 * lines (contract §1.6); only those three may sit raw in valid JSON, so a failed line is retried
 * joined with the next ones.
 */
const MAX_JOINED_LINES = 32;

/** What a physical line holds before replay. */
type Slot =
  | { kind: "object"; value: JsonObject }
  | { kind: "blank" }
  | { kind: "bad" }
  | { kind: "continuation"; of: number };

/**
 * Reads a Gemini workspace file's lines (JSONL byte copy, or a legacy session exported as header +
 * one line per message) into one record per physical line, replaying from the first line:
 * - line 1 (or any `{sessionId, projectHash}` line) is the header: `session`, time `startTime`;
 * - a line with a string `id` is a message (type `user|gemini|info|error|warning`); a later line
 *   with the same `id` REPLACES the current version: the older line gets event `replaced` and
 *   gives up its calls, results, usage and trigger (the newer line restates them; Gemini rewrites
 *   a message as its tool results and tokens arrive), the newer gets `replacement`;
 * - `{"$set": {...}}` is a metadata event (`summary` sets the title); `$set.messages` replaces the
 *   whole list: messages not in it get `replaced` (they keep their facts: nothing restates them),
 *   ids already listed keep their line, new ones live on the `$set` line. A `$set` line never
 *   carries calls, usage or a trigger (its messages are restatements or synthetic context);
 * - `{"$rewindTo": "<id>"}` gets event `rewind`; every listed message from that id on gets
 *   `rewound` and leaves the list (an unknown id empties it, as the CLI's loader does). Rewound
 *   messages keep their facts: their tokens were spent and a rewound prompt still starts a turn.
 * Triggers: a user message a human typed (not `<session_context>`), current or rewound, not a
 * replaced older version. In a subagent chat (header `kind: "subagent"`) user messages are the
 * parent agent's task: headline `Task from the parent agent: …`, no trigger (so no turns).
 * Malformed and half-written lines, unknown records and unknown message types are read as best
 * they can be and warned about (`line N`); never throws. Linear in the lines' size. `objects`: the
 * objects the lines were exported from (a legacy chat), taken instead of parsing those lines.
 */
export function parseGeminiLines(lines: readonly string[], file: string, objects?: ExportedLines["objects"]): AgentTranscript {
  const records: AgentRecord[] = [];
  const warnings: SourceWarning[] = [];
  const replay = new GeminiReplay();
  let i = 0;
  for (const slot of readSlots(lines, objects)) {
    const line = ++i;
    const raw = lines[line - 1]!;
    let record: AgentRecord;
    if (slot.kind === "continuation") {
      record = emptyRecord(line, "continuation");
      record.text = raw;
      record.headline = `(continues line ${slot.of})`;
    } else if (slot.kind === "blank") {
      record = emptyRecord(line, "blank");
      record.headline = "(blank line)";
    } else if (slot.kind === "bad") {
      record = emptyRecord(line, "malformed");
      record.text = raw;
      record.headline = oneLineHeadline(`Unreadable line: ${raw}`);
      const problem = line === lines.length ? "half-written last line (not complete JSON); shown as text" : "not a JSON object; shown as text";
      warnings.push({ file, where: `line ${line}`, problem });
    } else {
      const value = slot.value;
      if (typeof value.$rewindTo === "string") record = replay.rewind(line, value.$rewindTo);
      else if (typeof value.id === "string") {
        record = messageRecord(line, value, replay.subagent, file, warnings);
        replay.message(line, value.id);
      } else if (isJsonObject(value.$set)) record = replay.set(line, value.$set);
      else if (line === 1 || (typeof value.sessionId === "string" && typeof value.projectHash === "string")) record = replay.header(line, value);
      else record = unknownRecord(line, value, file, warnings);
    }
    records.push(record);
  }
  for (const record of records) replay.finish(record);

  const { startedAt, endedAt } = timeSpan(records.map((r) => r.time));
  return { records, turns: turnsFromTriggers(records), startedAt, endedAt, title: replay.title, absent: [...GEMINI_ABSENT], warnings };
}

/**
 * The record of message `message` (a line with a string `id`) on line `line`, as read before
 * replay (see {@link GeminiReplay.finish}); `subagent`: a subagent header came before it (its user
 * messages are then the parent agent's task: no trigger). An unknown message type is warned about in `warnings`.
 */
export function messageRecord(line: number, message: JsonObject, subagent: boolean, file: string, warnings: SourceWarning[]): AgentRecord {
  const facts = messageFacts(message);
  const record = emptyRecord(line, facts.type);
  Object.assign(record, {
    role: facts.role,
    time: isoTime(message.timestamp),
    text: facts.text,
    reasoning: facts.reasoning,
    headline: facts.headline,
    model: facts.model,
    calls: facts.calls,
    results: facts.results,
    isError: facts.isError,
    usage: facts.usage,
    trigger: facts.humanPrompt && !subagent,
  });
  if (subagent && facts.type === "user") record.headline = oneLineHeadline(`Task from the parent agent: ${facts.text}`);
  if (!facts.known) warnings.push({ file, where: `line ${line}`, problem: `unknown message type "${facts.type}"; shown as text` });
  return record;
}

/** The record of an object line that is no message, header, `$set` or `$rewindTo` (warned about in `warnings`). */
export function unknownRecord(line: number, value: JsonObject, file: string, warnings: SourceWarning[]): AgentRecord {
  const type = typeof value.type === "string" && value.type !== "" ? value.type : (Object.keys(value)[0] ?? "unknown");
  const record = emptyRecord(line, type);
  const words: string[] = [];
  collectStrings(value, words);
  record.text = words.join("\n");
  record.time = isoTime(value.timestamp);
  record.headline = oneLineHeadline(`Unknown record ${type}`);
  warnings.push({ file, where: `line ${line}`, problem: `unknown record "${type}"; shown as text` });
  return record;
}

/**
 * The slot of each line in order, each line parsed once (not at all when its object is given: the
 * `objects` a legacy chat's lines were exported from); a failed line is joined with following
 * lines when that makes one JSON object (see {@link MAX_JOINED_LINES}). Only the look-ahead's parses
 * are held, so a large session's objects are not all alive at once.
 */
function* readSlots(lines: readonly string[], objects: ExportedLines["objects"]): Generator<Slot> {
  const ahead = new Map<number, JsonObject | null>();
  const parse = (i: number): JsonObject | null => {
    let value = ahead.get(i);
    if (value === undefined) {
      value = objects?.[i] ?? parseJsonObject(lines[i]!);
      ahead.set(i, value);
    }
    return value;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") {
      ahead.delete(i);
      yield { kind: "blank" };
      continue;
    }
    const value = parse(i);
    ahead.delete(i);
    if (value !== null) {
      yield { kind: "object", value };
      continue;
    }
    const joined = line.trimStart().startsWith("{") ? joinFollowing(lines, i, parse) : null;
    if (joined === null) {
      yield { kind: "bad" };
      continue;
    }
    yield { kind: "object", value: joined.value };
    for (let j = i + 1; j <= joined.last; j++) {
      ahead.delete(j);
      yield { kind: "continuation", of: i + 1 };
    }
    i = joined.last;
  }
}

/** Line `i` joined (by U+2028) with the following lines until it parses, stopping at a line that is a record of its own. */
function joinFollowing(lines: readonly string[], i: number, parse: (i: number) => JsonObject | null): { value: JsonObject; last: number } | null {
  let text = lines[i]!;
  for (let j = i + 1; j < lines.length && j - i < MAX_JOINED_LINES; j++) {
    if (parse(j) !== null) return null;
    text += `\u2028${lines[j]!}`;
    const value = parseJsonObject(text);
    if (value !== null) return { value, last: j };
  }
  return null;
}
