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
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { messageFacts } from "@/lib/sources/gemini-cli/message-facts";

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

/** A message in the replayed list: its id and the line holding its current version. */
type Entry = { id: string; line: number; onSet: boolean };

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
  let list: Entry[] = [];
  let positions = new Map<string, number>();
  let title: string | null = null;
  // A subagent chat's user messages are its parent agent's task, not a human's prompt.
  let subagent = false;

  const readHeader = (line: number, header: JsonObject): AgentRecord => {
    const record = emptyRecord(line, "session");
    record.role = "system";
    record.time = isoTime(header.startTime);
    const id = typeof header.sessionId === "string" ? header.sessionId : "(no id)";
    const summary = typeof header.summary === "string" && header.summary !== "" ? header.summary : null;
    if (summary !== null) title = summary;
    const words = [id, summary ?? ""];
    if (Array.isArray(header.directories)) for (const d of header.directories) if (typeof d === "string") words.push(d);
    record.text = words.filter((w) => w !== "").join("\n");
    if (header.kind === "subagent") subagent = true;
    const started = `${subagent ? "Subagent session" : "Session"} ${id} started`;
    record.headline = oneLineHeadline(summary === null ? started : `${started}: ${summary}`);
    return record;
  };

  const readMessage = (line: number, message: JsonObject & { id: string }): AgentRecord => {
    const facts = messageFacts(message);
    const record = emptyRecord(line, facts.type);
    Object.assign(record, {
      role: facts.role,
      time: isoTime(message.timestamp),
      text: facts.text,
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
    const at = positions.get(message.id);
    if (at === undefined) {
      positions.set(message.id, list.length);
      list.push({ id: message.id, line, onSet: false });
      return record;
    }
    const older = list[at]!;
    const olderRecord = records[older.line - 1]!;
    olderRecord.events.push({ kind: "replaced", detail: `message ${message.id} replaced by line ${line}` });
    if (!older.onSet) {
      olderRecord.calls = [];
      olderRecord.results = [];
      olderRecord.usage = [];
      olderRecord.trigger = false;
      olderRecord.isError = olderRecord.type === "error";
    }
    record.events.push({ kind: "replacement", detail: `replaces message ${message.id} on line ${older.line}` });
    list[at] = { id: message.id, line, onSet: false };
    return record;
  };

  const readRewind = (line: number, target: string): AgentRecord => {
    const at = positions.get(target);
    const targetLine = at === undefined ? null : list[at]!.line;
    const dropped = list.splice(at ?? 0);
    for (const entry of dropped) {
      positions.delete(entry.id);
      records[entry.line - 1]!.events.push({ kind: "rewound", detail: `message ${entry.id} dropped by $rewindTo on line ${line}` });
    }
    const record = emptyRecord(line, "$rewindTo");
    record.role = "system";
    record.text = target;
    const detail =
      targetLine === null
        ? `to unknown message ${target}: the whole list (${dropped.length} messages) dropped`
        : `to message ${target} (line ${targetLine}): ${dropped.length} messages dropped`;
    record.events.push({ kind: "rewind", detail });
    record.headline = oneLineHeadline(`Rewind ${detail}`);
    return record;
  };

  const readSet = (line: number, set: JsonObject): AgentRecord => {
    const record = emptyRecord(line, "$set");
    record.role = "system";
    record.time = isoTime(set.lastUpdated);
    const words: string[] = [];
    const details: string[] = [];
    for (const [key, value] of Object.entries(set)) {
      if (key === "messages") continue;
      if (key === "summary" && typeof value === "string") title = value;
      if (key !== "lastUpdated" && key !== "startTime") collectStrings(value, words);
      details.push(typeof value === "string" ? `${key}=${value}` : key);
    }
    let headline = typeof set.summary === "string" ? `Summary: ${set.summary}` : `Set ${details.join(", ")}`;
    if (Array.isArray(set.messages)) {
      const next: Entry[] = [];
      const nextPositions = new Map<string, number>();
      let kept = 0;
      for (const message of set.messages) {
        if (!isJsonObject(message)) continue;
        words.push(messageFacts(message).text);
        if (typeof message.id !== "string") continue;
        const current = positions.get(message.id);
        const entry = current !== undefined ? list[current]! : { id: message.id, line, onSet: true };
        const seen = nextPositions.get(message.id);
        if (seen !== undefined) next[seen] = entry;
        else {
          nextPositions.set(message.id, next.length);
          next.push(entry);
          if (current !== undefined) kept++;
        }
      }
      let dropped = 0;
      for (const entry of list) {
        if (nextPositions.has(entry.id)) continue;
        dropped++;
        records[entry.line - 1]!.events.push({ kind: "replaced", detail: `message ${entry.id} dropped by $set.messages on line ${line}` });
      }
      const summary = `messages: ${next.length} (${kept} kept, ${next.length - kept} new, ${dropped} dropped)`;
      details.unshift(summary);
      headline = `Messages set: ${summary.slice("messages: ".length)}`;
      list = next;
      positions = nextPositions;
    }
    record.text = words.filter((w) => w !== "").join("\n");
    record.events.push({ kind: "metadata", detail: details.join("; ") });
    record.headline = oneLineHeadline(headline);
    return record;
  };

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
      if (typeof value.$rewindTo === "string") record = readRewind(line, value.$rewindTo);
      else if (typeof value.id === "string") record = readMessage(line, value as JsonObject & { id: string });
      else if (isJsonObject(value.$set)) record = readSet(line, value.$set);
      else if (line === 1 || (typeof value.sessionId === "string" && typeof value.projectHash === "string")) record = readHeader(line, value);
      else {
        const type = typeof value.type === "string" && value.type !== "" ? value.type : (Object.keys(value)[0] ?? "unknown");
        record = emptyRecord(line, type);
        const words: string[] = [];
        collectStrings(value, words);
        record.text = words.join("\n");
        record.time = isoTime(value.timestamp);
        record.headline = oneLineHeadline(`Unknown record ${type}`);
        warnings.push({ file, where: `line ${line}`, problem: `unknown record "${type}"; shown as text` });
      }
    }
    records.push(record);
  }

  const { startedAt, endedAt } = timeSpan(records.map((r) => r.time));
  return { records, turns: turnsFromTriggers(records), startedAt, endedAt, title, absent: [...GEMINI_ABSENT], warnings };
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

/** An ISO time with `Z` (milliseconds), or null when the value is not a zoned timestamp. */
function isoTime(value: unknown): string | null {
  const ms = parseAwareTimestamp(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Appends every non-empty string inside a JSON value, nested lists and objects included. */
function collectStrings(value: unknown, out: string[], depth = 0): void {
  if (typeof value === "string") {
    if (value !== "") out.push(value);
  } else if (depth < 8 && Array.isArray(value)) {
    for (const item of value) collectStrings(item, out, depth + 1);
  } else if (depth < 8 && isJsonObject(value)) {
    for (const item of Object.values(value)) collectStrings(item, out, depth + 1);
  }
}
