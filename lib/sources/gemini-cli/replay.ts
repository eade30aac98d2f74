/**
 * The replay of a Gemini CLI chat's message list (agent-formats.md §1, "JSONL format"; gemini-cli
 * chatRecordingService `loadConversationRecord`): what its header, same-id rewrites, `$set` and
 * `$rewindTo` lines do to the lines before them. Shared by the full read (parse.ts), the window
 * read (read-lines.ts), which replays from the ids alone and reads whole messages only where asked,
 * and prepare's turns (prepare-turns.ts), which keep the triggers of lines no later line superseded.
 */
import { emptyRecord, oneLineHeadline, type AgentEvent, type AgentRecord } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { messageFacts } from "@/lib/sources/gemini-cli/message-facts";

/** A message in the replayed list: its id and the line holding its current version (`onSet`: a `$set.messages` line). */
type Entry = { id: string; line: number; onSet: boolean };

/**
 * One chat replayed line by line, in order (see parse.ts's `parseGeminiLines` for the rules). A
 * header, `$set` or `$rewindTo` line's record is made here (it depends on the list as replayed);
 * a message line gives only its id, its record is the caller's ({@link finish} adds what replay
 * did to it). Marks are kept per line: {@link events} in the order replay gave them (a line's own
 * first), and {@link superseded} lines, older versions of a message that a later line restated.
 */
export class GeminiReplay {
  private list: Entry[] = [];
  private positions = new Map<string, number>();
  /** The chat's title: the last header `summary` or `$set.summary` met. */
  title: string | null = null;
  /** Whether a subagent header (`kind: "subagent"`) was met: from then on user messages are the parent agent's task. */
  subagent = false;
  /** The first line holding a `$rewindTo`, else null. */
  firstRewind: number | null = null;
  /** Every line's events (lines without any are absent). */
  readonly events = new Map<number, AgentEvent[]>();
  /** Lines whose message a later same-id line replaced: they give up calls, results, usage and trigger. */
  readonly superseded = new Set<number>();

  private mark(line: number, event: AgentEvent): void {
    const list = this.events.get(line);
    if (list === undefined) this.events.set(line, [event]);
    else list.push(event);
  }

  /** The record of header line `line` (`{sessionId, projectHash, startTime?, summary?, directories?, kind?}`). */
  header(line: number, header: JsonObject): AgentRecord {
    const record = emptyRecord(line, "session");
    record.role = "system";
    record.time = isoTime(header.startTime);
    const id = typeof header.sessionId === "string" ? header.sessionId : "(no id)";
    const summary = typeof header.summary === "string" && header.summary !== "" ? header.summary : null;
    if (summary !== null) this.title = summary;
    const words = [id, summary ?? ""];
    if (Array.isArray(header.directories)) for (const d of header.directories) if (typeof d === "string") words.push(d);
    record.text = words.filter((w) => w !== "").join("\n");
    if (header.kind === "subagent") this.subagent = true;
    const started = `${this.subagent ? "Subagent session" : "Session"} ${id} started`;
    record.headline = oneLineHeadline(summary === null ? started : `${started}: ${summary}`);
    return record;
  }

  /** Message `id` on line `line`: a new entry, or the replacement of the listed one. */
  message(line: number, id: string): void {
    const at = this.positions.get(id);
    if (at === undefined) {
      this.positions.set(id, this.list.length);
      this.list.push({ id, line, onSet: false });
      return;
    }
    const older = this.list[at]!;
    this.mark(older.line, { kind: "replaced", detail: `message ${id} replaced by line ${line}` });
    if (!older.onSet) this.superseded.add(older.line);
    this.mark(line, { kind: "replacement", detail: `replaces message ${id} on line ${older.line}` });
    this.list[at] = { id, line, onSet: false };
  }

