/**
 * Reads the lines of an Aider run (agent-formats.md §4) into records, one per physical line: the
 * history is Markdown, so each line's role comes from its prefix (`#### ` the user's prompt, `> `
 * Aider's own output, anything else the model's reply), and its time is the run header's.
 */
import {
  emptyRecord,
  oneLineHeadline,
  timeSpan,
  turnsFromTriggers,
  type AgentRecord,
  type AgentToolCall,
  type AgentTokenUsage,
  type AgentTranscript,
  type SourceWarning,
} from "@/lib/sources/common/agent-source";
import { newEditScan, scanEditLine, type EditScan, type FoundEdit } from "@/lib/sources/aider/edit-blocks";
import { localStampToIso, parseLocalStamp, runHeaderStamp } from "@/lib/sources/aider/history-runs";
import {
  isErrorLine,
  looksLikeTokensReport,
  parseCostLine,
  parseEditOutcome,
  parseModelAnnouncement,
  parseTokensReport,
} from "@/lib/sources/aider/tool-lines";

/** What Aider's history does not have, so pages say so instead of showing zeros. */
export const AIDER_ABSENT = ["subagents", "tool call ids", "per-line times", "titles", "reasoning tokens"] as const;

/** The record types this reader gives lines (Aider has none of its own). */
export const AIDER_RECORD_TYPES = {
  header: "run-header",
  prompt: "prompt",
  output: "tool-output",
  reply: "reply",
  blank: "blank",
} as const;

const PROMPT_LINE = /^####(?:\s|$)/;
const OUTPUT_LINE = /^>(?: |$)/;

/** The reader's state between lines of a run. */
type RunState = {
  /** The run header's time (ISO, `Z`), given to every line of the run. */
  time: string | null;
  /** The model of the last `Model:` announcement. */
  model: string | null;
  /** The previous line was a prompt line: a prompt line now continues it. */
  inPrompt: boolean;
  /** Files with an edit call since the last prompt: an outcome line adds a call only for another file. */
  editCalls: Set<string>;
  /** The reply being read (fences, SEARCH/REPLACE blocks). */
  scan: EditScan;
  /** The previous line's token report while it has no cost: a `Cost:` line that follows completes it. */
  costless: AgentTokenUsage | null;
};

function newRunState(time: string | null): RunState {
  return { time, model: null, inPrompt: false, editCalls: new Set(), scan: newEditScan(), costless: null };
}

/**
 * Reads the lines of an Aider workspace file (one run; more runs or none are read the same way)
 * into an {@link AgentTranscript}: `records[i].line === i + 1`; a turn per prompt (a run of
 * consecutive `#### ` lines is one prompt, its first line the trigger); every record of a run has
 * the header's time, read in this process's zone (docs/sources/aider.md), and lines before any
 * header have none; `title` null. Never throws: a header with a bad date, a token report it cannot
 * read (a half-written last line) and lines before the first header are warnings naming `file`.
 * O(lines).
 */
export function parseAiderLines(lines: readonly string[], file: string): AgentTranscript {
  const records: AgentRecord[] = [];
  const warnings: SourceWarning[] = [];
  const warn = (line: number, problem: string) => warnings.push({ file, where: `line ${line}`, problem });
  let state = newRunState(null);
  let sawHeader = false;
  let headless = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const n = i + 1;
    const stamp = runHeaderStamp(line);
    if (stamp !== null) {
      const local = parseLocalStamp(stamp);
      if (local === null) warn(n, `run header date "${stamp}" is not YYYY-MM-DD HH:MM:SS: the run's lines have no time`);
      state = newRunState(local === null ? null : localStampToIso(local));
      sawHeader = true;
      records.push(headerRecord(n, line, stamp, state.time));
      continue;
    }
    if (!sawHeader && line.trim() !== "") headless = n;
    const record = PROMPT_LINE.test(line)
      ? promptRecord(n, line, state)
      : OUTPUT_LINE.test(line)
        ? outputRecord(n, line, state, warn)
        : line.trim() === ""
          ? blankRecord(n, state)
          : replyRecord(lines, i, state);
    record.time = state.time;
    records.push(record);
  }
  if (headless > 0) warn(1, `lines 1–${headless} come before any "# aider chat started at" header: they have no time`);
  const { startedAt, endedAt } = timeSpan(records.map((r) => r.time));
  return { records, turns: turnsFromTriggers(records), startedAt, endedAt, title: null, absent: [...AIDER_ABSENT], warnings };
}

