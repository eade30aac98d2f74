// search_sessions: every word a reader can see, found like a grep: trigram candidates from the index, each checked on its own line.

import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";

import { catalogDb } from "@/lib/catalog/catalog";
import { DOC_KINDS, lineRowid } from "@/lib/catalog/db-schema";
import { ensureProjects } from "@/lib/catalog/ensure";
import { lineFacts } from "@/lib/catalog/extract";
import { agentLineTexts, type DocFormat, docFormat, ROLE_CODES } from "@/lib/catalog/extract-lines";
import { fillFullText, fullTextCoverage } from "@/lib/catalog/full-text-index";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { HIT_CLOSE, HIT_OPEN, type SearchHit, type SearchSessionsInput, type SearchSessionsResult } from "@/lib/catalog/schema";
import { describeQuery, parseSearchQuery, type ParsedQuery } from "@/lib/catalog/search-query";
import { candidateExpression, highlightSnippet, matchLine, scoreLine } from "@/lib/catalog/search-match";
import { stmt } from "@/lib/catalog/transactions";
import { SqlWhere } from "@/lib/catalog/where";
import { StampedCache } from "@/lib/cache/stamped-cache";
import { processWide } from "@/lib/cache/process-wide";
import type { CoreContext } from "@/lib/context";
import { loadWorkspace } from "@/lib/workspace/load";
import { localMachine } from "@/lib/workspace/machines";

/**
 * How much of the candidate lines a search reads to check them against their text
 * (`checkBytes`, bytes of the lines; env `CASEFILE_SEARCH_CHECK_BYTES`). Past it, the lines left
 * (the oldest documents') are counted in `coverage.lines_unchecked` and the hits are those of the
 * lines checked: a query found on a very large part of the workspace (a common word over 20,000
 * sessions) answers in about half a second instead of reading every line. Bytes, not time: the
 * same query gives the same answer however loaded the machine (24 MiB ≈ 0.4 s here). Tests set the
 * env so their results are whole; one test lowers it.
 */
export const SEARCH_LIMITS = { checkBytes: Number(process.env.CASEFILE_SEARCH_CHECK_BYTES) || 24 << 20 };

/**
 * Finds the lines matching `input.query` (the query language of lib/catalog/search-query: words,
 * phrases, OR, -exclusions, prefixes, filters) in every session's documents: transcripts,
 * subagent transcripts and persisted tool results, whole (issue 37). The trigram index gives the
 * lines holding every three characters of the query's terms; each is then read from its file and
 * checked on its visible text (lib/catalog/extract), so the lines found are exactly those a
 * case-insensitive grep of that text finds. Grouped by session, best first (see
 * {@link SearchSessionsResult}); a page of `limit` hits from `offset`. Lines not yet indexed: a
 * one-shot process (the CLI) indexes them before it answers; a long-running one answers from what
 * is indexed, says so (`status: "indexing"`, `coverage`), and has the rest indexed in the background.
 * @throws AppError not_found | parse_error when the workspace cannot be loaded.
 */
export async function searchSessions(ctx: CoreContext, input: SearchSessionsInput): Promise<SearchSessionsResult> {
  await ensureProjects(ctx);
  const parsed = withInputFilters(parseSearchQuery(input.query), input);
  const scope = { project_key: parsed.filters.project.length === 1 ? parsed.filters.project[0] : undefined, source: parsed.filters.agent.length === 1 ? parsed.filters.agent[0] : undefined, machine: parsed.filters.machine.length === 1 ? parsed.filters.machine[0] : undefined };
  let coverage = await fullTextCoverage(ctx, scope);
  if (coverage.sessions_indexed < coverage.sessions_total) {
    if (ctx.oneShot) {
      ctx.log.info(`[casefile] indexing ${coverage.sessions_total - coverage.sessions_indexed} session(s) for full-text search first (the dashboard does this in the background)`);
      await fillFullText(ctx);
      coverage = await fullTextCoverage(ctx, scope);
    } else void requestFullTextFill(ctx.workspaceRoot).catch((error: unknown) => ctx.log.warn(`[casefile] full-text fill failed: ${String(error)}`));
  }
  const stamp = indexStamp(ctx);
  const key = `${ctx.workspaceRoot}\0${describeQuery(parsed)}\0${input.since ?? ""}\0${input.until ?? ""}\0${input.has_error === false ? "no-error" : ""}\0${input.transcript ?? ""}`;
  const cache = searchCache();
  // In line order the check stops once the page is full: nothing whole to keep.
  let found = input.order === "relevance" ? cache.get(key, stamp) : undefined;
  if (found === undefined) {
    found = await findLines(ctx, parsed, input);
    if (input.order === "relevance") cache.set(key, stamp, found, found.hits.length * 160 + 64);
  }
  const page = found.hits.slice(input.offset, input.offset + input.limit);
  return {
    status: coverage.sessions_indexed < coverage.sessions_total ? "indexing" : "ok",
    query: describeQuery(parsed),
    total: found.hits.length,
    sessions: found.sessions,
    offset: input.offset,
    limit: input.limit,
    coverage: { ...coverage, lines_unchecked: found.unchecked },
    hits: await describeHits(ctx, parsed, page, found),
  };
}

