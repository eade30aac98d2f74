/** Copilot CLI `events.jsonl` lines read into records, turns and usage (agent-formats.md §2). */
import {
  emptyRecord,
  oneLineHeadline,
  timeSpan,
  turnsFromTriggers,
  type AgentRecord,
  type AgentTranscript,
  type SourceWarning,
} from "@/lib/sources/common/agent-source";
import { asObject, isJsonObject } from "@/lib/sources/common/json-object";
import { EVENT_READERS, PLAIN_EVENT_TYPES, readPlainEvent, type ReadContext } from "@/lib/sources/copilot-cli/event-readers";
import { isoTime, visibleText } from "@/lib/sources/copilot-cli/fields";

/** The record type of a line that is not a JSON object (malformed, or half-written by a running CLI). */
export const MALFORMED_TYPE = "(malformed)";
/** The record type of a JSON object without a string `type`. */
export const UNTYPED_TYPE = "(untyped)";

/**
 * Concepts Copilot CLI does not record, so pages say so instead of showing zeros: it writes no
 * price (`costUsd` is null; it counts premium requests and nano-AIU instead).
 */
const ABSENT = ["cost"];

/**
 * Reads the physical lines of a Copilot CLI `events.jsonl` (`{type, id, parentId, timestamp,
 * data}` a line; agent-formats.md §2) into one record per line (`records[i].line === i + 1`).
 *
 * - Turns: each human `user.message` starts one (not a subagent's prompt, autopilot's
 *   continuation or a skill's injection); a turn runs to the line before the next one.
 * - Tool calls are on `assistant.message` (`toolRequests`); `tool.execution_start` is a tool
 *   record naming the tool, `tool.execution_complete` holds the result (`isError` when
 *   `success` is false), named after its call by `toolCallId`.
 * - Usage is on each `session.shutdown` line, one entry per model (usage.ts); a resumed session
 *   has one shutdown per run and its usage is their sum.
 * - `title` is null: the title lives in the session folder's `workspace.yaml`, not in these lines.
 *
 * Never throws: a line that is not a JSON object becomes a `(malformed)` record whose text is the
 * raw line, plus a warning (`half-written last line` when it is the last); an unknown event type
 * becomes a record of that type with its payload's words, plus a warning. Linear in the input.
 * @param file names the file in warnings.
 */
export function parseCopilotLines(lines: readonly string[], file: string): AgentTranscript {
  const warnings: SourceWarning[] = [];
  const ctx: ReadContext = { calls: new Map() };
  const records: AgentRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    records.push(readLine(lines[i]!, i + 1, i === lines.length - 1, ctx, file, warnings));
  }
  const { startedAt, endedAt } = timeSpan(records.map((r) => r.time));
  return { records, turns: turnsFromTriggers(records), startedAt, endedAt, title: null, absent: [...ABSENT], warnings };
}

function readLine(raw: string, line: number, last: boolean, ctx: ReadContext, file: string, warnings: SourceWarning[]): AgentRecord {
  const where = `line ${line}`;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const problem = last
      ? "half-written last line: not valid JSON (the CLI may still be writing it)"
      : `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
    warnings.push({ file, where, problem: raw.trim() === "" ? "blank line" : problem });
    return malformed(line, raw);
  }
  if (!isJsonObject(value)) {
    warnings.push({ file, where, problem: "not a JSON object" });
    return malformed(line, raw);
  }
  const type = typeof value.type === "string" && value.type !== "" ? value.type : null;
  const data = asObject(value.data) ?? {};
  const record = emptyRecord(line, type ?? UNTYPED_TYPE);
  record.time = isoTime(value.timestamp);
  if (type === null) {
    warnings.push({ file, where, problem: "event without a type" });
    record.text = visibleText(value);
    record.headline = "Event without a type";
    return record;
  }
  const reader = EVENT_READERS[type];
  if (reader !== undefined) {
    reader(record, data, ctx, value);
    return record;
  }
  if (!PLAIN_EVENT_TYPES.has(type)) warnings.push({ file, where, problem: `unknown event type ${type}` });
  readPlainEvent(record, data);
  return record;
}

function malformed(line: number, raw: string): AgentRecord {
  const record = emptyRecord(line, MALFORMED_TYPE);
  record.text = raw;
  record.headline = oneLineHeadline(raw.trim() === "" ? "Blank line" : `Unreadable line: ${raw.slice(0, 120)}`);
  return record;
}
