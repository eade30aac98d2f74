/**
 * Reads an OpenCode session's workspace lines (made by export-lines.ts; agent-formats.md §3) into
 * records, turns and usage. Line 1 is the session object; each message line is followed by its
 * parts. A turn starts at a user MESSAGE line that has a text part the user wrote (not `synthetic`):
 * the message line opens the prompt, and its text parts, on the lines after it, hold the words.
 */
import {
  type AgentEvent,
  type AgentRecord,
  type AgentTranscript,
  emptyRecord,
  type ExportedLines,
  oneLineHeadline,
  type PreparedTurns,
  type RecordRole,
  type SourceWarning,
  timeSpan,
  turnsFromTriggers,
} from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { readToolPart } from "@/lib/sources/opencode/tool-part";
import { messageUsage, type OpenCodeTokens, readTokens } from "@/lib/sources/opencode/usage";
import { msToIso, num, str, stringValues } from "@/lib/sources/opencode/values";

type Kind = "session" | "message" | "part" | "unknown" | "malformed";

/** What a parsed line is: a part has `type` and `messageID`, a message `role`, a session a `ses…` id or a `directory`. */
function kindOf(obj: JsonObject | null): Kind {
  if (obj === null) return "malformed";
  if (typeof obj.type === "string" && typeof obj.messageID === "string") return "part";
  if (typeof obj.role === "string") return "message";
  if (typeof obj.id === "string" && (obj.id.startsWith("ses") || "directory" in obj || "projectID" in obj)) return "session";
  return "unknown";
}

/** OpenCode records cost, cache writes, times and reasoning: it leaves nothing out. */
export const OPENCODE_ABSENT = [] as const;

const ROLES = new Set<RecordRole>(["user", "assistant", "tool", "system"]);

function roleOf(value: string | null | undefined): RecordRole | null {
  return value !== null && value !== undefined && ROLES.has(value as RecordRole) ? (value as RecordRole) : null;
}

/** What the first pass learns about each message from its parts. */
type MessageFacts = { role: string | null; humanText: string[]; syntheticText: string[]; steps: OpenCodeTokens[] };

/** The error an assistant message or retry part records: `{name, data: {message}}`. */
function errorText(value: unknown): { name: string | null; message: string | null } | null {
  const error = asObject(value);
  if (error === null) return typeof value === "string" ? { name: null, message: value } : null;
  return { name: str(error.name), message: str(asObject(error.data)?.message) ?? str(error.message) };
}

/** The words of an object besides its ids and type (an unknown record's text). */
function wordsOf(obj: JsonObject): string {
  const rest = { ...obj };
  for (const key of ["id", "sessionID", "messageID", "type"]) delete rest[key];
  return stringValues(rest).join("\n");
}

/**
 * Reads the workspace lines of an OpenCode session. Never throws: a line that is not a JSON object,
 * or an object that is not a session, message or part, or a part of an unknown type, is read as
 * best it can be and named in a warning (`file`, `line N`). `exportedObjects`: the objects the
 * export made the lines from (`[i]` for line `i + 1`), taken instead of parsing the lines again.
 */