/** The structured input fields, added to the query's filters (they mean the same). */
function withInputFilters(parsed: ParsedQuery, input: SearchSessionsInput): ParsedQuery {
  const f = { ...parsed.filters };
  const add = (list: string[], value: string | undefined) => (value === undefined || list.includes(value) ? list : [...list, value]);
  f.project = add(f.project, input.project_key);
  f.session = add(f.session, input.session_ref);
  f.agent = add(f.agent, input.source);
  f.file = add(f.file, input.file);
  f.tool = add(f.tool, input.tool);
  if (input.has_error === true) f.is_error = true;
  return { ...parsed, filters: f };
}

/** A line that matched: where it is (its file, byte span and line), who it is, and its score. */
type Found = { rowid: bigint; docId: number; kind: number; name: string; line: number; start: number; len: number; relPath: string; projectKey: string; source: string; sid: number; role: number; time: number | null; score: number };
/** Every matching line of a query, in result order; sessions with a hit; candidate lines left unchecked. */
type FoundLines = { hits: Found[]; sessions: number; unchecked: number; sessionHits: Map<number, number> };

/** A candidate row: its line's rowid, byte span, role, time, document and session (with its source). */
type Candidate = [rowid: bigint, start: number, len: number, role: number, time: number | null, docId: number, kind: number, name: string, relPath: string, sid: number, projectKey: string, recency: string | null, source: string];

async function findLines(ctx: CoreContext, parsed: ParsedQuery, input: SearchSessionsInput): Promise<FoundLines> {
  const db = catalogDb(ctx);
  const f = parsed.filters;
  const where = new SqlWhere(["s.missing = 0"]);
  const inList = (column: string, name: string, values: readonly (string | number)[]) => {
    if (values.length === 0) return;
    where.add(`${column} IN (${values.map((_, i) => `@${name}${i}`).join(", ")})`);
    values.forEach((v, i) => (where.params[`${name}${i}`] = v));
  };
  inList("s.project_key", "project", f.project);
  inList("s.session_ref", "session", f.session);
  inList("s.source", "agent", f.agent);
  inList("s.machine", "machine", f.machine);
  inList("m.role", "role", f.role.map((r) => ROLE_CODES.indexOf(r)));
  anyOf(where, "tool", f.tool, (p) => `instr(char(10) || lower(m.tools) || char(10), char(10) || lower(${p}) || char(10)) > 0`);
  anyOf(where, "file", f.file, (p) => `instr(lower(m.files), lower(${p})) > 0`);
  if (f.is_error) where.add("m.error = 1");
  if (input.has_error === false) where.add("m.error = 0");
  if (f.after !== null) where.add("coalesce(m.time >= @after_ms, s.started_at >= @after)", "after", `${f.after}T00:00:00.000Z`).params.after_ms = Date.parse(`${f.after}T00:00:00.000Z`);
  if (f.before !== null) where.add("coalesce(m.time < @before_ms, s.started_at < @before)", "before", `${f.before}T00:00:00.000Z`).params.before_ms = Date.parse(`${f.before}T00:00:00.000Z`);
  where.add("coalesce(s.ended_at, s.started_at) >= @since", "since", input.since ? new Date(input.since).toISOString() : undefined);
  where.add("s.started_at <= @until", "until", input.until ? untilIso(input.until) : undefined);
  // One session's documents (find in session): their rowid range, which FTS5 reads as a range.
  const range = sessionRange(db, f.project, f.session, input.transcript);
  if (range !== null) where.add("m.rowid BETWEEN @lo AND @hi").params.lo = range[0];
  if (range !== null) where.params.hi = range[1];
  const expression = candidateExpression(parsed);
  // Driven by the index in rowid order, newest documents first, so a check cut short by its time
  // budget has the most recent sessions' lines (no sort of every candidate before the first row).
  const from = expression === null ? "line_meta m" : `lines_fts f JOIN line_meta m ON m.rowid = f.rowid`;
  if (expression !== null) where.add(`lines_fts MATCH @match${range !== null ? " AND f.rowid BETWEEN @lo AND @hi" : ""}`).params.match = expression;
  const order = expression === null ? "m.rowid" : "f.rowid";
  const sql = `FROM ${from} JOIN search_docs d ON d.id = (m.rowid >> 32) JOIN sessions s ON s.id = d.session_id WHERE ${where.sql}`;
  const dirs = await projectDirs(ctx);
  // Line order reads the files forwards; relevance the newest documents first.
  const byLine = input.order === "line";
  const rows = stmt(db, `SELECT m.rowid, m.start, m.len, m.role, m.time, d.id, d.kind, d.name, d.rel_path, s.id, s.project_key, coalesce(s.ended_at, s.started_at), s.source ${sql} ORDER BY ${order} ${byLine ? "ASC" : "DESC"}`)
    .raw()
    .safeIntegers(true)
    .iterate(where.params) as IterableIterator<unknown[]>;
  // Candidates left when the check stopped: those past the last one checked. With a text term,
  // counted in the index alone (no join: an upper bound when filters narrow, and fast).
  const past = byLine ? ">" : "<";
  const bound = range === null ? "" : byLine ? " AND rowid <= @hi" : " AND rowid >= @lo";
  const left = (last: bigint) =>
    expression === null
      ? Number(stmt(db, `SELECT count(*) ${sql} AND m.rowid ${past} @last`).pluck().safeIntegers(true).get({ ...where.params, last }) as bigint)
      : Number(stmt(db, `SELECT count(*) FROM lines_fts WHERE lines_fts MATCH @match AND rowid ${past} @last${bound}`).pluck().safeIntegers(true).get({ match: expression, last, ...(range !== null ? { lo: range[0], hi: range[1] } : {}) }) as bigint);
  return checkCandidates(dirs, parsed, rows, left, byLine ? input.offset + input.limit : null);
}

