/**
 * The source contract the agents beyond Claude Code and Codex implement (issue 38): discover
 * sessions where the agent writes, turn one session into the lines of its workspace file, and
 * read those lines back into records, turns and usage. Everything above `lib/sources` reaches an
 * agent only through an {@link AgentSource} (registry: lib/sources/agents.ts).
 */
import { oneLine } from "@/lib/format/one-line";
import type { JsonObject } from "@/lib/sources/common/json-object";
import type { PushedFiles } from "@/lib/sources/common/pushed-files";

/** The agents read through this contract, as their `source` is written in index rows and `agent:` filters. */
export const AGENT_SOURCE_NAMES = ["gemini-cli", "copilot-cli", "opencode", "aider"] as const;
export type AgentSourceName = (typeof AGENT_SOURCE_NAMES)[number];

/** Something a reader skipped or could not read: which file, where in it (`line 12`, `key message/msg_1`), and what. */
export type SourceWarning = { file: string; where: string; problem: string };

/** One session a source's discovery found; `part` picks it out of a file holding several. */
export type FoundSession = {
  source: AgentSourceName;
  /** The agent's own session id (Gemini `sessionId`, Copilot folder uuid, OpenCode `ses_…`, Aider `run-<line>`). */
  sourceSessionId: string;
  /** The file the session is read from (OpenCode: `opencode.db` or the session's `storage/session/…json`). */
  sourcePath: string;
  /** Which session of `sourcePath` (OpenCode: the session id; Aider: the run's first physical line); null for the whole file. */
  part: string | null;
  /** The workspace file's name under `sessions/<source>/`, unique per source. */
  fileName: string;
  /** The project's absolute root when the agent records it, else null (the project becomes unknown). */
  projectRoot: string | null;
  /** Changes whenever the session's content may have changed (size + mtime, or the newest row's `time_updated`). */
  stamp: string;
};

export type RecordRole = "user" | "assistant" | "tool" | "system";

/** A tool call as the agent recorded it; `files` are the paths its input names. */
export type AgentToolCall = { id: string | null; name: string; input: unknown; files: string[] };
/** A tool's answer; `output` is its visible text. */
export type AgentToolResult = { id: string | null; name: string | null; output: string; isError: boolean };

/**
 * Tokens one line accounts for, counted the agent's way (docs/sources/<agent>.md): `input` is fresh
 * input only (cache reads and writes apart), `reasoning` is billed as output but reported apart;
 * `costUsd` when the agent records a cost; `approximate` when the figures are rounded (Aider).
 */
export type AgentTokenUsage = {
  model: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  costUsd: number | null;
  approximate: boolean;
};

/**
 * What happened besides the message itself: a Gemini rewind (`rewind` on the `$rewindTo` line,
 * `rewound` on each message it dropped), a same-id replacement (`replaced` on the older line,
 * `replacement` on the newer), metadata set, a Copilot run starting or resuming or shutting down,
 * an Aider run starting.
 */
export type AgentEvent = {
  kind: "rewind" | "rewound" | "replaced" | "replacement" | "metadata" | "run_start" | "resume" | "shutdown" | "model_change";
  detail: string;
};

/** One physical line of a session's workspace file, read. */
export type AgentRecord = {
  /** 1-based physical line (contract §1.6). */
  line: number;
  /** The agent's own record type (`gemini`, `user.message`, `part:tool`, `prompt`, …). */
  type: string;
  role: RecordRole | null;
  /** ISO 8601 UTC with `Z`, or null when the record has no time. */
  time: string | null;
  /** Every word a reader can see on this line besides its reasoning (message text, tool inputs and outputs), for search and the compact view. */
  text: string;
  /**
   * The line's reasoning (Gemini thoughts, a Copilot reasoning text, an OpenCode reasoning part),
   * "" when none: searchable as `text` is, and left out of the compact view's text as Claude Code's
   * thinking is (its `content_kinds` say `thinking`).
   */
  reasoning: string;
  /** One line that says what happened, for the compact view and the Timeline (≤ 200 characters). */
  headline: string;
  model: string | null;
  calls: AgentToolCall[];
  results: AgentToolResult[];
  /** A failed tool result, an API error, an error message. */
  isError: boolean;
  /** A human prompt: it starts a user turn. */
  trigger: boolean;
  usage: AgentTokenUsage[];
  events: AgentEvent[];
};

/** A session read from its workspace lines. */
export type AgentTranscript = {
  /** `records[i].line === i + 1`, one per physical line. */
  records: AgentRecord[];
  /** Each from a trigger's line to the line before the next trigger (the last to the last line). */
  turns: { turn_start_line: number; turn_end_line: number }[];
  /** Earliest and latest record time (ISO, `Z`), robust to out-of-order lines. */
  startedAt: string | null;
  endedAt: string | null;
  /** The agent's title for the session, else null. */
  title: string | null;
  /** Concepts the agent does not have, named so pages say so instead of showing zeros (`subagents`, `cost`, …). */
  absent: string[];
  warnings: SourceWarning[];
};