export function parseLines(lines: readonly string[], file: string, exportedObjects?: readonly (JsonObject | null)[]): AgentTranscript {
  const objects = exportedObjects?.length === lines.length ? exportedObjects : lines.map((line) => parseJsonObject(line));
  const kinds = objects.map(kindOf);
  const { session: sessionObj, facts } = firstPass(objects, kinds);
  const version = str(sessionObj?.version);
  const parentId = str(sessionObj?.parentID);
  const revert = asObject(sessionObj?.revert);
  const revertMessage = str(revert?.messageID);
  const revertPart = str(revert?.partID);

  // Pass 2: one record per line.
  const warnings: SourceWarning[] = [];
  const records: AgentRecord[] = [];
  let reverted = false;
  let sessionSeen = false;
  objects.forEach((obj, i) => {
    const line = i + 1;
    const warn = (problem: string) => warnings.push({ file, where: `line ${line}`, problem });
    let record: AgentRecord;
    const kind = kinds[i];
    if (obj === null) {
      record = emptyRecord(line, "malformed");
      record.text = lines[i] ?? "";
      record.headline = "Unreadable line (not a JSON object)";
      warn("not a JSON object (malformed or half-written line)");
    } else if (kind === "session" && !sessionSeen) {
      sessionSeen = true;
      record = sessionRecord(line, obj, parentId);
    } else if (kind === "message") {
      record = messageRecord(line, obj, facts.get(str(obj.id) ?? "") ?? null, version);
    } else if (kind === "part") {
      record = partRecord(line, obj, roleOf(facts.get(obj.messageID as string)?.role), warn);
    } else {
      record = emptyRecord(line, kind === "session" ? "session" : (str(obj.type) ?? "unknown"));
      record.text = wordsOf(obj);
      record.headline = oneLineHeadline(`Unknown record: ${record.text}`);
      warn(kind === "session" ? "a second session object" : "not an OpenCode session, message or part");
    }
    if (revertMessage !== null && obj !== null) {
      if (kind === "message" && obj.id === revertMessage && revertPart === null) reverted = true;
      if (kind === "part" && obj.id === revertPart) reverted = true;
    }
    if (reverted) record.events.push({ kind: "rewound", detail: `undone by the session's revert to ${revertPart ?? revertMessage}` });
    records.push(record);
  });

  const title = str(sessionObj?.title);
  return {
    records,
    turns: turnsFromTriggers(records),
    ...timeSpan(records.map((r) => r.time)),
    title: title === null ? null : parentId === null ? title : `Subagent: ${title}`,
    absent: [...OPENCODE_ABSENT],
    warnings,
  };
}

/**
 * Pass 1 over a session's objects: the session object (the first line of kind session), and per
 * message id its role, its text parts' words (human and synthetic apart) and its steps' tokens.
 */
function firstPass(objects: readonly (JsonObject | null)[], kinds: readonly Kind[]): { session: JsonObject | null; facts: Map<string, MessageFacts> } {
  let session: JsonObject | null = null;
  const facts = new Map<string, MessageFacts>();
  const factsOf = (id: string) => {
    let f = facts.get(id);
    if (f === undefined) facts.set(id, (f = { role: null, humanText: [], syntheticText: [], steps: [] }));
    return f;
  };
  objects.forEach((obj, i) => {
    if (obj === null) return;
    const kind = kinds[i];
    if (kind === "session" && session === null) session = obj;
    else if (kind === "message" && typeof obj.id === "string") factsOf(obj.id).role = str(obj.role);
    else if (kind === "part") {
      const f = factsOf(obj.messageID as string);
      if (obj.type === "text" && typeof obj.text === "string") (obj.synthetic === true ? f.syntheticText : f.humanText).push(obj.text);
      else if (obj.type === "step-finish") {
        const tokens = readTokens(obj.tokens);
        if (tokens !== null) f.steps.push(tokens);
      }
    }
  });
  return { session, facts };
}

/** Part types {@link partRecord} reads; any other is read generically, with a warning. */
export const PART_TYPES: ReadonlySet<string> = new Set(["text", "reasoning", "tool", "step-start", "step-finish", "patch", "file", "agent", "subtask", "compaction", "snapshot", "retry"]);

/**
 * Prepare's turns-only read (issue 38 speed): the turns, prompt times and warnings that
 * {@link parseLines} gives for `exported`'s lines, from the objects the export made them from,
 * without building records (headlines, tool views, usage). Null without those objects. Never throws.
 */