/** `column` matches any of `values` (each bound as its own parameter through `test`). */
function anyOf(where: SqlWhere, name: string, values: readonly string[], test: (param: string) => string): void {
  if (values.length === 0) return;
  where.add(`(${values.map((_, i) => test(`@${name}${i}`)).join(" OR ")})`);
  values.forEach((v, i) => (where.params[`${name}${i}`] = v));
}

/**
 * The rowid range of the documents of the sessions `session:` names (one project's), null when
 * the query names none; with `transcript` ("main" or a subagent's agent id, one session), that
 * file's range only.
 */
function sessionRange(db: ReturnType<typeof catalogDb>, projects: readonly string[], sessions: readonly string[], transcript: string | undefined): [bigint, bigint] | null {
  if (sessions.length === 0 || projects.length !== 1) return null;
  const refs = sessions.map((_, i) => `@s${i}`).join(", ");
  const params: Record<string, string | number> = { project: projects[0]! };
  sessions.forEach((s, i) => (params[`s${i}`] = s));
  let file = "";
  if (transcript !== undefined) {
    file = " AND d.kind = @kind AND d.name = @name";
    params.kind = transcript === "main" ? 0 : 1;
    params.name = transcript === "main" ? "" : transcript;
  }
  const row = db.prepare(`SELECT min(d.id) AS lo, max(d.id) AS hi FROM search_docs d JOIN sessions s ON s.id = d.session_id WHERE s.project_key = @project AND s.session_ref IN (${refs})${file}`).get(params) as { lo: number | null; hi: number | null };
  return row.lo === null || row.hi === null ? [0n, 0n] : [lineRowid(row.lo, 0), lineRowid(row.hi, 0xffffffff)];
}

function toCandidate(r: unknown[]): Candidate {
  const n = (v: unknown) => (v === null ? null : Number(v as bigint));
  return [r[0] as bigint, n(r[1])!, n(r[2])!, n(r[3])!, n(r[4]), n(r[5])!, n(r[6])!, r[7] as string, r[8] as string, n(r[9])!, r[10] as string, r[11] as string | null, r[12] as string];
}

/**
 * Reads each candidate line from its file (one open per document, lines in file order), checks it
 * against the query on its visible text, and ranks the hits: BM25 over the query's clauses, grouped
 * by session (best line first, then the most recent session), best lines first within a session.
 */
