// The shapes of search_sessions: its input schema, its result, the snippet marks (client-safe).

import * as z from "zod";

import { dateOrTimestamp, wholeNumber } from "@/lib/tools/input-fields";

/** Shortest query the trigram index can answer (three characters make one trigram). */
export const MIN_QUERY_CHARS = 3;

/** Input of `search_sessions` (issue 25, Build 3). */
export const searchSessionsInputSchema = z.object({
  query: z
    .string()
    .trim()
    .min(MIN_QUERY_CHARS, `query must be at least ${MIN_QUERY_CHARS} characters`)
    .max(500)
    // SQLite reads an FTS5 query as C text, which ends at U+0000 ("unterminated string", issue 35);
    // a search for it is refused here, with a message, on every door. Other control characters
    // (tab, newline, an escape sequence's ESC) are searched for like any character.
    .refine((v) => !v.includes("\u0000"), "query must not contain a NUL character (U+0000): the full-text index cannot search for it")
    .describe("Text to find, matched literally and case-insensitively (a phrase, a file name, an error)."),
  project_key: z.string().min(1).optional().describe("Only sessions of this project."),
  source: z.enum(["claude-code", "codex"]).optional().describe("Only sessions of this source."),
  since: dateOrTimestamp().optional().describe("Only sessions active at or after this time (their last record)."),
  until: dateOrTimestamp().optional().describe("Only sessions started at or before this time."),
  file: z.string().min(1).optional().describe("Only sessions whose tools named a file path containing this text, e.g. src/auth.ts."),
  tool: z.string().min(1).optional().describe("Only sessions that used this tool, e.g. WebFetch or shell."),
  has_error: z.boolean().optional().describe("true: only sessions with a tool error; false: only sessions without."),
  limit: wholeNumber().min(1).max(200).default(20),
  offset: wholeNumber().min(0).default(0),
});
export type SearchSessionsInput = z.infer<typeof searchSessionsInputSchema>;

/** One hit: a line of a session; `snippet` marks the matches with `[[` and `]]`. */
export type SearchHit = { project_key: string; session_ref: string; session_id: string; line_number: number; turn_ref: string | null; snippet: string; score: number };
/**
 * How much the full-text index covers of the sessions searched (narrowed by `project_key` and
 * `source`): sessions whose lines are all indexed, of all sessions with a file.
 */
export type SearchCoverage = { sessions_indexed: number; sessions_total: number };
/**
 * A page of hits. `status` is `indexing` while the index is still being filled (a new or grown
 * workspace, in the background): the hits are then those of the `coverage.sessions_indexed` sessions indexed so far.
 */
export type SearchSessionsResult = { status: "ok" | "indexing"; total: number; offset: number; limit: number; coverage: SearchCoverage; hits: SearchHit[] };

/** Marks around a match in a snippet (plain text: the dashboard renders them as highlights). */
export const HIT_OPEN = "[[";
export const HIT_CLOSE = "]]";