export function prepareTurns(exported: ExportedLines, file: string): PreparedTurns | null {
  const objects = exported.objects;
  if (objects === undefined || objects.length !== exported.lines.length) return null;
  const kinds = objects.map(kindOf);
  const { facts } = firstPass(objects, kinds);
  const warnings: SourceWarning[] = [];
  const starts: number[] = [];
  const promptTimes: (string | null)[] = [];
  let sessionSeen = false;
  objects.forEach((obj, i) => {
    const line = i + 1;
    const kind = kinds[i];
    let problem: string | null = null;
    if (obj === null) problem = "not a JSON object (malformed or half-written line)";
    else if (kind === "session" && !sessionSeen) sessionSeen = true;
    else if (kind === "message") {
      const f = facts.get(str(obj.id) ?? "");
      if (str(obj.role) === "user" && f !== undefined && f.humanText.join(" ").trim() !== "") {
        starts.push(line);
        promptTimes.push(msToIso(asObject(obj.time)?.created));
      }
    } else if (kind === "part") {
      if (!PART_TYPES.has(obj.type as string)) problem = `unknown part type "${obj.type as string}"`;
    } else problem = kind === "session" ? "a second session object" : "not an OpenCode session, message or part";
    if (problem !== null) warnings.push({ file, where: `line ${line}`, problem });
  });
  const turns = starts.map((s, k) => ({ turn_start_line: s, turn_end_line: (starts[k + 1] ?? objects.length + 1) - 1 }));
  return { turns, promptTimes, warnings };
}

function sessionRecord(line: number, obj: JsonObject, parentId: string | null): AgentRecord {
  const record = emptyRecord(line, "session");
  record.role = "system";
  record.time = msToIso(asObject(obj.time)?.created);
  const title = str(obj.title) ?? "";
  record.text = [title, str(obj.directory) ?? ""].filter((s) => s !== "").join("\n");
  record.headline = oneLineHeadline(parentId === null ? `Session: ${title}` : `Subagent session (child of ${parentId}): ${title}`);
  const revert = asObject(obj.revert);
  const to = str(revert?.partID) ?? str(revert?.messageID);
  if (to !== null) {
    const event: AgentEvent = { kind: "rewind", detail: `reverted to ${to}: it and everything after it are undone` };
    record.events.push(event);
  }
  return record;
}

function messageRecord(line: number, obj: JsonObject, facts: MessageFacts | null, version: string | null): AgentRecord {
  const role = str(obj.role) ?? "unknown";
  const record = emptyRecord(line, `message:${role}`);
  record.role = roleOf(role);
  record.time = msToIso(asObject(obj.time)?.created);
  if (role === "user") {
    const human = facts?.humanText.join(" ").trim() ?? "";
    const synthetic = facts?.syntheticText.join(" ").trim() ?? "";
    record.trigger = human !== "";
    record.headline = oneLineHeadline(human !== "" ? `User: ${human}` : synthetic !== "" ? `User (synthetic): ${synthetic}` : "User message");
    const summary = asObject(obj.summary);
    record.text = [str(summary?.title), str(summary?.body), str(obj.system)].filter((s): s is string => s !== null && s !== "").join("\n");
  } else if (role === "assistant") {
    record.model = str(obj.modelID);
    const usage = messageUsage(obj, facts?.steps ?? [], version);
    if (usage !== null) record.usage.push(usage);
    const error = errorText(obj.error);
    const aborted = error?.name === "MessageAbortedError";
    record.isError = error !== null && !aborted;
    const detail = error === null ? "" : aborted ? " — aborted" : ` — error: ${error.message ?? error.name ?? "unknown"}`;
    record.headline = oneLineHeadline(`Assistant${record.model === null ? "" : ` (${record.model})`}${detail}`);
    record.text = [error?.name, error?.message].filter((s): s is string => typeof s === "string" && s !== "").join("\n");
  } else {
    record.headline = `${role} message`;
    record.text = wordsOf(obj);
  }
  return record;
}

