/**
 * The compact record of one transcript line and what the viewer shows beside it (seed 000,
 * contract §4.4, issue 12): the shapes every source's reader builds, so they live in the lowest
 * folder that builds them (lib/session-reader re-exports them with its tool's types).
 */

/** One tool use inside a compact record (seed 000). */
export type CompactToolUse = { name: string; input_summary: string; truncated: boolean };

/** One tool result inside a compact record (seed 000; contract §4.4 for `kind`). */
export type CompactToolResult = {
  kind: string;
  status: string | null;
  file_path: string | null;
  command: string | null;
  preview: string | null;
  raw_bytes: number;
  truncated: boolean;
};

/** A compact record: one per physical line, every field always present (seed 000, contract §4.4). */
export type CompactRecord = {
  line: number;
  record_type: string;
  role: string | null;
  content_kinds: string[];
  summary: string;
  text_preview: string | null;
  tool_uses: CompactToolUse[];
  tool_results: CompactToolResult[];
  raw_bytes: number;
  raw_sha256: string;
  truncated: boolean;
  duplicate_of: number | null;
};

/**
 * The record groups a viewer filter hides or shows (issue 12 item 5): conversation (messages,
 * tool calls and results), progress (hook and command progress, token counts), snapshot
 * (file-history snapshots), system (system records, summaries, queue operations, turn context).
 */
export const RECORD_GROUPS = ["conversation", "progress", "snapshot", "system"] as const;
export type RecordGroup = (typeof RECORD_GROUPS)[number];

/**
 * What the viewer renders beyond a compact record, read from the raw line (issue 12 item 4):
 * the contract-shaped compact record of `read_session_lines` stays as it is.
 */
export type ViewerExtras = {
  /** The record's own timestamp (ISO text as stored), or null. */
  timestamp: string | null;
  group: RecordGroup;
  /** The slash command a user message holds, as typed (`/wsd:init --custom`), or null. */
  command: string | null;
  /** Readable text the compact record leaves out (a summary's title, a system record's content, progress output), bounded; or null. */
  detail: string | null;
  /** What the line did, in one line (`Read(src/auth.ts)`, `Bash(npm test) → exit 1`, an API error); compact mode only, else null. */
  headline: string | null;
  /** File edits the line's tool calls ask for (Edit, MultiEdit, Write), for a diff; compact mode only. */
  edits: FileEdit[];
  /** The session's lines are text (an agent's Markdown history), not JSON records: a line that is no JSON is not malformed. */
  textLine?: true;
  /** A prompt or reply whose record type is the agent's own (not `user` / `assistant`): its text reads as a message (Markdown). */
  message?: true;
};

/** One file edit of an `Edit` / `MultiEdit` / `Write` call, texts clipped for display (`clipped`). */
export type FileEdit = { tool: string; file_path: string; old_string: string; new_string: string; clipped: boolean };
