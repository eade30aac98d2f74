/** The shapes of a session's forensics scan (lib/forensics/scan), apart so every scanner (the agents' too) builds them without importing the scan. */
import type { ToolFamily } from "@/lib/forensics/classify";
import type { Finding, TimelineSource, ToolCounts } from "@/lib/forensics/schema";
import type { SessionFile } from "@/lib/workspace/sessions";

/** How many human messages are kept for `top_user_messages`. */
export const MAX_USER_MESSAGES = 5;

/**
 * Aggregates of one session's files, gathered in the same pass that indexes its events (the
 * session's start and end are not among them: lib/workspace/session-clock has the one clock).
 */
export type SessionStats = {
  /** First human messages (text, location), at most {@link MAX_USER_MESSAGES}. */
  userMessages: { text: string; file: string; line: number }[];
  /**
   * Main-transcript user messages that are prompts the user typed (lib/sources/claude-code/user-text,
   * the rule that finds the first real prompt): slash commands, local command output, bash mode,
   * compaction summaries and interruption markers are not counted (issue 36).
   */
  userPromptCount: number;
  byTool: Map<string, ToolCounts & { family: ToolFamily }>;
  families: Map<ToolFamily, { called: number; failed: number }>;
  /** The part of `families` that happened in subagent transcripts (a plain object: stored as JSON). */
  subagentFamilies: Partial<Record<ToolFamily, { called: number; failed: number }>>;
  toolCalls: number;
  toolFailures: number;
  errors: Finding[];
  errorCounts: Map<string, number>;
  warnings: Finding[];
  warningCounts: Map<string, number>;
  subagentTypes: Map<string, number>;
  eventsBySource: Record<TimelineSource, number>;
  /** Events whose main-transcript timestamp was seen, for the `about` ending. */
  mainReplies: number;
  /**
   * A session of an agent read through the source contract (issue 38): every path its tool calls
   * name, distinct, sorted (`session_overview`'s `files_touched`); absent for other sessions.
   */
  filesTouched?: string[];
};

/**
 * The indexed events of one session: parallel typed arrays, one slot per event (a record of a
 * transcript, or one persisted tool-result file), and `order`, the merged timeline order.
 */
export type SessionScan = {
  source: string;
  files: SessionFile[];
  count: number;
  /** Own timestamp (epoch ms) or NaN. */
  ts: Float64Array;
  fileIndex: Uint32Array;
  line: Uint32Array;
  typeId: Uint16Array;
  actorId: Uint8Array;
  /** Event-type strings, indexed by `typeId`. */
  types: string[];
  /** Event slots in timeline order. */
  order: Uint32Array;
  /** Each slot's sort time (epoch ms; ±Infinity, never NaN): non-decreasing along `order`. */
  sortKey: Float64Array;
  stats: SessionStats;
};

/** The stats of a session with no events yet: every count 0, every list and map empty. */
export function emptyStats(): SessionStats {
  return {
    userMessages: [],
    userPromptCount: 0,
    byTool: new Map(),
    families: new Map(),
    subagentFamilies: {},
    toolCalls: 0,
    toolFailures: 0,
    errors: [],
    errorCounts: new Map(),
    warnings: [],
    warningCounts: new Map(),
    subagentTypes: new Map(),
    eventsBySource: { main: 0, subagent: 0, tool_result: 0, audit: 0 },
    mainReplies: 0,
  };
}
