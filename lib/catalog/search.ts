// search_sessions: every word a reader can see, found like a grep: trigram candidates from the index, each checked on its own line.

import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";

import { catalogStore } from "@/lib/catalog/catalog-store";
import { DOC_KINDS } from "@/lib/catalog/db-schema";
import { ensureProjects } from "@/lib/catalog/ensure";
import { lineFacts } from "@/lib/catalog/extract";
import { agentLineTexts, type DocFormat, docFormat, ROLE_CODES } from "@/lib/catalog/extract-lines";
import { fillFullText, fullTextCoverage } from "@/lib/catalog/full-text-index";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { HIT_CLOSE, HIT_OPEN, type SearchHit, type SearchSessionsInput, type SearchSessionsResult } from "@/lib/catalog/schema";
import { describeQuery, parseSearchQuery, type ParsedQuery } from "@/lib/catalog/search-query";
import { candidateWords, highlightSnippet, matchLine, scoreLine } from "@/lib/catalog/search-match";
import type { CandidateLine, CandidateQuery, CatalogStore } from "@/lib/catalog/store";
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
  const stamp = await catalogStore(ctx).indexStamp();
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
type Found = { docId: number; kind: number; name: string; line: number; start: number; len: number; relPath: string; projectKey: string; source: string; sid: number; role: number; time: number | null; score: number };
/** Every matching line of a query, in result order; sessions with a hit; candidate lines left unchecked. */
type FoundLines = { hits: Found[]; sessions: number; unchecked: number; sessionHits: Map<number, number> };


/** The candidate lines of a query as the store reads them (lib/catalog/store's {@link CandidateQuery}), then checked on their text. */
async function findLines(ctx: CoreContext, parsed: ParsedQuery, input: SearchSessionsInput): Promise<FoundLines> {
  const f = parsed.filters;
  const day = (d: string | null) => (d === null ? null : `${d}T00:00:00.000Z`);
  const query: CandidateQuery = {
    words: candidateWords(parsed),
    projects: f.project,
    sessions: f.session,
    agents: f.agent,
    machines: f.machine,
    roles: f.role.map((r) => ROLE_CODES.indexOf(r)),
    tools: f.tool,
    files: f.file,
    errors: f.is_error,
    noErrors: input.has_error === false,
    after: day(f.after),
    before: day(f.before),
    since: input.since ? new Date(input.since).toISOString() : null,
    until: input.until ? untilIso(input.until) : null,
    transcript: input.transcript ?? null,
    // Line order reads the files forwards; relevance the newest documents first, so a check cut
    // short by its budget has the most recent sessions' lines.
    order: input.order === "line" ? "line" : "newest",
  };
  const dirs = await projectDirs(ctx);
  // In line order, a full page needs no more.
  return checkCandidates(catalogStore(ctx), query, dirs, parsed, input.order === "line" ? input.offset + input.limit : null);
}

/**
 * Reads each candidate line from its file (one open per document, lines in file order), checks it
 * against the query on its visible text, and ranks the hits: BM25 over the query's clauses, grouped
 * by session (best line first, then the most recent session), best lines first within a session.
 */
async function checkCandidates(store: CatalogStore, query: CandidateQuery, dirs: Map<string, string>, parsed: ParsedQuery, enough: number | null): Promise<FoundLines> {
  // The visit is synchronous: a store reads its candidates as they come (SQLite: one open statement).
  const reader = new LineReader(dirs);
  let budget = SEARCH_LIMITS.checkBytes;
  const matched: { c: CandidateLine; length: number; counts: number[] }[] = [];
  let unchecked = 0;
  /** Where the check stopped: the candidates after `at` are left, and `at` itself too when it was not checked. */
  let stopped: { at: CandidateLine; itself: number } | null = null;
  try {
    await store.scanCandidates(query, (c) => {
      budget -= c.len;
      if (budget < 0) {
        stopped = { at: c, itself: 1 };
        return false;
      }
      const text = reader.text(c.docId, c.projectKey, c.relPath, c.kind, c.source, c.line, c.start, c.len);
      // A file that cannot be read now (removed, no permission) leaves its lines unchecked, and says so.
      if (text === null) {
        unchecked += 1;
        return true;
      }
      const m = matchLine(parsed, text);
      if (m !== null) matched.push({ c, length: text.length, counts: m.counts });
      // In line order, a full page needs no more (the rest is counted as unchecked).
      if (enough !== null && matched.length >= enough) {
        stopped = { at: c, itself: 0 };
        return false;
      }
      return true;
    });
  } finally {
    reader.close();
  }
  const stop = stopped as { at: CandidateLine; itself: number } | null;
  if (stop !== null) unchecked += (await store.countCandidatesAfter(query, stop.at)) + stop.itself;
  // BM25 needs each clause's line frequency among the lines matched.
  const clauseHits = parsed.clauses.map((_, k) => matched.reduce((n, m) => n + (m.counts[k]! > 0 ? 1 : 0), 0));
  const sessionBest = new Map<number, number>();
  const sessionHits = new Map<number, number>();
  const sessionRecency = new Map<number, string>();
  const hits: Found[] = matched.map(({ c, length, counts }) => {
    const score = scoreLine(counts, length, clauseHits, matched.length);
    sessionBest.set(c.sessionId, Math.max(sessionBest.get(c.sessionId) ?? -Infinity, score));
    sessionHits.set(c.sessionId, (sessionHits.get(c.sessionId) ?? 0) + 1);
    sessionRecency.set(c.sessionId, c.recency ?? "");
    return { docId: c.docId, kind: c.kind, name: c.name, line: c.line, start: c.start, len: c.len, relPath: c.relPath, projectKey: c.projectKey, source: c.source, sid: c.sessionId, role: c.role, time: c.time, score };
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
  const store = catalogStore(ctx);
  const reader = new LineReader(await projectDirs(ctx));
  const snippets = page.map((h) => {
    const text = reader.text(h.docId, h.projectKey, h.relPath, h.kind, h.source, h.line, h.start, h.len) ?? "";
    return highlightSnippet(text, matchLine(parsed, text)?.ranges ?? [], { open: HIT_OPEN, close: HIT_CLOSE });
  });
  reader.close();
  const hits: SearchHit[] = [];
  for (const [i, h] of page.entries()) {
    const s = await store.hitSession(h.sid);
    // Its session dropped by a refresh since the check (its lines with it): not a hit any more.
    if (s === undefined) continue;
    const kind = DOC_KINDS[h.kind]!;
    hits.push({
      project_key: s.project_key,
      session_ref: s.session_ref,
      session_id: s.source_session_id,
      machine: s.machine ?? localMachine(),
      session_title: s.first_user_message,
      session_hits: found.sessionHits.get(h.sid) ?? 0,
      file: { kind, id: kind === "main" ? null : h.name, call_line: kind === "tool_result" ? await store.callLine(h.sid, h.name) : null },
      line_number: h.line,
      turn_ref: kind === "main" ? await store.turnAt(h.sid, h.line) : null,
      role: ROLE_CODES[h.role] ?? "other",
      time: h.time === null ? null : new Date(h.time).toISOString(),
      snippet: snippets[i]!,
      score: Math.round(h.score * 1000) / 1000,
    });
  }
  return hits;
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

/** Recent searches' checked lines, so paging through a result reads no line twice (32 MiB). */
function searchCache(): StampedCache<FoundLines> {
  return processWide("catalog.search-results", () => new StampedCache<FoundLines>(32 << 20));
}

/** A bare date as `until` means the whole day. */
function untilIso(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T23:59:59.999Z`).toISOString() : new Date(value).toISOString();
}