function checkCandidates(dirs: Map<string, string>, parsed: ParsedQuery, rows: IterableIterator<unknown[]>, left: (last: bigint) => number, enough: number | null): FoundLines {
  // Synchronous from the first row to the last: the open iterator holds the connection.
  const reader = new LineReader(dirs);
  let budget = SEARCH_LIMITS.checkBytes;
  const matched: { c: Candidate; length: number; counts: number[] }[] = [];
  let unchecked = 0;
  try {
    for (const raw of rows) {
      const c = toCandidate(raw);
      budget -= c[2];
      if (budget < 0) {
        // Counted after the iterator is closed: it holds the connection's statement.
        rows.return?.();
        unchecked += left(c[0]) + 1;
        break;
      }
      const text = reader.text(c[5], c[10], c[8], c[6], c[12], Number(c[0] & 0xffffffffn), c[1], c[2]);
      // A file that cannot be read now (removed, no permission) leaves its lines unchecked, and says so.
      if (text === null) {
        unchecked += 1;
        continue;
      }
      const m = matchLine(parsed, text);
      if (m !== null) matched.push({ c, length: text.length, counts: m.counts });
      // In line order, a full page needs no more (the rest is counted as unchecked).
      if (enough !== null && matched.length >= enough) {
        rows.return?.();
        unchecked += left(c[0]);
        break;
      }
    }
  } finally {
    reader.close();
  }
  // BM25 needs each clause's line frequency among the lines matched.
  const clauseHits = parsed.clauses.map((_, k) => matched.reduce((n, m) => n + (m.counts[k]! > 0 ? 1 : 0), 0));
  const sessionBest = new Map<number, number>();
  const sessionHits = new Map<number, number>();
  const sessionRecency = new Map<number, string>();
  const hits: Found[] = matched.map(({ c, length, counts }) => {
    const score = scoreLine(counts, length, clauseHits, matched.length);
    sessionBest.set(c[9], Math.max(sessionBest.get(c[9]) ?? -Infinity, score));
    sessionHits.set(c[9], (sessionHits.get(c[9]) ?? 0) + 1);
    sessionRecency.set(c[9], c[11] ?? "");
    const { docId, line } = { docId: c[5], line: Number(c[0] & 0xffffffffn) };
    return { rowid: c[0], docId, kind: c[6], name: c[7], line, start: c[1], len: c[2], relPath: c[8], projectKey: c[10], source: c[12], sid: c[9], role: c[3], time: c[4], score };
  });
  // Relevance: grouped by session, best first; line order is the order they were read in.
  if (enough === null) hits.sort((a, b) => {
    if (a.sid !== b.sid) {
      const best = sessionBest.get(b.sid)! - sessionBest.get(a.sid)!;
      if (best !== 0) return best;
      const recent = sessionRecency.get(b.sid)!.localeCompare(sessionRecency.get(a.sid)!);
      return recent !== 0 ? recent : a.sid - b.sid;
    }
    return b.score - a.score || a.kind - b.kind || a.docId - b.docId || a.line - b.line;
  });
  return { hits, sessions: sessionHits.size, unchecked, sessionHits };
}

/** The page's hits as the tool returns them: session keys and title, turn, time, role, and the snippet of each line's own text, read again (only the page's). */
async function describeHits(ctx: CoreContext, parsed: ParsedQuery, page: Found[], found: FoundLines): Promise<SearchHit[]> {
  const db = catalogDb(ctx);
  const reader = new LineReader(await projectDirs(ctx));
  const snippets = page.map((h) => {
    const text = reader.text(h.docId, h.projectKey, h.relPath, h.kind, h.source, h.line, h.start, h.len) ?? "";
    return highlightSnippet(text, matchLine(parsed, text)?.ranges ?? [], { open: HIT_OPEN, close: HIT_CLOSE });
  });
  reader.close();
  const session = stmt(db, "SELECT project_key, session_ref, source_session_id, first_user_message, machine FROM sessions WHERE id = ?");
  const turnOf = stmt(db, "SELECT turn_ref FROM turns WHERE session_id = ? AND turn_start_line <= ? AND turn_end_line >= ? ORDER BY turn_start_line DESC LIMIT 1");
  return page.map((h, i) => {
    const s = session.get(h.sid) as { project_key: string; session_ref: string; source_session_id: string; first_user_message: string | null; machine: string | null };
    const kind = DOC_KINDS[h.kind]!;
    return {
      project_key: s.project_key,
      session_ref: s.session_ref,
      session_id: s.source_session_id,
      machine: s.machine ?? localMachine(),
      session_title: s.first_user_message,
      session_hits: found.sessionHits.get(h.sid) ?? 0,
      file: { kind, id: kind === "main" ? null : h.name, call_line: kind === "tool_result" ? callLine(db, h.sid, h.name) : null },
      line_number: h.line,
      turn_ref: kind === "main" ? ((turnOf.get(h.sid, h.line, h.line) as { turn_ref: string } | undefined)?.turn_ref ?? null) : null,
      role: ROLE_CODES[h.role] ?? "other",
      time: h.time === null ? null : new Date(h.time).toISOString(),
      snippet: snippets[i]!,
      score: Math.round(h.score * 1000) / 1000,
    };
  });
}

