// The shapes of search_sessions: its input schema, its result, the snippet marks (client-safe).

import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import * as z from "zod";

import { formatQueryError, parseSearchQuery, type ParsedQuery, QueryError } from "@/lib/catalog/search-query";
import { dateOrTimestamp, wholeNumber } from "@/lib/tools/input-fields";

/** Shortest text the trigram index can narrow by (three characters make one trigram). */
export const MIN_QUERY_CHARS = 3;

/** The query language, as every door describes it (issue 37; README "Search"). */
export const QUERY_HELP =
  'What to find, matched like a case-insensitive grep of every word a reader can see (text, thinking, tool inputs and results, subagents, persisted tool results): words (all must be on the line), "exact phrase", a OR b, -word (exclude), word* (at a word start), and filters project:KEY session:REF agent:claude-code|codex|gemini-cli|copilot-cli|opencode|aider machine:NAME role:user|assistant|tool tool:NAME file:PATH-PART is:error after:YYYY-MM-DD before:YYYY-MM-DD. At least one term or filter; text of 3+ characters narrows the search.';

/** Longest query, in characters. */
export const MAX_QUERY_CHARS = 500;

/** Input of `search_sessions` (issue 25, Build 3; the query language of issue 37). */
export const searchSessionsInputSchema = z.object({
  query: z
    .string()
    .trim()
    .min(1, "query must not be empty")
    .max(MAX_QUERY_CHARS)
    // One parser on every door: a malformed query is refused here with its position and problem.
    .superRefine((value, check) => {
      try {
        const parsed = parseSearchQuery(value);
        // Every line would be a candidate: refused, as a grep for two letters over every session would take minutes.
        if (!parsed.clauses.some((c) => c.any.every((t) => t.text.length >= MIN_QUERY_CHARS)) && !narrows(parsed)) {
          check.addIssue({ code: "custom", message: formatQueryError({ position: 0, problem: `a search needs a word of at least ${MIN_QUERY_CHARS} characters or a filter` }), params: { hint: 'add a longer word, a "phrase" or a filter such as tool:Bash or is:error' } });
        }
      } catch (error) {
        if (!(error instanceof QueryError)) throw error;
        check.addIssue({ code: "custom", message: formatQueryError(error), params: { hint: error.hint } });
      }
    })
    .describe(QUERY_HELP),
  project_key: z.string().min(1).optional().describe("Only sessions of this project (the same as project:KEY in the query)."),
  session_ref: z.string().min(1).optional().describe("Only this session of project_key (find in session; the same as session:REF)."),
  source: z.enum(TRANSCRIPT_SOURCES).optional().describe("Only sessions of this source (the same as agent:NAME)."),
  since: dateOrTimestamp().optional().describe("Only sessions active at or after this time (their last record)."),
  until: dateOrTimestamp().optional().describe("Only sessions started at or before this time."),
  file: z.string().min(1).optional().describe("Only lines whose tool call names a file path containing this text, e.g. src/auth.ts (the same as file:PATH-PART)."),
  tool: z.string().min(1).optional().describe("Only lines that call or answer this tool, e.g. WebFetch or shell (the same as tool:NAME)."),
  has_error: z.boolean().optional().describe("true: only lines recording an error (the same as is:error); false: only lines that do not."),
  transcript: z.string().min(1).optional().describe('With session_ref: only one file of the session, "main" (its transcript) or a subagent\'s agent id.'),
  order: z.enum(["relevance", "line"]).default("relevance").describe("relevance: grouped by session, best first; line: in file and line order (find in session), the check stopping once the page is full."),
  limit: wholeNumber().min(1).max(200).default(20),
  offset: wholeNumber().min(0).default(0),
});
export type SearchSessionsInput = z.infer<typeof searchSessionsInputSchema>;

/**
 * One hit: a line of a session's transcript (`file.kind` main), of one of its subagents'
 * transcripts (`file.id` the agent id) or of a persisted tool result (`file.id` the tool-use id,
 * `file.call_line` the transcript's line that calls it, where a reader opens it); `line_number` is the line in that file. `snippet` is the line's own text around its first match,
 * the matches marked with `[[` and `]]`. `role` who the line speaks for, `time` its record time
 * (ISO, null when it has none), `turn_ref` the session's turn holding it (main transcript only),
 * `session_title` the session's first real prompt, `session_hits` the lines of the session that match.
 */
export type SearchHit = {
  project_key: string;
  session_ref: string;
  session_id: string;
  /** The machine the session came from (issue 39 provenance). */
  machine: string;
  session_title: string | null;
  session_hits: number;
  file: { kind: "main" | "subagent" | "tool_result"; id: string | null; call_line: number | null };
  line_number: number;
  turn_ref: string | null;
  role: "user" | "assistant" | "tool" | "other";
  time: string | null;
  snippet: string;
  score: number;
};
/**
 * How much of the sessions searched (narrowed by project and source) the result covers:
 * `sessions_indexed` whose lines are all indexed, of `sessions_total` with a file; and
 * `lines_unchecked`, candidate lines the search could not check: no time left (a query found on a
 * very large part of the workspace: the hits are then those of the lines checked), or a file that
 * cannot be read now (removed or unreadable since it was indexed). 0 when every candidate was checked.
 */
export type SearchCoverage = { sessions_indexed: number; sessions_total: number; lines_unchecked: number };
/**
 * A page of hits, grouped by session: the hits of one session follow each other, sessions best
 * first (their best line; the most recent first among equals), lines best first within a session.
 * `total` counts every matching line, `sessions` the sessions they are in. `query` is the query as
 * understood (canonical form). `status` is `indexing` while the index is still being filled (a new
 * or grown workspace, in the background): the hits are then those of the `coverage.sessions_indexed` sessions indexed so far.
 */
export type SearchSessionsResult = { status: "ok" | "indexing"; query: string; total: number; sessions: number; offset: number; limit: number; coverage: SearchCoverage; hits: SearchHit[] };

/** Marks around a match in a snippet (plain text: the dashboard renders them as highlights). */
export const HIT_OPEN = "[[";
export const HIT_CLOSE = "]]";

/** True when a query has a filter: its lines are then found from the lines' facts, not their text. */
function narrows(parsed: ParsedQuery): boolean {
  const f = parsed.filters;
  return f.is_error || f.after !== null || f.before !== null || [f.project, f.session, f.agent, f.machine, f.role, f.tool, f.file].some((list) => list.length > 0);
}