/**
 * Some lines of a session read as {@link AgentTranscript} reads them, without the whole transcript
 * (issue 38 speed: a 2,000-line window of a 12 MB chat): `record(line)` is exactly
 * `transcript.records[line - 1]` (made when first asked for), and the answers about the whole
 * session a line's compact record needs are given apart.
 */
export type AgentLines = {
  /** Physical lines of the session (`transcript.records.length`). */
  readonly lineCount: number;
  /** The record of 1-based `line`, undefined past the last line. */
  record(line: number): AgentRecord | undefined;
  /** The first call whose id is `id` in line order (then in a line's order), as the transcript's records hold them; undefined when none. */
  firstCall(id: string): AgentToolCall | undefined;
  /** The first line holding a `rewind` event, else null. */
  firstRewindLine(): number | null;
  /**
   * Optional: what this reader knows of the whole file, as JSON text, from which its source's
   * {@link AgentSource.linesFromFacts} reads the same lines again reading only the lines asked for
   * (issue 38 speed: stored per file version). Call it before asking for records.
   */
  facts?(): string;
};

/** A session's records: read whole, or line by line as asked for (lib/sources/agent-transcripts `readAgentLines`: a page needs a few). */
export type AgentSession = AgentTranscript | AgentLines;

/** `session` as {@link AgentLines} (a transcript through {@link transcriptLines}). */
export function agentLines(session: AgentSession): AgentLines {
  return "records" in session ? transcriptLines(session) : session;
}

const linesOfTranscripts = new WeakMap<AgentTranscript, AgentLines>();

/** `transcript` as {@link AgentLines} (one per transcript: what it looks up across lines is computed once). */
export function transcriptLines(transcript: AgentTranscript): AgentLines {
  let lines = linesOfTranscripts.get(transcript);
  if (lines !== undefined) return lines;
  const { records } = transcript;
  let byId: Map<string, AgentToolCall> | null = null;
  let rewind: number | null | undefined;
  lines = {
    lineCount: records.length,
    record: (line) => records[line - 1],
    firstCall(id) {
      if (byId === null) {
        byId = new Map();
        for (const r of records) for (const c of r.calls) if (c.id !== null && !byId.has(c.id)) byId.set(c.id, c);
      }
      return byId.get(id);
    },
    firstRewindLine() {
      if (rewind === undefined) rewind = records.find((r) => r.events.some((e) => e.kind === "rewind"))?.line ?? null;
      return rewind;
    },
  };
  linesOfTranscripts.set(transcript, lines);
  return lines;
}

/** One agent behind the contract. */
export type AgentSource = {
  name: AgentSourceName;
  /** For people: `Gemini CLI`, `GitHub Copilot CLI`, `OpenCode`, `Aider`. */
  label: string;
  /** What the agent does not record, as every transcript of it says ({@link AgentTranscript.absent}): known without reading one. */
  absent: readonly string[];
  /** Where the agent writes by default (absolute), given the user's home and environment; [] when it has no default (Aider). */
  defaultRoots(home: string, env: NodeJS.ProcessEnv): string[];
  /** Which files under one of its roots a team push sends (issue 39): what `discover` reads, never credentials. */
  pushed: PushedFiles;
  /** Every session under `root` (a default root, or a path the user added); unreadable parts become warnings. */
  discover(root: string): Promise<{ sessions: FoundSession[]; warnings: SourceWarning[] }>;
  /**
   * The workspace file's physical lines for one session, without terminators: a byte copy's lines
   * for line-based formats, one JSON line per original object otherwise ({@link jsonLine}).
   */
  exportLines(session: FoundSession, scratch?: ExportScratch): Promise<ExportedLines>;
  /**
   * Reads the workspace file's lines (`file` names it in warnings); a malformed line is a warning,
   * never an exception. `objects`: what {@link ExportedLines.objects} gave with these lines.
   */
  parseLines(lines: readonly string[], file: string, objects?: ExportedLines["objects"]): AgentTranscript;
  /**
   * Optional (issue 38 speed): what prepare keeps of `parseLines(exported.lines, file, exported.objects)`
   * — its turns, their prompts' times and its warnings, exactly — read faster; null when this
   * reader cannot tell them for these lines (the caller then parses them).
   */
  prepareTurns?(exported: ExportedLines, file: string): PreparedTurns | null;
  /**
   * Optional (issue 38 speed): the workspace file's bytes `data` read as `parseLines` reads their
   * physical lines (`file` names it), each line's record made only when asked for (`window`: the
   * 1-based lines, inclusive, whose records will be, which a reader may read ahead); null when this
   * reader cannot tell them without the whole read (the caller then parses the lines). Warnings are not given.
   */
  readLines?(data: Buffer, file: string, window?: { start: number; end: number }): AgentLines | null;
  /**
   * Optional, with `readLines` (issue 38 speed): the lines `readLines` read from a file of
   * `lineCount` physical lines, from the `facts()` they gave for those bytes, `lineText(line)` (its
   * text without the terminator) read only for the records asked for; null when `facts` are not
   * this reader's (another version): the caller reads the file.
   */
  linesFromFacts?(facts: string, lineCount: number, lineText: (line: number) => string, file: string): AgentLines | null;
};