/** Headline prefixes of text parts: who speaks. */
function textHeadline(role: RecordRole | null, synthetic: boolean): string {
  if (synthetic) return "Synthetic";
  return role === "user" ? "User" : role === "assistant" ? "Assistant" : "Text";
}

function partRecord(line: number, obj: JsonObject, messageRole: RecordRole | null, warn: (problem: string) => void): AgentRecord {
  const type = obj.type as string;
  const record = emptyRecord(line, `part:${type}`);
  record.role = messageRole;
  const time = asObject(obj.time);
  switch (type) {
    case "text": {
      const text = str(obj.text) ?? "";
      record.text = text;
      record.time = msToIso(time?.start);
      record.headline = oneLineHeadline(`${textHeadline(messageRole, obj.synthetic === true)}: ${text}`);
      break;
    }
    case "reasoning": {
      record.reasoning = str(obj.text) ?? "";
      record.time = msToIso(time?.start);
      record.headline = oneLineHeadline(`Thinking: ${record.reasoning}`);
      break;
    }
    case "tool": {
      const view = readToolPart(obj);
      record.role = "tool";
      record.calls.push(view.call);
      if (view.result !== null) record.results.push(view.result);
      record.isError = view.isError;
      record.text = view.text;
      record.time = view.time;
      record.headline = oneLineHeadline(view.headline);
      break;
    }
    case "step-start":
      record.headline = "Step start";
      break;
    case "step-finish":
      // Its tokens repeat the message's: counted once, on the message line (usage.ts).
      record.headline = `Step finish${typeof obj.reason === "string" ? ` (${obj.reason})` : ""}`;
      break;
    case "patch": {
      // OpenCode's record of the files its tools changed: the tools' side, not words the agent said.
      record.role = "tool";
      const files = Array.isArray(obj.files) ? obj.files.filter((f): f is string => typeof f === "string") : [];
      record.text = files.join("\n");
      record.headline = oneLineHeadline(`Patch: ${files.length} file${files.length === 1 ? "" : "s"}${files.length > 0 ? ` (${files.join(", ")})` : ""}`);
      break;
    }
    case "file": {
      const source = asObject(obj.source);
      const url = str(obj.url);
      const words = [str(obj.filename), url?.startsWith("data:") ? null : url, str(source?.path), str(asObject(source?.text)?.value)];
      record.text = words.filter((s): s is string => s !== null && s !== "").join("\n");
      record.headline = oneLineHeadline(`File: ${str(obj.filename) ?? str(source?.path) ?? str(obj.mime) ?? "attachment"}`);
      break;
    }
    case "agent":
      record.text = str(obj.name) ?? "";
      record.headline = `Agent: ${record.text}`;
      break;
    case "subtask":
      record.text = [str(obj.agent), str(obj.description), str(obj.prompt)].filter((s): s is string => s !== null && s !== "").join("\n");
      record.headline = oneLineHeadline(`Subtask (${str(obj.agent) ?? "subagent"}): ${str(obj.description) ?? str(obj.prompt) ?? ""}`);
      break;
    case "compaction":
      record.headline = `Compaction (${obj.auto === true ? "automatic" : "requested"})`;
      break;
    case "snapshot":
      record.headline = `Snapshot ${str(obj.snapshot) ?? ""}`.trim();
      break;
    case "retry": {
      const error = errorText(obj.error);
      record.isError = true;
      record.time = msToIso(time?.created);
      record.text = [error?.name, error?.message].filter((s): s is string => typeof s === "string" && s !== "").join("\n");
      record.headline = oneLineHeadline(`Retry ${num(obj.attempt) ?? ""}: ${error?.message ?? error?.name ?? "API error"}`);
      break;
    }
    default:
      record.text = wordsOf(obj);
      record.headline = oneLineHeadline(`${type} part${record.text === "" ? "" : `: ${record.text}`}`);
      warn(`unknown part type "${type}"`);
  }
  return record;
}
