/** Input schema and result types of `read_session_lines` (seed 000). */
import * as z from "zod";

import type { CompactRecord, ViewerExtras } from "@/lib/sources/common/compact-record";

export { RECORD_GROUPS, type CompactRecord, type CompactToolResult, type CompactToolUse, type FileEdit, type RecordGroup, type ViewerExtras } from "@/lib/sources/common/compact-record";

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
