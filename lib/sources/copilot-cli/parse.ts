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
/** The record type of a physical line that continues the event begun on an earlier line (see {@link parseCopilotLines}). */
export const CONTINUATION_TYPE = "(continuation)";
/** How many physical lines past its first one an event split by raw line breaks is looked for. */
const MAX_CONTINUATIONS = 32;

/**
 * Concepts Copilot CLI does not record, so pages say so instead of showing zeros: it writes no
 * price (`costUsd` is null; it counts premium requests and nano-AIU instead).
 */
export const COPILOT_ABSENT = ["cost"] as const;

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
 * The CLI writes events with `JSON.stringify`, which leaves U+2028, U+2029 and U+0085 raw inside
 * strings; each is a physical line break (contract §1.6), so one event may span several lines.
 * A line that is not JSON and ends inside a string is joined with the following lines (up to
 * {@link MAX_CONTINUATIONS}, with U+2028 for the lost break) until the string closes; when that
 * parses, the event is read onto its first line and each further line is a `(continuation)`
 * record, with a warning naming the span.
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
  const lineAt = (k: number) => lines[k]!;
  for (let i = 0; i < lines.length; ) i += readEventAt(lineAt, lines.length, i, ctx, file, warnings, records);
  const { startedAt, endedAt } = timeSpan(records.map((r) => r.time));
  return { records, turns: turnsFromTriggers(records), startedAt, endedAt, title: null, absent: [...COPILOT_ABSENT], warnings };
}

/**
 * Reads the event that starts on line `i + 1` of `count` (`lineAt(k)`: line `k + 1`) onto
 * `records` (one record per physical line it takes, as {@link parseCopilotLines} reads it: a
 * malformed line, or an event split over several lines and its continuations) and its warnings
 * onto `warnings`; returns the lines taken (≥ 1). Copilot's turns-only read (prepare-turns.ts)
 * reads a line the scan kernel cannot through this, decoding only the lines it asks for.
 */
export function readEventAt(lineAt: (k: number) => string, count: number, i: number, ctx: ReadContext, file: string, warnings: SourceWarning[], records: AgentRecord[]): number {
  const raw = lineAt(i);
  const parsed = parseJson(raw);
  const split = parsed.ok ? null : rejoinSplitEvent(lineAt, count, i);
  if (split === null) {
    records.push(readLine(raw, parsed, i + 1, i === count - 1, ctx, file, warnings));
    return 1;
  }
  const last = i + split.extraLines;
  warnings.push({ file, where: `lines ${i + 1}-${last + 1}`, problem: "one event split over several lines by raw U+2028/U+2029/U+0085 characters in a string; read as one" });
  records.push(readLine(split.text, { ok: true, value: split.value }, i + 1, false, ctx, file, warnings));
  for (let k = i + 1; k <= last; k++) {
    const record = emptyRecord(k + 1, CONTINUATION_TYPE);
    record.headline = `(continues the event of line ${i + 1})`;
    records.push(record);
  }
  return last + 1 - i;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** `JSON.parse(text)` as a value, never throwing. */
function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

function readLine(raw: string, parsed: Parsed, line: number, last: boolean, ctx: ReadContext, file: string, warnings: SourceWarning[]): AgentRecord {
  const where = `line ${line}`;
  if (!parsed.ok) {
    const problem = last ? "half-written last line: not valid JSON (the CLI may still be writing it)" : `not valid JSON (${parsed.error})`;
    warnings.push({ file, where, problem: raw.trim() === "" ? "blank line" : problem });
    return malformed(line, raw);
  }
  const value = parsed.value;
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
  const reader = EVENT_READERS.get(type);
  if (reader !== undefined) {
    reader(record, data, ctx, value);
    return record;
  }
  if (!PLAIN_EVENT_TYPES.has(type)) warnings.push({ file, where, problem: `unknown event type ${type}` });
  readPlainEvent(record, data);
  return record;
}

/**
 * When line `i` ends inside a JSON string, the event joined from it and the following lines up to
 * where the string closes (breaks restored as U+2028), if that text is a JSON object; else null.
 * Scans each joined line once and parses once.
 */
function rejoinSplitEvent(lineAt: (k: number) => string, count: number, i: number): { text: string; value: unknown; extraLines: number } | null {
  let state = scanStrings(lineAt(i), OUTSIDE);
  if (state === OUTSIDE) return null;
  const parts = [lineAt(i)];
  for (let k = 1; k <= MAX_CONTINUATIONS && i + k < count; k++) {
    parts.push(lineAt(i + k));
    state = scanStrings(lineAt(i + k), state);
    if (state === OUTSIDE) {
      const text = parts.join("\u2028");
      const parsed = parseJson(text);
      return parsed.ok && isJsonObject(parsed.value) ? { text, value: parsed.value, extraLines: k } : null;
    }
  }
  return null;
}

const OUTSIDE = 0;
const IN_STRING = 1;
const IN_ESCAPE = 2;
type StringState = typeof OUTSIDE | typeof IN_STRING | typeof IN_ESCAPE;

/** Where a JSON text left off after `text`, starting in `state`: outside strings, in one, or just after a backslash in one. */
function scanStrings(text: string, state: StringState): StringState {
  let s = state;
  for (let p = 0; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (s === IN_ESCAPE) s = IN_STRING;
    else if (c === 0x22) s = s === OUTSIDE ? IN_STRING : OUTSIDE;
    else if (c === 0x5c && s === IN_STRING) s = IN_ESCAPE;
  }
  return s;
}

function malformed(line: number, raw: string): AgentRecord {
  const record = emptyRecord(line, MALFORMED_TYPE);
  record.text = raw;
  record.headline = oneLineHeadline(raw.trim() === "" ? "Blank line" : `Unreadable line: ${raw.slice(0, 120)}`);
  return record;
}
