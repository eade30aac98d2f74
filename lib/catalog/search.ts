// search_sessions: ranked full-text search over every session's lines, through the catalog's FTS5 trigram index.

import { catalogDb } from "@/lib/catalog/catalog";
import { lineRowid } from "@/lib/catalog/db-schema";
import { ensureProjects } from "@/lib/catalog/ensure";
import { fillFullText, fullTextCoverage } from "@/lib/catalog/full-text-index";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { HIT_CLOSE, HIT_OPEN, type SearchSessionsInput, type SearchSessionsResult } from "@/lib/catalog/schema";
import type { CoreContext } from "@/lib/context";
import { SqlWhere } from "@/lib/catalog/where";

/**
 * Finds `query` in every indexed line (user and agent text, tool names, tool inputs, bounded
 * tool results), best first (BM25; ties by project, session, line), with the session filters.
 * `total` counts every matching line; `session_id` is the source's session id; `turn_ref` the
 * indexed turn holding the line, null outside every turn. The catalog's rows are brought in step
 * with moved projects first (stats only). Lines not yet indexed: a one-shot process (the CLI)
 * indexes them before it answers; a long-running one (the dashboard, the MCP server) answers from
 * what is indexed, says so (`status: "indexing"`, `coverage`), and has the rest indexed in the background.
 * @throws AppError not_found | parse_error when the workspace cannot be loaded.
 */
export async function searchSessions(ctx: CoreContext, input: SearchSessionsInput): Promise<SearchSessionsResult> {
  await ensureProjects(ctx);
  const scope = { project_key: input.project_key, source: input.source };
  let coverage = fullTextCoverage(ctx, scope);
  if (coverage.sessions_indexed < coverage.sessions_total) {
    if (ctx.oneShot) {
      ctx.log.info(`[casefile] indexing ${coverage.sessions_total - coverage.sessions_indexed} session(s) for full-text search first (the dashboard does this in the background)`);
      await fillFullText(ctx);
      coverage = fullTextCoverage(ctx, scope);
    } else void requestFullTextFill(ctx.workspaceRoot).catch((error: unknown) => ctx.log.warn(`[casefile] full-text fill failed: ${String(error)}`));
  }
  const db = catalogDb(ctx);
  const where = new SqlWhere(["lines_fts MATCH @match"], { match: `"${input.query.replaceAll('"', '""')}"` })
    .add("s.project_key = @project_key", "project_key", input.project_key || undefined)
    .add("s.source = @source", "source", input.source || undefined)
    .add("coalesce(s.ended_at, s.started_at) >= @since", "since", input.since ? new Date(input.since).toISOString() : undefined)
    .add("s.started_at <= @until", "until", input.until ? untilIso(input.until) : undefined)
    .add("EXISTS (SELECT 1 FROM session_files f WHERE f.session_id = s.id AND instr(f.path, @file) > 0)", "file", input.file || undefined)
    .add("EXISTS (SELECT 1 FROM session_tools t WHERE t.session_id = s.id AND t.name = @tool)", "tool", input.tool || undefined);
  if (input.has_error !== undefined) where.add(input.has_error ? "s.error_count > 0" : "s.error_count = 0");
  const params = where.params;
  const from = `FROM lines_fts JOIN sessions s ON s.id = lines_fts.session_id WHERE ${where.sql}`;
  // The match is evaluated once: rank, keys and the total of every hit in one query (a window count
  // over the ranked rows), then only the page's hits are highlighted.
  const page = db
    .prepare(
      `SELECT *, count(*) OVER () FROM (SELECT lines_fts.rowid AS rid, bm25(lines_fts) AS rank, s.id AS sid, s.project_key AS pk, s.session_ref AS sr,
         s.source_session_id AS ssid, lines_fts.line_number AS ln ${from}) ORDER BY rank, pk, sr, ln LIMIT @limit OFFSET @offset`,
    )
    .raw()
    .all({ ...params, limit: input.limit, offset: input.offset }) as Matched[];
  // The snippet is the hit's own line, addressed by its session and line number (a rowid over 2^32
  // bound as a JS number reached FTS5 as a REAL and highlighted the first match's row instead).
  const highlight = db.prepare(`SELECT highlight(lines_fts, 0, '${HIT_OPEN}', '${HIT_CLOSE}') FROM lines_fts WHERE lines_fts MATCH ? AND rowid = ?`).pluck();
  const rows = page.map(([, rank, sid, project_key, session_ref, source_session_id, line_number]) => ({
    sid,
    project_key,
    session_ref,
    source_session_id,
    line_number,
    rank,
    snippet: (highlight.get(params.match, lineRowid(sid, line_number)) as string | undefined) ?? "",
  }));
  // An empty page (no hit, or past the last one) has no row to carry the count: counted alone then.
  const total = page.length > 0 ? page[0]![7] : (db.prepare(`SELECT count(*) ${from}`).pluck().get(params) as number);
  const turnOf = db.prepare("SELECT turn_ref FROM turns WHERE session_id = ? AND turn_start_line <= ? AND turn_end_line >= ? ORDER BY turn_start_line DESC LIMIT 1");
  const hits = rows.map((r) => ({
    project_key: r.project_key,
    session_ref: r.session_ref,
    session_id: r.source_session_id,
    line_number: r.line_number,
    turn_ref: (turnOf.get(r.sid, r.line_number, r.line_number) as { turn_ref: string } | undefined)?.turn_ref ?? null,
    snippet: snippetOf(r.snippet),
    // BM25 is lower-is-better and negative; the score is its negation, higher is better.
    score: Math.round(-r.rank * 1000) / 1000,
  }));
  return { status: coverage.sessions_indexed < coverage.sessions_total ? "indexing" : "ok", total, offset: input.offset, limit: input.limit, coverage, hits };
}

/** One hit of a page: FTS rowid, BM25 rank (lower is better), session row id, project key, session ref, source session id, line number, and the total of hits. */
type Matched = [number, number, number, string, string, string, number, number];

/** Characters of context kept before the first match and after it in a snippet. */
const SNIPPET_BEFORE = 80;
const SNIPPET_AFTER = 200;

/** The part of a highlighted line around its first match, on one line, `…` where it was cut; marks never cut. */
function snippetOf(marked: string): string {
  const open = marked.indexOf(HIT_OPEN);
  const close = open === -1 ? -1 : marked.indexOf(HIT_CLOSE, open);
  const start = open === -1 ? 0 : Math.max(0, open - SNIPPET_BEFORE);
  let end = Math.min(marked.length, (close === -1 ? 0 : close + HIT_CLOSE.length) + SNIPPET_AFTER);
  // Never end inside a later mark: close it or leave it out.
  const lastOpen = marked.lastIndexOf(HIT_OPEN, end - 1);
  if (lastOpen > close && marked.lastIndexOf(HIT_CLOSE, end - 1) < lastOpen) end = lastOpen;
  const text = marked.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${text}${end < marked.length ? "…" : ""}`;
}

/** A bare date as `until` means the whole day. */
function untilIso(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`).toISOString() : new Date(value).toISOString();
}
