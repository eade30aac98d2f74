// The catalog's SQLite store (issue 39): CatalogStore over one better-sqlite3 connection of the
// workspace's catalog.sqlite (lib/catalog/catalog opens and heals it): statements prepared once,
// write transactions kept short and shared with other processes' writers (transactions.ts), the
// line index an FTS5 table of trigram words with rowid = document id × 2³² + line (db-schema.ts).

import Database from "better-sqlite3";

import { createSchema, lineRowid } from "@/lib/catalog/db-schema";
import { ftsExpression } from "@/lib/catalog/search-match";
import { atomically, commitIfDue, stmt, writeTransaction, writeWhenFree } from "@/lib/catalog/transactions";
import { wordsAt } from "@/lib/catalog/trigram-tokens";
import { SqlWhere } from "@/lib/catalog/where";
import type {
  CallRow,
  CandidateLine,
  CandidateQuery,
  CatalogProjectRow,
  CatalogSessionRow,
  CatalogStore,
  DocProgress,
  FullTextCoverage,
  HitSession,
  LineBatch,
  LineKey,
  ProjectCoverage,
  ProjectRowInput,
  ProjectStamps,
  RiskUpdate,
  SearchDoc,
  SessionFacts,
  SessionIdentity,
  SessionPageQuery,
  SessionStamp,
  StaleFullText,
  StaleRisk,
  StoredSession,
  TurnSpan,
  UsageQuery,
  UsageRow,
} from "@/lib/catalog/store";
import type { SessionUsageFacts } from "@/lib/catalog/row-facts";
import { withFileLock } from "@/lib/fs/file-lock";
import { SESSION_SORT_KEYS } from "@/lib/workspace/schema";

const SORT_COLUMNS = new Set<string>(SESSION_SORT_KEYS);

/**
 * The SQL functions the store's statements call, registered on each connection: `js_lower`,
 * JavaScript's lower case, so list filters match exactly as the in-memory lists did (SQLite's
 * lower() is ASCII only).
 */
export function addCatalogFunctions(db: Database.Database): void {
  db.function("js_lower", { deterministic: true }, (v: unknown) => (typeof v === "string" ? v.toLowerCase() : v));
}

/** A store on a new, empty catalog in memory (tests; the workspace's catalog is lib/catalog/catalog's to open). */
export function memoryCatalogStore(): SqliteCatalogStore {
  const db = new Database(":memory:");
  addCatalogFunctions(db);
  createSchema(db);
  return new SqliteCatalogStore(db, null);
}

/**
 * {@link CatalogStore} over an open catalog connection `db` of the file `file` (null: a catalog
 * in memory, this process's alone). Its calls are synchronous SQLite work behind promises; a
 * write transaction is the connection's (`write` joins one open on it).
 */
export class SqliteCatalogStore implements CatalogStore {
  /** The last holder of {@link withIndexLock} in this process: the next waits for it. */
  private indexTurn: Promise<unknown> = Promise.resolve();

  constructor(
    readonly db: Database.Database,
    private readonly file: string | null,
  ) {}

  // --- transactions ---------------------------------------------------------------------------

  write<T>(fn: (tx: CatalogStore) => Promise<T>): Promise<T> {
    if (this.db.inTransaction) return fn(this);
    return writeTransaction(this.db, () => fn(this));
  }

  writing(): boolean {
    return this.db.inTransaction;
  }

  commitIfDue(maxMs?: number): Promise<void> {
    return commitIfDue(this.db, maxMs);
  }

  withIndexLock<T>(fn: () => Promise<T>): Promise<T> {
    // This process's holders one after another, then the lock file beside the catalog
    // (`catalog.sqlite.lock`) across processes; a catalog in memory is this process's alone.
    const file = this.file;
    const run = this.indexTurn.then(() => (file === null ? fn() : withFileLock(file, () => fn())));
    this.indexTurn = run.catch(() => undefined);
    return run;
  }