/** What prepare keeps of a session read: its turns, each turn's prompt time (its trigger record's `time`), the reader's warnings. */
export type PreparedTurns = { turns: AgentTranscript["turns"]; promptTimes: (string | null)[]; warnings: SourceWarning[] };

/** The {@link PreparedTurns} of a transcript read in full. */
export function preparedTurns(transcript: AgentTranscript): PreparedTurns {
  const promptTimes = transcript.turns.map((t) => transcript.records[t.turn_start_line - 1]?.time ?? null);
  return { turns: transcript.turns, promptTimes, warnings: transcript.warnings };
}

/** One session exported by {@link AgentSource.exportLines} (issue 38: what prepare writes and reads back at once). */
export type ExportedLines = {
  lines: string[];
  warnings: SourceWarning[];
  /** The workspace file's bytes when the exporter holds them already (a byte copy): exactly `lines`, each followed by `\n`, no line holding a break. */
  bytes?: Buffer;
  /**
   * When `bytes` are file `path`'s bytes exactly as read, that file's `size`, `mtimeMs` and `mode`
   * as stat before the read: prepare then has the kernel copy the file (issue 38: a copy in the
   * kernel, as `cp` makes, costs a fraction of writing the bytes from memory).
   */
  copyOf?: FileAsRead;
  /** The objects the lines were made from, `[i]` for line `i + 1` (null: not an object), when the exporter parsed them: parseLines takes them instead of parsing each line again. */
  objects?: readonly (JsonObject | null)[];
};

/**
 * Buffers an exporter may read a session's file into and build its workspace bytes in (`slot` 0
 * and 1), reused from session to session by prepare's reader (issue 38: 800 MB of fresh buffers a
 * prepare cost page faults and garbage collections): `buffer` gives `size` bytes (content
 * unspecified). What the export returns may then hold views of them, valid until the next export
 * given the same scratch: only its caller reads them, before that.
 */
export type ExportScratch = { buffer(slot: 0 | 1, size: number): Buffer };

/** A file as it was stat before it was read whole (see {@link ExportedLines}'s `copyOf`). */
export type FileAsRead = { path: string; size: number; mtimeMs: number; mode: number };

/**
 * `JSON.stringify(value)` safe as one physical line (contract §1.6): U+0085, U+2028 and U+2029,
 * which JSON leaves raw but Python's `splitlines` breaks on, are written as `\u` escapes.
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Earliest and latest of ISO times (null when none): a session's start and end whatever the lines' order. */
export function timeSpan(times: Iterable<string | null>): { startedAt: string | null; endedAt: string | null } {
  let first: { ms: number; iso: string } | null = null;
  let last: { ms: number; iso: string } | null = null;
  for (const iso of times) {
    if (iso === null) continue;
    const ms = Date.parse(iso);
    if (Number.isNaN(ms)) continue;
    if (first === null || ms < first.ms) first = { ms, iso };
    if (last === null || ms > last.ms) last = { ms, iso };
  }
  return { startedAt: first?.iso ?? null, endedAt: last?.iso ?? null };
}

/** Turns from records: each trigger to the line before the next trigger, the last to the last record. */
export function turnsFromTriggers(records: readonly AgentRecord[]): AgentTranscript["turns"] {
  const starts = records.filter((r) => r.trigger).map((r) => r.line);
  const last = records.length;
  return starts.map((start, i) => ({ turn_start_line: start, turn_end_line: (starts[i + 1] ?? last + 1) - 1 }));
}

/** A record with nothing on it but its line and type: the base each reader fills in. */
export function emptyRecord(line: number, type: string): AgentRecord {
  return { line, type, role: null, time: null, text: "", reasoning: "", headline: "", model: null, calls: [], results: [], isError: false, trigger: false, usage: [], events: [] };
}

/**
 * A headline cut to one line of at most `max` characters, as lib/format's `oneLine` makes every
 * headline (terminal sequences stripped, whitespace runs one space, controls escaped, `…` when cut).
 * Only as much of a long text as the headline can show is read (a tool's output may be megabytes; issue 38).
 */
export function oneLineHeadline(text: string, max = 200): string {
  // lib/format's oneLine (terminal sequences stripped, controls escaped) over only as much of a long
  // text as the headline shows: a prefix whose one-line form is already longer than `max` is cut
  // where the whole text's would be.
  for (let end = Math.min(text.length, 2 * max + 64); end < text.length; end = Math.min(text.length, 4 * end)) {
    const head = text.slice(0, end);
    if (oneLine(head, max + 2).length >= max + 2) return oneLine(head, max);
  }
  return oneLine(text, max);
}