/** Each project's folder, by key. */
async function projectDirs(ctx: CoreContext): Promise<Map<string, string>> {
  return new Map((await loadWorkspace(ctx)).projects.map((p) => [p.projectKey, p.dir]));
}

/**
 * Reads indexed lines back from their files by byte span, one open file at a time (lines of one
 * document come together), and gives each line's visible text as the index took it: a JSONL
 * record's by lib/catalog/extract's `lineFacts`, a tool result's as it is, and an agent session's
 * line's from its whole document read by the agent's reader, as the index read it
 * (lib/catalog/extract-lines' `agentLineTexts`).
 */
class LineReader {
  private fd: number | null = null;
  private doc = -1;
  /** The open document's lines' texts when it is an agent session's, else null. */
  private agentTexts: readonly string[] | null = null;
  private format: DocFormat = "jsonl";
  private buf = Buffer.alloc(1 << 16);

  constructor(private readonly dirs: Map<string, string>) {}

  /**
   * The visible text of line `line` (at byte `start`, `len` bytes) of document `docId` (of a
   * session whose `source` is given); null when its file cannot be read now.
   */
  text(docId: number, projectKey: string, relPath: string, kind: number, source: string, line: number, start: number, len: number): string | null {
    if (docId !== this.doc) {
      this.close();
      this.doc = docId;
      this.format = docFormat(source, DOC_KINDS[kind] ?? "main");
      const dir = this.dirs.get(projectKey);
      try {
        if (dir !== undefined) {
          const file = path.join(dir, relPath);
          this.agentTexts = agentLineTexts(this.format, file);
          if (this.agentTexts === null) this.fd = openSync(file, "r");
        }
      } catch {
        this.fd = null;
        this.agentTexts = null;
        return null;
      }
    }
    if (this.agentTexts !== null) return this.agentTexts[line - 1] ?? "";
    if (this.fd === null) return null;
    if (this.buf.length < len) this.buf = Buffer.alloc(Math.max(len, this.buf.length * 2));
    const raw = this.buf.toString("utf8", 0, readSync(this.fd, this.buf, 0, len, start));
    return this.format === "text" ? raw : lineFacts(raw).text;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.agentTexts = null;
    this.doc = -1;
  }
}

/** The line of a session's transcript that calls the tool whose persisted result is `callId`, null when none is indexed. */
function callLine(db: ReturnType<typeof catalogDb>, sessionId: number, callId: string): number | null {
  const main = stmt(db, "SELECT id FROM search_docs WHERE session_id = ? AND kind = 0").pluck().get(sessionId) as number | undefined;
  if (main === undefined) return null;
  const rowid = stmt(db, "SELECT rowid FROM line_meta WHERE rowid BETWEEN ? AND ? AND instr(char(10) || calls || char(10), char(10) || ? || char(10)) > 0 LIMIT 1")
    .pluck()
    .safeIntegers(true)
    .get(lineRowid(main, 0), lineRowid(main, 0xffffffff), callId) as bigint | undefined;
  return rowid === undefined ? null : Number(rowid & 0xffffffffn);
}

/** What the index holds now: a search result is reused while it is the same (indexed bytes and documents). */
function indexStamp(ctx: CoreContext): string {
  const row = stmt(catalogDb(ctx), "SELECT count(*) AS docs, coalesce(sum(indexed_bytes), 0) AS bytes, coalesce(max(id), 0) AS top FROM search_docs").get() as { docs: number; bytes: number; top: number };
  return `${row.docs}:${row.bytes}:${row.top}`;
}

/** Recent searches' checked lines, so paging through a result reads no line twice (32 MiB). */
function searchCache(): StampedCache<FoundLines> {
  return processWide("catalog.search-results", () => new StampedCache<FoundLines>(32 << 20));
}

/** A bare date as `until` means the whole day. */
function untilIso(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`).toISOString() : new Date(value).toISOString();
}