  // --- projects -------------------------------------------------------------------------------

  async projectStamps(): Promise<ProjectStamps[]> {
    return stmt(this.db, "SELECT project_key, ord, index_stamp, coverage_stamp FROM projects").all() as ProjectStamps[];
  }

  async projectStamp(projectKey: string): Promise<ProjectStamps | undefined> {
    return stmt(this.db, "SELECT project_key, ord, index_stamp, coverage_stamp FROM projects WHERE project_key = ?").get(projectKey) as ProjectStamps | undefined;
  }

  async upsertProject(row: ProjectRowInput): Promise<void> {
    stmt(
      this.db,
      `INSERT INTO projects (project_key, ord, project_label, index_stamp, session_count, turn_count, cwd, git_branch, broken_rows)
       VALUES (@project_key, @ord, @project_label, @index_stamp, @session_count, @turn_count, @cwd, @git_branch, @broken_rows)
       ON CONFLICT (project_key) DO UPDATE SET ord = @ord, project_label = @project_label, index_stamp = @index_stamp, session_count = @session_count,
         turn_count = @turn_count, cwd = @cwd, git_branch = @git_branch, broken_rows = @broken_rows`,
    ).run(row);
  }

  async setProjectOrd(projectKey: string, ord: number): Promise<void> {
    stmt(this.db, "UPDATE projects SET ord = ? WHERE project_key = ?").run(ord, projectKey);
  }

  async setCoverage(projectKey: string, c: ProjectCoverage): Promise<void> {
    stmt(this.db, "UPDATE projects SET coverage_stamp = ?, turns_with_chain = ?, covered_turns = ?, indexed_turns = ?, synthesis_complete = ?, has_envelope = ?, problem = ? WHERE project_key = ?")
      .run(c.coverage_stamp, c.turns_with_chain, c.covered_turns, c.indexed_turns, c.synthesis_complete, c.has_envelope, c.problem, projectKey);
  }

  async dropProject(projectKey: string): Promise<void> {
    const db = this.db;
    const ids = (stmt(db, "SELECT id FROM sessions WHERE project_key = ?").all(projectKey) as { id: number }[]).map((r) => r.id);
    atomically(db, () => {
      for (const id of ids) this.dropSessionRows(id);
      stmt(db, "DELETE FROM sessions WHERE project_key = ?").run(projectKey);
      stmt(db, "DELETE FROM projects WHERE project_key = ?").run(projectKey);
    });
  }

  async listProjects(): Promise<CatalogProjectRow[]> {
    return stmt(
      this.db,
      `SELECT p.project_key, p.project_label, p.session_count, p.turn_count, p.cwd, p.git_branch, p.broken_rows, p.turns_with_chain, p.covered_turns,
         p.indexed_turns, p.synthesis_complete, p.has_envelope, p.problem, a.last_activity_at, a.total_tokens FROM projects p
       LEFT JOIN (SELECT project_key, max(coalesce(ended_at, started_at)) AS last_activity_at, sum(total_tokens) AS total_tokens FROM sessions GROUP BY project_key) a USING (project_key)
       ORDER BY a.last_activity_at IS NULL, a.last_activity_at DESC, p.ord`,
    ).all() as CatalogProjectRow[];
  }

  // --- sessions -------------------------------------------------------------------------------

  async sessionStamps(projectKey?: string): Promise<SessionStamp[]> {
    const columns = "SELECT project_key, session_ref, file_stamp, status_recent FROM sessions";
    return (projectKey === undefined ? stmt(this.db, columns).all() : stmt(this.db, `${columns} WHERE project_key = ?`).all(projectKey)) as SessionStamp[];
  }

