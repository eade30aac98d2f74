/** Input schema and result types of `read_session_lines` (seed 000). */
import * as z from "zod";

/** Seed 000: compact mode reads at most 2000 lines, full mode at most 100. */
export const MAX_COMPACT_LINES = 2000;
export const MAX_FULL_LINES = 100;

export const READ_MODES = ["compact", "full"] as const;
export type ReadMode = (typeof READ_MODES)[number];

/**
 * Input of `read_session_lines` (seed 000). Types are checked loosely here so that range
 * problems come back as the seed's `{status:"invalid", errors:[{field,message,hint}]}` values.
 */
export const readSessionLinesInputSchema = z.object({
  project_key: z.string().describe("Project directory name under projects/ in the prepared workspace."),
  session_ref: z.string().describe("Session handle from sessions.index.jsonl, e.g. S0001."),
  start_line: z.number().int().describe("First physical line to read, 1-based, inclusive."),
  end_line: z.number().int().describe("Last physical line to read, 1-based, inclusive."),
  mode: z
    .enum(READ_MODES)
    .default("compact")
    .describe(
      'compact (default): one bounded structured record per line, at most 2000 lines. full: verbatim raw JSONL lines, at most 100 lines; full returns raw lines and can be very large, so use it only for a narrow range where exact raw content is necessary.',
    ),
});
export type ReadSessionLinesInput = z.infer<typeof readSessionLinesInputSchema>;

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

/** A full-mode record: the verbatim physical line (seed 000). */
export type FullRecord = { line: number; raw_line: string; raw_bytes: number; raw_sha256: string };

/** One structured error of `read_session_lines` (seed 000 error model; key is `field`). */
export type FieldError = { field: string; message: string; hint: string };
export type InvalidResult = { status: "invalid"; errors: FieldError[] };

export type ReadSessionLinesOk = {
  status: "ok";
  project_key: string;
  session_ref: string;
  line_range: { start: number; end: number };
  mode: ReadMode;
  records: CompactRecord[] | FullRecord[];
};
export type ReadSessionLinesResult = ReadSessionLinesOk | InvalidResult;

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

/** Display cap for one raw line in the dashboard viewer's full mode (bytes of UTF-8). */
export const VIEWER_RAW_CLIP_BYTES = 256 * 1024;

/** A full record as the viewer receives it: the raw line, clipped for display when huge, and the viewer's extras. */
export type ViewerFullRecord = FullRecord & { clipped: boolean; view: ViewerExtras };
/** A compact record as the viewer receives it: the contract's record plus what the viewer renders from the raw line. */
export type ViewerCompactRecord = CompactRecord & { view: ViewerExtras };

/**
 * Response of `GET /api/projects/<key>/sessions/<ref>/lines?start&end&mode[&agent]`: one window
 * of lines for the dashboard viewer (main session, or a subagent transcript with `agent`).
 */
export type ViewerLinesResult = {
  status: "ok";
  line_count: number;
  line_range: { start: number; end: number };
  mode: ReadMode;
  records: ViewerCompactRecord[] | ViewerFullRecord[];
};