function headerRecord(n: number, line: string, stamp: string, time: string | null): AgentRecord {
  const record = emptyRecord(n, AIDER_RECORD_TYPES.header);
  record.role = "system";
  record.time = time;
  record.text = line.replace(/^#\s*/, "");
  record.headline = oneLineHeadline(`Aider run started ${stamp}`);
  record.events = [{ kind: "run_start", detail: `aider chat started at ${stamp}` }];
  return record;
}

/** A `#### ` line: the user's prompt (its first line the trigger) or a line continuing it. */
function promptRecord(n: number, line: string, state: RunState): AgentRecord {
  const record = emptyRecord(n, AIDER_RECORD_TYPES.prompt);
  const text = line.slice(4).trim();
  record.role = "user";
  record.text = text;
  record.trigger = !state.inPrompt;
  record.headline = oneLineHeadline(`User: ${text}`);
  endReply(state);
  state.inPrompt = true;
  state.editCalls.clear();
  return record;
}

/** A `> ` line: Aider's own output (token report, model announcement, edit outcome, error, notice). */
function outputRecord(n: number, line: string, state: RunState, warn: (line: number, problem: string) => void): AgentRecord {
  const record = emptyRecord(n, AIDER_RECORD_TYPES.output);
  const content = line.slice(1).trim();
  record.role = "tool";
  record.text = content;
  record.headline = oneLineHeadline(content);
  record.isError = isErrorLine(content);
  endReply(state);
  const costless = state.costless;
  state.costless = null;
  const usage = parseTokensReport(content, state.model);
  if (usage !== null) {
    record.usage = [usage];
    record.model = state.model;
    if (usage.costUsd === null) state.costless = usage;
    return record;
  }
  if (looksLikeTokensReport(content)) warn(n, `token report not understood (half-written?): "${oneLineHeadline(content, 80)}"`);
  const cost = costless === null ? null : parseCostLine(content);
  if (cost !== null) costless!.costUsd = cost;
  const model = parseModelAnnouncement(content);
  if (model !== null) {
    state.model = model;
    record.model = model;
    record.events = [{ kind: "model_change", detail: model }];
  }
  const outcome = parseEditOutcome(content);
  if (outcome !== null) {
    record.results = [{ id: null, name: "edit", output: content, isError: outcome.isError }];
    record.isError ||= outcome.isError;
    // The reply's block already is this edit's call; an outcome without one is the edit's only trace.
    if (!state.editCalls.has(outcome.path)) {
      record.calls = [editCall(outcome.path)];
      state.editCalls.add(outcome.path);
      record.text = `${content} edit`;
    }
  }
  return record;
}

function blankRecord(n: number, state: RunState): AgentRecord {
  state.inPrompt = false;
  // A blank line inside a report's two halves does not occur: the `Cost:` line follows directly.
  state.costless = null;
  return emptyRecord(n, AIDER_RECORD_TYPES.blank);
}

/** Any other line: the model's reply, or the second half of a token report (`Cost: …` without `> `). */
function replyRecord(lines: readonly string[], i: number, state: RunState): AgentRecord {
  const line = lines[i]!;
  state.inPrompt = false;
  const costless = state.costless;
  state.costless = null;
  const cost = costless === null ? null : parseCostLine(line);
  if (cost !== null) {
    // Aider writes a report with both cache figures as `> Tokens: …` then `Cost: …` without `> `.
    costless!.costUsd = cost;
    const record = emptyRecord(i + 1, AIDER_RECORD_TYPES.output);
    record.role = "tool";
    record.text = line.trim();
    record.headline = oneLineHeadline(line);
    return record;
  }
  const record = emptyRecord(i + 1, AIDER_RECORD_TYPES.reply);
  record.role = "assistant";
  record.model = state.model;
  record.text = line;
  record.headline = oneLineHeadline(`Assistant: ${line}`);
  const edit = scanEditLine(lines, i, state.scan);
  if (edit !== null) {
    const call = editCall(edit.path);
    record.calls = [call];
    record.headline = oneLineHeadline(editHeadline(edit));
    record.text = edit.path === null ? `${line} edit` : `${line} edit ${edit.path}`;
    if (edit.path !== null) state.editCalls.add(edit.path);
  }
  return record;
}

/** A reply ends where a prompt or Aider's output starts: fences and blocks do not carry over. */
function endReply(state: RunState): void {
  state.scan = newEditScan();
}

/** The call for an edit of `path` (input `{ path }`; `{}` when the reply does not name the file). */
function editCall(path: string | null): AgentToolCall {
  return { id: null, name: "edit", input: path === null ? {} : { path }, files: path === null ? [] : [path] };
}

function editHeadline(edit: FoundEdit): string {
  const file = edit.path ?? "(file not named)";
  return edit.kind === "search/replace" ? `Edit ${file}` : `Edit ${file} (${edit.kind})`;
}