  async storedSessions(projectKey: string): Promise<StoredSession[]> {
    return stmt(
      this.db,
      `SELECT s.id, s.session_ref, s.source_session_id, s.session_path, s.file_stamp, s.status_recent, s.machine,
         (SELECT group_concat(turn_ref || ':' || turn_start_line || ':' || turn_end_line, ',') FROM (SELECT * FROM turns t WHERE t.session_id = s.id ORDER BY t.turn_start_line)) AS turns_sig
       FROM sessions s WHERE project_key = ?`,
    ).all(projectKey) as StoredSession[];
  }

  async insertSession(s: SessionIdentity): Promise<number> {
    const made = stmt(this.db, "INSERT OR IGNORE INTO sessions (project_key, session_ref, ord, source, source_session_id, session_path, turn_count, machine) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run(s.project_key, s.session_ref, s.ord, s.source, s.source_session_id, s.session_path, s.turn_count, s.machine);
    // Else another process made the row between two of this refresh's transactions: its rows stay.
    if (made.changes === 1) return Number(made.lastInsertRowid);
    return (stmt(this.db, "SELECT id FROM sessions WHERE project_key = ? AND session_ref = ?").get(s.project_key, s.session_ref) as { id: number }).id;
  }

  async dropSession(sessionId: number): Promise<void> {
    atomically(this.db, () => {
      this.dropSessionRows(sessionId);
      stmt(this.db, "DELETE FROM sessions WHERE id = ?").run(sessionId);
    });
  }

  async replaceTurns(sessionId: number, turns: readonly TurnSpan[]): Promise<void> {
    const db = this.db;
    atomically(db, () => {
      stmt(db, "DELETE FROM turns WHERE session_id = ?").run(sessionId);
      const insert = stmt(db, "INSERT INTO turns (session_id, turn_ref, turn_start_line, turn_end_line) VALUES (?, ?, ?, ?)");
      for (const t of turns) insert.run(sessionId, t.turn_ref, t.turn_start_line, t.turn_end_line);
    });
  }

  async setSessionMachine(sessionId: number, machine: string | null): Promise<void> {
    stmt(this.db, "UPDATE sessions SET machine = ? WHERE id = ?").run(machine, sessionId);
  }

  async setSessionOrd(sessionId: number, ord: number): Promise<void> {
    stmt(this.db, "UPDATE sessions SET ord = ? WHERE id = ? AND ord != ?").run(ord, sessionId, ord);
  }

  async setSessionStatus(sessionId: number, status: string | null, statusRecent: number): Promise<boolean> {
    return stmt(this.db, "UPDATE sessions SET status = ?, status_recent = ? WHERE id = ? AND (status IS NOT ? OR status_recent != ?)").run(status, statusRecent, sessionId, status, statusRecent).changes > 0;
  }

  async updateSessionFacts(sessionId: number, facts: SessionFacts): Promise<void> {
    stmt(
      this.db,
      `UPDATE sessions SET ord = @ord, file_stamp = @file_stamp, missing = 0, started_at = @started_at, ended_at = @ended_at, duration_seconds = @duration_seconds,
         turn_count = @turn_count, first_user_message = @first_user_message, subagent_count = @subagent_count, size_bytes = @size_bytes,
         output_tokens = @output_tokens, total_tokens = @total_tokens, cost_usd = @cost_usd, usage_buckets = @usage_buckets, usage_last_ms = @usage_last_ms,
         usage_stamp = @usage_stamp, status = @status, status_recent = @status_recent, last_response_preview = @last_response_preview
       WHERE id = @id`,
    ).run({ ...facts, id: sessionId });
  }

  async markSessionMissing(sessionId: number, ord: number, turnCount: number): Promise<void> {
    const db = this.db;
    atomically(db, () => {
      this.deleteSessionDocs(sessionId);
      stmt(
        db,
        "UPDATE sessions SET ord = ?, file_stamp = NULL, fts_stamp = NULL, missing = 1, started_at = NULL, ended_at = NULL, duration_seconds = NULL, turn_count = ?, first_user_message = NULL, subagent_count = 0, size_bytes = 0, output_tokens = NULL, total_tokens = NULL, cost_usd = NULL, usage_buckets = NULL, usage_last_ms = NULL, usage_stamp = NULL, status = NULL, status_recent = 0, last_response_preview = NULL, risk_level = NULL, reset_count = NULL, risk_stamp = NULL WHERE id = ?",
      ).run(ord, turnCount, sessionId);
    });
  }

  async listSessions(query: SessionPageQuery): Promise<{ total: number; rows: CatalogSessionRow[] }> {
    const { project_key, q, risk, source, machine, sort, order, limit, offset } = query;
    if (!SORT_COLUMNS.has(sort)) throw new Error(`unexpected sort ${sort}`);
    const where = new SqlWhere(["project_key = @key"], { key: project_key })
      // JavaScript's lower case (js_lower), so the filter matches as the in-memory lists did (SQLite's lower() is ASCII only).
      .add("(instr(js_lower(session_ref), @q) > 0 OR instr(js_lower(source), @q) > 0 OR instr(js_lower(source_session_id), @q) > 0 OR instr(js_lower(coalesce(first_user_message, '')), @q) > 0)", "q", q ? q.toLowerCase() : undefined)
      .add("risk_level = @risk", "risk", risk || undefined)
      .add("source = @source", "source", source || undefined)
      .add("machine = @machine", "machine", machine || undefined);
    const total = (stmt(this.db, `SELECT count(*) AS n FROM sessions WHERE ${where.sql}`).get(where.params) as { n: number }).n;
    const dir = order === "asc" ? "ASC" : "DESC";
    const rows = stmt(
      this.db,
      `SELECT session_ref, source, source_session_id, machine, started_at, ended_at, duration_seconds, turn_count, first_user_message, subagent_count, size_bytes,
         output_tokens, total_tokens, cost_usd, status, last_response_preview, risk_level, reset_count
       FROM sessions WHERE ${where.sql} ORDER BY (${sort} IS NULL), ${sort} ${dir}, session_ref ASC LIMIT @limit OFFSET @offset`,
    ).all({ ...where.params, limit, offset }) as CatalogSessionRow[];
    return { total, rows };
  }

  async bigSessions(minBytes: number, sources: readonly string[]): Promise<{ project_key: string; session_ref: string }[]> {
    if (sources.length === 0) return [];
    const where = new SqlWhere(["s.missing = 0", "s.size_bytes >= @min"], { min: minBytes });
    inList(where, "s.source", "source", sources);
    return stmt(this.db, `SELECT s.project_key, s.session_ref FROM sessions s JOIN projects p ON p.project_key = s.project_key WHERE ${where.sql} ORDER BY p.ord, s.ord`).all(where.params) as {
      project_key: string;
      session_ref: string;
    }[];
  }

  // --- risk -----------------------------------------------------------------------------------

  async staleRisks(projectKey: string): Promise<StaleRisk[]> {
    return stmt(this.db, "SELECT id, session_ref, session_path, file_stamp FROM sessions WHERE project_key = ? AND missing = 0 AND (risk_stamp IS NULL OR risk_stamp != file_stamp) ORDER BY session_ref").all(projectKey) as StaleRisk[];
  }

  async storeRisks(updates: readonly RiskUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    const update = stmt(this.db, "UPDATE sessions SET risk_stamp = ?, risk_level = ?, reset_count = ? WHERE id = ?");
    await writeWhenFree(this.db, () => {
      for (const r of updates) update.run(r.risk_stamp, r.risk_level, r.reset_count, r.id);
    });
  }

  // --- usage ----------------------------------------------------------------------------------

  async usageRows(query: UsageQuery): Promise<UsageRow[]> {
    if (query.sources.length === 0) return [];
    const where = new SqlWhere(["missing = 0"]).add("project_key = @project_key", "project_key", query.project_key).add("source = @source", "source", query.source).add("machine = @machine", "machine", query.machine);
    inList(where, "source", "src", query.sources);
    // A bucket without a time is left out of any dated report (lib/usage/report), so is a session without a timed bucket.
    if (query.sinceMs !== undefined) where.add("usage_last_ms >= @since_ms", "since_ms", query.sinceMs);
    else if (query.timedOnly) where.add("usage_last_ms IS NOT NULL");
    return stmt(this.db, `SELECT id, project_key, session_ref, source_session_id, source, machine, usage_buckets, usage_stamp FROM sessions WHERE ${where.sql}`).all(where.params) as UsageRow[];
  }

  async setUsage(sessionId: number, u: SessionUsageFacts): Promise<void> {
    stmt(this.db, "UPDATE sessions SET output_tokens = ?, total_tokens = ?, cost_usd = ?, usage_buckets = ?, usage_last_ms = ?, usage_stamp = ? WHERE id = ?")
      .run(u.output_tokens, u.total_tokens, u.cost_usd, u.usage_buckets, u.usage_last_ms, u.usage_stamp, sessionId);
  }

  // --- full-text index ------------------------------------------------------------------------

  async staleFullText(projectKey: string): Promise<StaleFullText[]> {
    return stmt(
      this.db,
      `SELECT s.id, s.session_path, s.source, coalesce(d.indexed_bytes, 0) AS indexed_bytes FROM sessions s LEFT JOIN search_docs d ON d.session_id = s.id AND d.kind = 0
       WHERE s.project_key = ? AND s.missing = 0 AND s.file_stamp IS NOT NULL AND s.fts_stamp IS NOT s.file_stamp ORDER BY s.ord`,
    ).all(projectKey) as StaleFullText[];
  }

  async setFtsStamp(sessionId: number, stamp: string): Promise<void> {
    stmt(this.db, "UPDATE sessions SET fts_stamp = ? WHERE id = ?").run(stamp, sessionId);
  }

  async searchDocs(sessionId: number): Promise<SearchDoc[]> {
    return stmt(this.db, "SELECT id, kind, name, stamp FROM search_docs WHERE session_id = ?").all(sessionId) as SearchDoc[];
  }

  async addSearchDoc(sessionId: number, kind: number, name: string, relPath: string): Promise<number> {
    return Number(stmt(this.db, "INSERT INTO search_docs (session_id, kind, name, rel_path) VALUES (?, ?, ?, ?)").run(sessionId, kind, name, relPath).lastInsertRowid);
  }

  async dropSearchDoc(docId: number): Promise<void> {
    atomically(this.db, () => {
      this.deleteDocLines(docId);
      stmt(this.db, "DELETE FROM search_docs WHERE id = ?").run(docId);
    });
  }

  async setDocStamp(docId: number, stamp: string): Promise<void> {
    stmt(this.db, "UPDATE search_docs SET stamp = ? WHERE id = ?").run(stamp, docId);
  }

  async docProgress(docId: number): Promise<DocProgress | undefined> {
    return stmt(this.db, "SELECT indexed_bytes, indexed_lines, head_sha FROM search_docs WHERE id = ?").get(docId) as DocProgress | undefined;
  }

  async resetDoc(docId: number): Promise<void> {
    atomically(this.db, () => {
      this.deleteDocLines(docId);
      stmt(this.db, "UPDATE search_docs SET indexed_bytes = 0, indexed_lines = 0, head_sha = NULL WHERE id = ?").run(docId);
    });
  }

  async addLines(docId: number, batch: LineBatch): Promise<boolean> {
    const db = this.db;
    const { extracted: ex, from, to, progress } = batch;
    const insertLine = stmt(db, "INSERT INTO lines_fts (rowid, body) VALUES (?, ?)");
    const insertMeta = stmt(db, "INSERT OR REPLACE INTO line_meta (rowid, start, len, role, error, time, tools, files, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    let stored = false;
    atomically(db, () => {
      // The progress first, in the batch's transaction: no row means the document was dropped.
      if (stmt(db, "UPDATE search_docs SET indexed_bytes = ?, indexed_lines = ?, head_sha = ? WHERE id = ?").run(progress.indexed_bytes, progress.indexed_lines, progress.head_sha, docId).changes === 0) return;
      stored = true;
      for (let k = from; k < to; k++) {
        const rowid = lineRowid(docId, ex.lines[k]!);
        const time = ex.times[k]!;
        // The words as bytes (a blob FTS5 reads as text): no string made per line.
        insertLine.run(rowid, wordsAt(ex.words, k));
        insertMeta.run(rowid, ex.starts[k], ex.lens[k], ex.roles[k], ex.errors[k], Number.isNaN(time) ? null : Math.round(time), ex.tools[k] || null, ex.files[k] || null, ex.calls[k] || null);
      }
    });
    return stored;
  }

  async lastCalls(docId: number, limit: number): Promise<CallRow[]> {
    const rows = stmt(this.db, "SELECT tools, files, calls FROM line_meta WHERE rowid BETWEEN ? AND ? AND calls IS NOT NULL ORDER BY rowid DESC LIMIT ?").all(lineRowid(docId, 0), lineRowid(docId, 0xffffffff), limit) as CallRow[];
    return rows.reverse();
  }

  async fullTextCoverage(filter: { project_key?: string; source?: string; machine?: string }): Promise<FullTextCoverage> {
    const where = new SqlWhere(["missing = 0", "file_stamp IS NOT NULL"])
      .add("project_key = @project_key", "project_key", filter.project_key || undefined)
      .add("source = @source", "source", filter.source || undefined)
      .add("machine = @machine", "machine", filter.machine || undefined);
    const row = stmt(this.db, `SELECT count(*) AS total, coalesce(sum(fts_stamp IS file_stamp), 0) AS indexed FROM sessions WHERE ${where.sql}`).get(where.params) as { total: number; indexed: number };
    return { sessions_indexed: row.indexed, sessions_total: row.total };
  }

  async indexStamp(): Promise<string> {
    const row = stmt(this.db, "SELECT count(*) AS docs, coalesce(sum(indexed_bytes), 0) AS bytes, coalesce(max(id), 0) AS top FROM search_docs").get() as { docs: number; bytes: number; top: number };
    return `${row.docs}:${row.bytes}:${row.top}`;
  }

  // --- search ---------------------------------------------------------------------------------

  async scanCandidates(query: CandidateQuery, visit: (line: CandidateLine) => boolean): Promise<void> {
    const c = this.candidateSql(query);
    const rows = stmt(
      this.db,
      `SELECT d.id, m.rowid & 4294967295, m.start, m.len, m.role, m.time, d.kind, d.name, d.rel_path, s.id, s.project_key, coalesce(s.ended_at, s.started_at), s.source ${c.sql} ORDER BY ${c.order} ${query.order === "line" ? "ASC" : "DESC"}`,
    )
      .raw()
      .iterate(c.params) as IterableIterator<unknown[]>;
    // Synchronous from the first row to the last: the open iterator holds the connection.
    for (const r of rows) {
      const line: CandidateLine = {
        docId: r[0] as number,
        line: r[1] as number,
        start: r[2] as number,
        len: r[3] as number,
        role: r[4] as number,
        time: r[5] as number | null,
        kind: r[6] as number,
        name: r[7] as string,
        relPath: r[8] as string,
        sessionId: r[9] as number,
        projectKey: r[10] as string,
        recency: r[11] as string | null,
        source: r[12] as string,
      };
      if (!visit(line)) {
        rows.return?.();
        break;
      }
    }
  }

  async countCandidatesAfter(query: CandidateQuery, last: LineKey): Promise<number> {
    const c = this.candidateSql(query);
    const past = query.order === "line" ? ">" : "<";
    const at = lineRowid(last.docId, last.line);
    if (c.match === null) return Number(stmt(this.db, `SELECT count(*) ${c.sql} AND m.rowid ${past} @last`).pluck().safeIntegers(true).get({ ...c.params, last: at }) as bigint);
    // Counted in the index alone (no join: an upper bound when filters narrow, and fast).
    const bound = c.range === null ? "" : query.order === "line" ? " AND rowid <= @hi" : " AND rowid >= @lo";
    return Number(
      stmt(this.db, `SELECT count(*) FROM lines_fts WHERE lines_fts MATCH @match AND rowid ${past} @last${bound}`)
        .pluck()
        .safeIntegers(true)
        .get({ match: c.match, last: at, ...(c.range !== null ? { lo: c.range[0], hi: c.range[1] } : {}) }) as bigint,
    );
  }

  async hitSession(sessionId: number): Promise<HitSession | undefined> {
    return stmt(this.db, "SELECT project_key, session_ref, source_session_id, first_user_message, machine FROM sessions WHERE id = ?").get(sessionId) as HitSession | undefined;
  }

  async turnAt(sessionId: number, line: number): Promise<string | null> {
    const row = stmt(this.db, "SELECT turn_ref FROM turns WHERE session_id = ? AND turn_start_line <= ? AND turn_end_line >= ? ORDER BY turn_start_line DESC LIMIT 1").get(sessionId, line, line) as { turn_ref: string } | undefined;
    return row?.turn_ref ?? null;
  }

  async callLine(sessionId: number, callId: string): Promise<number | null> {
    const main = stmt(this.db, "SELECT id FROM search_docs WHERE session_id = ? AND kind = 0").pluck().get(sessionId) as number | undefined;
    if (main === undefined) return null;
    const line = stmt(this.db, "SELECT rowid & 4294967295 FROM line_meta WHERE rowid BETWEEN ? AND ? AND instr(char(10) || calls || char(10), char(10) || ? || char(10)) > 0 LIMIT 1")
      .pluck()
      .get(lineRowid(main, 0), lineRowid(main, 0xffffffff), callId) as number | undefined;
    return line ?? null;
  }

  // --- inside -----------------------------------------------------------------------------------

  /**
   * The FROM and WHERE of a search's candidates, driven by the index in rowid order when the query
   * has words (newest documents first, so a check cut short has the most recent sessions' lines);
   * `match` the FTS5 expression, `range` one session's (or file's) rowid range when the query names one.
   */
  private candidateSql(q: CandidateQuery): { sql: string; params: Record<string, unknown>; order: string; match: string | null; range: [bigint, bigint] | null } {
    const where = new SqlWhere(["s.missing = 0"]);
    inList(where, "s.project_key", "project", q.projects);
    inList(where, "s.session_ref", "session", q.sessions);
    inList(where, "s.source", "agent", q.agents);
    inList(where, "s.machine", "machine", q.machines);
    inList(where, "m.role", "role", q.roles);
    anyOf(where, "tool", q.tools, (p) => `instr(char(10) || lower(m.tools) || char(10), char(10) || lower(${p}) || char(10)) > 0`);
    anyOf(where, "file", q.files, (p) => `instr(lower(m.files), lower(${p})) > 0`);
    if (q.errors) where.add("m.error = 1");
    if (q.noErrors) where.add("m.error = 0");
    if (q.after !== null) where.add("coalesce(m.time >= @after_ms, s.started_at >= @after)", "after", q.after).params.after_ms = Date.parse(q.after);
    if (q.before !== null) where.add("coalesce(m.time < @before_ms, s.started_at < @before)", "before", q.before).params.before_ms = Date.parse(q.before);
    where.add("coalesce(s.ended_at, s.started_at) >= @since", "since", q.since ?? undefined);
    where.add("s.started_at <= @until", "until", q.until ?? undefined);
    // One session's documents (find in session): their rowid range, which FTS5 reads as a range.
    const range = this.sessionRange(q);
    if (range !== null) {
      where.add("m.rowid BETWEEN @lo AND @hi");
      where.params.lo = range[0];
      where.params.hi = range[1];
    }
    const match = q.words === null ? null : ftsExpression(q.words);
    const from = match === null ? "line_meta m" : "lines_fts f JOIN line_meta m ON m.rowid = f.rowid";
    if (match !== null) where.add(`lines_fts MATCH @match${range !== null ? " AND f.rowid BETWEEN @lo AND @hi" : ""}`).params.match = match;
    const sql = `FROM ${from} JOIN search_docs d ON d.id = (m.rowid >> 32) JOIN sessions s ON s.id = d.session_id WHERE ${where.sql}`;
    return { sql, params: where.params, order: match === null ? "m.rowid" : "f.rowid", match, range };
  }

  /**
   * The rowid range of the documents of the sessions a query names (one project's), null when it
   * names none; with `transcript` ("main" or a subagent's agent id), that file's range only.
   */
  private sessionRange(q: CandidateQuery): [bigint, bigint] | null {
    if (q.sessions.length === 0 || q.projects.length !== 1) return null;
    const where = new SqlWhere(["s.project_key = @project"], { project: q.projects[0]! });
    inList(where, "s.session_ref", "s", q.sessions);
    if (q.transcript !== null) {
      where.add("d.kind = @kind AND d.name = @name");
      where.params.kind = q.transcript === "main" ? 0 : 1;
      where.params.name = q.transcript === "main" ? "" : q.transcript;
    }
    const row = stmt(this.db, `SELECT min(d.id) AS lo, max(d.id) AS hi FROM search_docs d JOIN sessions s ON s.id = d.session_id WHERE ${where.sql}`).get(where.params) as { lo: number | null; hi: number | null };
    return row.lo === null || row.hi === null ? [0n, 0n] : [lineRowid(row.lo, 0), lineRowid(row.hi, 0xffffffff)];
  }

  /** Deletes every indexed line of a document (its rowid range, in the full-text index and `line_meta`). */
  private deleteDocLines(docId: number): void {
    const range = [lineRowid(docId, 0), lineRowid(docId, 0xffffffff)];
    stmt(this.db, "DELETE FROM lines_fts WHERE rowid BETWEEN ? AND ?").run(...range);
    stmt(this.db, "DELETE FROM line_meta WHERE rowid BETWEEN ? AND ?").run(...range);
  }

  /** Deletes what the full-text index holds of a session: its documents and their lines. */
  private deleteSessionDocs(sessionId: number): void {
    for (const { id } of stmt(this.db, "SELECT id FROM search_docs WHERE session_id = ?").all(sessionId) as { id: number }[]) this.deleteDocLines(id);
    stmt(this.db, "DELETE FROM search_docs WHERE session_id = ?").run(sessionId);
  }

  /** Deletes a session's documents, lines and turns (its row stays). */
  private dropSessionRows(sessionId: number): void {
    this.deleteSessionDocs(sessionId);
    stmt(this.db, "DELETE FROM turns WHERE session_id = ?").run(sessionId);
  }
}

/** `column IN (…)` of `values`, each bound as its own parameter; nothing when there is none. */
function inList(where: SqlWhere, column: string, name: string, values: readonly (string | number)[]): void {
  if (values.length === 0) return;
  where.add(`${column} IN (${values.map((_, i) => `@${name}${i}`).join(", ")})`);
  values.forEach((v, i) => (where.params[`${name}${i}`] = v));
}

/** Any of `values` passes `test` (each bound as its own parameter). */
function anyOf(where: SqlWhere, name: string, values: readonly string[], test: (param: string) => string): void {
  if (values.length === 0) return;
  where.add(`(${values.map((_, i) => test(`@${name}${i}`)).join(" OR ")})`);
  values.forEach((v, i) => (where.params[`${name}${i}`] = v));
}