  /** The record of `{"$rewindTo": target}` on line `line`; every listed message from `target` on is marked rewound and leaves the list. */
  rewind(line: number, target: string): AgentRecord {
    const at = this.positions.get(target);
    const targetLine = at === undefined ? null : this.list[at]!.line;
    const dropped = this.list.splice(at ?? 0);
    for (const entry of dropped) {
      this.positions.delete(entry.id);
      this.mark(entry.line, { kind: "rewound", detail: `message ${entry.id} dropped by $rewindTo on line ${line}` });
    }
    const record = emptyRecord(line, "$rewindTo");
    record.role = "system";
    record.text = target;
    const detail =
      targetLine === null
        ? `to unknown message ${target}: the whole list (${dropped.length} messages) dropped`
        : `to message ${target} (line ${targetLine}): ${dropped.length} messages dropped`;
    this.mark(line, { kind: "rewind", detail });
    record.headline = oneLineHeadline(`Rewind ${detail}`);
    this.firstRewind ??= line;
    return record;
  }

  /** The record of `{"$set": set}` on line `line`; `set.messages` replaces the list (messages left out are marked replaced). */
  set(line: number, set: JsonObject): AgentRecord {
    const record = emptyRecord(line, "$set");
    record.role = "system";
    record.time = isoTime(set.lastUpdated);
    const words: string[] = [];
    const details: string[] = [];
    for (const [key, value] of Object.entries(set)) {
      if (key === "messages") continue;
      if (key === "summary" && typeof value === "string") this.title = value;
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
        const current = this.positions.get(message.id);
        const entry = current !== undefined ? this.list[current]! : { id: message.id, line, onSet: true };
        const seen = nextPositions.get(message.id);
        if (seen !== undefined) next[seen] = entry;
        else {
          nextPositions.set(message.id, next.length);
          next.push(entry);
          if (current !== undefined) kept++;
        }
      }
      let dropped = 0;
      for (const entry of this.list) {
        if (nextPositions.has(entry.id)) continue;
        dropped++;
        this.mark(entry.line, { kind: "replaced", detail: `message ${entry.id} dropped by $set.messages on line ${line}` });
      }
      const summary = `messages: ${next.length} (${kept} kept, ${next.length - kept} new, ${dropped} dropped)`;
      details.unshift(summary);
      headline = `Messages set: ${summary.slice("messages: ".length)}`;
      this.list = next;
      this.positions = nextPositions;
    }
    record.text = words.filter((w) => w !== "").join("\n");
    this.mark(line, { kind: "metadata", detail: details.join("; ") });
    record.headline = oneLineHeadline(headline);
    return record;
  }

  /**
   * `record` (of its line, as read before replay touched it: no events) with what replay did to
   * its line: its events, and when superseded no calls, results, usage or trigger (an error
   * message stays an error). Changes and returns `record`; call it once the lines after it are replayed.
   */
  finish(record: AgentRecord): AgentRecord {
    return finishRecord(record, this.events.get(record.line), this.superseded.has(record.line));
  }
}

/** {@link GeminiReplay.finish} given what replay did to the record's line: its `events`, whether it was `superseded`. Changes and returns `record`. */
export function finishRecord(record: AgentRecord, events: readonly AgentEvent[] | undefined, superseded: boolean): AgentRecord {
  if (events !== undefined) record.events.push(...events);
  if (superseded) {
    record.calls = [];
    record.results = [];
    record.usage = [];
    record.trigger = false;
    record.isError = record.type === "error";
  }
  return record;
}

/** An ISO time with `Z` (milliseconds), or null when the value is not a zoned timestamp. */
export function isoTime(value: unknown): string | null {
  const ms = parseAwareTimestamp(value);
  return ms === null ? null : new Date(ms).toISOString();
}

/** Appends every non-empty string inside a JSON value, nested lists and objects included. */
export function collectStrings(value: unknown, out: string[], depth = 0): void {
  if (typeof value === "string") {
    if (value !== "") out.push(value);
  } else if (depth < 8 && Array.isArray(value)) {
    for (const item of value) collectStrings(item, out, depth + 1);
  } else if (depth < 8 && isJsonObject(value)) {
    for (const item of Object.values(value)) collectStrings(item, out, depth + 1);
  }
}
