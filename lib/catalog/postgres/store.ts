/**
 * The catalog on PostgreSQL (issue 39): {@link CatalogStore} over the tables of
 * lib/catalog/postgres/migrations, for a team server (`casefile serve --database URL`). The same
 * operations as the SQLite store, with the same results on the same data (lib/catalog/store-suite):
 * text compared byte-wise (`COLLATE "C"`), `q` lowered by JavaScript, SQLite's ASCII-only `lower`
 * for `tool:` and `file:`, and the line index's trigram words as integer buckets under GIN, whose
 * `@>` gives exactly the lines FTS5's `MATCH` gives.
 */
import type pg from "pg";

import { processWide } from "@/lib/cache/process-wide";
import { lineRowid } from "@/lib/catalog/db-schema";
import { CATALOG_MIGRATIONS, PARTITION_SHIFT } from "@/lib/catalog/postgres/migrations";
import { bucketLiteral, wordBucket } from "@/lib/catalog/postgres/word-buckets";
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
import { AppError } from "@/lib/errors";

/** Longest a refresh keeps its write transaction open before committing, as the SQLite store (ms). */
const TX_MAX_MS = 200;
/** Pause between a commit and the next transaction of {@link PostgresCatalogStore.commitIfDue}. */
const WRITE_TURN_MS = 8;
/**
 * Transaction-level advisory lock key of the catalog's writers ("cfwr"): write transactions take
 * turns, as SQLite's one writer does, so a refresh dropping a session never interleaves with a fill
 * batch adding its lines (row locks alone let a batch committed meanwhile leave lines behind).
 */
const WRITE_LOCK_KEY = 0x63_66_77_72;
/** Advisory lock key of the full-text index ("cfti"): one process at a time adds lines. */
const INDEX_LOCK_KEY = 0x63_66_74_69;
/** Longest {@link PostgresCatalogStore.withIndexLock} waits for another process's fill (ms). */
const INDEX_LOCK_WAIT_MS = 30_000;
/** Candidate rows fetched per round trip of a scan: the first page small (a full page of line-order hits often needs few). */
const FETCH_FIRST = 256;
const FETCH_MOST = 4096;
/**
 * Counting ahead ({@link PostgresCatalogStore.countCandidatesAfter}): `rows`, the candidates a scan
 * has fetched when it starts counting the partitions past the current one (a check's budget is
 * ~14,000 lines); `ms`, how long such a count waits to be asked for (a search asks right after its
 * check). Tests lower `rows`.
 */
export const COUNT_AHEAD = { rows: 2048, ms: 10_000 };
/** Sort columns list_sessions accepts (lib/workspace/schema's SESSION_SORT_KEYS); a column name is never bound, so it is checked. */
const SORT_COLUMNS = new Set(["session_ref", "started_at", "duration_seconds", "turn_count", "subagent_count", "size_bytes", "output_tokens", "total_tokens", "cost_usd", "reset_count", "risk_level"]);

/** pg's own type parsers, set when the first pool opens (`pg` is loaded then: a process on SQLite never loads it). */
let pgTypes: typeof pg.types | null = null;

/**
 * Result types as the SQLite store gives them: `bigint` (int8, OID 20) and `numeric` (a `sum`,
 * OID 1700) as JavaScript numbers. Counts, sizes and token sums stay far below 2^53; a line's
 * rowid (which does not) is never selected whole, only its document id and line number.
 */
const TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return pgTypes!.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** Something that runs a query: the pool, or the client of an open transaction. */
type Queryable = pg.Pool | pg.PoolClient;

/** The catalog store of `url` (`postgres://…`), one per URL per process; its pool is opened and migrated on first use. */
export function postgresCatalogStore(url: string): CatalogStore {
  const stores = processWide("catalog:postgres-stores", () => new Map<string, PostgresCatalogStore>());
  let store = stores.get(url);
  if (!store) stores.set(url, (store = new PostgresCatalogStore(url)));
  return store;
}

/**
 * {@link CatalogStore} on PostgreSQL. While a {@link write} transaction is open, every call of
 * this store runs in it (on its client), as every call of the SQLite store runs on its one
 * connection: a refresh's reads see its own rows, and a call made inside the transaction never
 * waits for a lock the transaction holds. A search's scan reads on a client of its own.
 */
export class PostgresCatalogStore implements CatalogStore {
  private pool: Promise<pg.Pool> | null = null;
  /** The open write transaction: its client and when it (re)began (performance.now()). */
  private tx: { client: pg.PoolClient; started: number } | null = null;
  /** In-process turn of {@link withIndexLock} (the advisory lock serializes processes). */
  private indexTurn: Promise<unknown> = Promise.resolve();
  /** Line partitions known to exist (made by this process or seen); forgotten when a transaction rolls back. */
  private readonly partitions = new Set<number>();
  /** Line partitions written since the index lock was taken: vacuumed when it is released. */
  private readonly touched = new Set<number>();
  /** Whole partitions' counts of a scan's words, started while the scan's lines are checked ({@link countAhead}). */
  private readonly aheadCounts = new Map<string, { at: number; count: Promise<number> }>();

  constructor(readonly url: string) {}

  /** The pool, opened and migrated once (a failed open is tried again by the next call). */
  private ready(): Promise<pg.Pool> {
    if (!this.pool) {
      const opening = (async () => {
        // Loaded here, not at the top: lib/catalog/catalog-store imports this module in every process.
        const [{ default: pgModule }, database] = await Promise.all([import("pg"), import("@/lib/catalog/postgres/database")]);
        pgTypes = pgModule.types;
        const pool = await database.openPostgres(this.url);
        await database.runMigrations(pool, "catalog", CATALOG_MIGRATIONS);
        return pool;
      })();
      this.pool = opening;
      opening.catch(() => {
        if (this.pool === opening) this.pool = null;
      });
    }
    return this.pool;
  }

  /** Runs a query in the open transaction, else on the pool; rows as objects. */
  private async q<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    const on: Queryable = this.tx?.client ?? (await this.ready());
    return on.query<R>({ text, values, types: TYPES });
  }

  private async rows<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    return (await this.q<R>(text, values)).rows;
  }

  /** Runs `fn` atomically: in the open transaction as it is, else in one of its own on a pool client. */
  private atomic<T>(fn: (on: Queryable) => Promise<T>): Promise<T> {
    return this.tx ? fn(this.tx.client) : this.transaction(fn);
  }

  /** Runs the statement `text` atomically ({@link atomic}): a write that must take its turn among the writers. */
  private locked<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.atomic((on) => on.query<R>({ text, values, types: TYPES }));
  }

  /**
   * Runs `fn` in a write transaction on a pool client, its turn taken among the catalog's writers
   * ({@link WRITE_LOCK_KEY}, waited for in the server, not in this event loop): committed when it
   * resolves, rolled back when it throws.
   */
  private async transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await (await this.ready()).connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK_KEY]);
      const done = await fn(client);
      await client.query("COMMIT");
      return done;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      // Partitions it made are gone with it.
      this.partitions.clear();
      throw error;
    } finally {
      client.release();
    }
  }

  // --- transactions -------------------------------------------------------------------------

  write<T>(fn: (tx: CatalogStore) => Promise<T>): Promise<T> {
    if (this.tx) return fn(this);
    return this.transaction(async (client) => {
      this.tx = { client, started: performance.now() };
      try {
        return await fn(this);
      } finally {
        this.tx = null;
      }
    });
  }

  writing(): boolean {
    return this.tx !== null;
  }

  async commitIfDue(maxMs = TX_MAX_MS): Promise<void> {
    const tx = this.tx;
    if (!tx || performance.now() - tx.started < maxMs) return;
    await tx.client.query("COMMIT");
    await new Promise((resolve) => setTimeout(resolve, WRITE_TURN_MS));
    await tx.client.query("BEGIN");
    await tx.client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK_KEY]);
    tx.started = performance.now();
  }

  async withIndexLock<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.indexTurn;
    let done!: () => void;
    this.indexTurn = new Promise<void>((resolve) => (done = resolve));
    await previous.catch(() => undefined);
    try {
      const client = await (await this.ready()).connect();
      try {
        const deadline = performance.now() + INDEX_LOCK_WAIT_MS;
        while (!(await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [INDEX_LOCK_KEY])).rows[0]!.ok) {
          if (performance.now() > deadline) throw new AppError("io_error", "The catalog's full-text index is being filled by another process (its lock was not free within 30 s).", { hint: "Try again when the other server's fill is done." });
          await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
        }
        this.touched.clear();
        try {
          return await fn();
        } finally {
          await this.settle(client);
          await client.query("SELECT pg_advisory_unlock($1)", [INDEX_LOCK_KEY]).catch(() => undefined);
        }
      } finally {
        client.release();
      }
    } finally {
      done();
    }
  }

  /**
   * After a fill, its partitions vacuumed (with their statistics): the lines a fill added wait in
   * the GIN index's pending list, which every search reads whole, and vacuum merges it; and the
   * pages it marks all-visible let the count of a search's lines left read the index alone.
   */
  private async settle(client: pg.PoolClient): Promise<void> {
    const tables = [...this.touched].sort((a, b) => a - b).map((n) => `catalog_lines_${n}`);
    this.touched.clear();
    if (tables.length > 0) await client.query(`VACUUM (ANALYZE) ${tables.join(", ")}`).catch(() => undefined);
  }

  // --- projects -----------------------------------------------------------------------------

  projectStamps(): Promise<ProjectStamps[]> {
    return this.rows<ProjectStamps>("SELECT project_key, ord, index_stamp, coverage_stamp FROM catalog_projects ORDER BY project_key");
  }

  async projectStamp(projectKey: string): Promise<ProjectStamps | undefined> {
    return (await this.rows<ProjectStamps>("SELECT project_key, ord, index_stamp, coverage_stamp FROM catalog_projects WHERE project_key = $1", [projectKey]))[0];
  }

  async upsertProject(r: ProjectRowInput): Promise<void> {
    await this.q(
      `INSERT INTO catalog_projects (project_key, ord, project_label, index_stamp, session_count, turn_count, cwd, git_branch, broken_rows)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (project_key) DO UPDATE SET ord = $2, project_label = $3, index_stamp = $4, session_count = $5, turn_count = $6, cwd = $7, git_branch = $8, broken_rows = $9`,
      [r.project_key, r.ord, r.project_label, r.index_stamp, r.session_count, r.turn_count, r.cwd, r.git_branch, r.broken_rows],
    );
  }

  async setProjectOrd(projectKey: string, ord: number): Promise<void> {
    await this.q("UPDATE catalog_projects SET ord = $2 WHERE project_key = $1", [projectKey, ord]);
  }

  async setCoverage(projectKey: string, c: ProjectCoverage): Promise<void> {
    await this.q(
      "UPDATE catalog_projects SET coverage_stamp = $2, turns_with_chain = $3, covered_turns = $4, indexed_turns = $5, synthesis_complete = $6, has_envelope = $7, problem = $8 WHERE project_key = $1",
      [projectKey, c.coverage_stamp, c.turns_with_chain, c.covered_turns, c.indexed_turns, c.synthesis_complete, c.has_envelope, c.problem],
    );
  }

  async dropProject(projectKey: string): Promise<void> {
    await this.locked(
      `WITH s AS (DELETE FROM catalog_sessions WHERE project_key = $1 RETURNING id),
            d AS (DELETE FROM catalog_docs WHERE session_id IN (SELECT id FROM s) RETURNING id),
            l AS (DELETE FROM catalog_lines m USING d WHERE ${DOC_RANGE("m", "d")}),
            t AS (DELETE FROM catalog_turns WHERE session_id IN (SELECT id FROM s))
       DELETE FROM catalog_projects WHERE project_key = $1`,
      [projectKey],
    );
  }

  listProjects(): Promise<CatalogProjectRow[]> {
    return this.rows<CatalogProjectRow>(
      `SELECT p.project_key, p.project_label, p.session_count, p.turn_count, p.cwd, p.git_branch, p.broken_rows, p.turns_with_chain, p.covered_turns,
              p.indexed_turns, p.synthesis_complete, p.has_envelope, p.problem, a.last_activity_at, a.total_tokens
       FROM catalog_projects p
       LEFT JOIN (SELECT project_key, max(coalesce(ended_at, started_at)) AS last_activity_at, sum(total_tokens) AS total_tokens FROM catalog_sessions GROUP BY project_key) a USING (project_key)
       ORDER BY a.last_activity_at IS NULL, a.last_activity_at DESC, p.ord`,
    );
  }

  // --- sessions -----------------------------------------------------------------------------

  sessionStamps(projectKey?: string): Promise<SessionStamp[]> {
    const where = projectKey === undefined ? "" : "WHERE project_key = $1";
    return this.rows<SessionStamp>(`SELECT project_key, session_ref, file_stamp, status_recent FROM catalog_sessions ${where} ORDER BY id`, projectKey === undefined ? [] : [projectKey]);
  }

  storedSessions(projectKey: string): Promise<StoredSession[]> {
    return this.rows<StoredSession>(
      `SELECT s.id, s.session_ref, s.source_session_id, s.session_path, s.file_stamp, s.status_recent, s.machine,
              (SELECT string_agg(t.turn_ref || ':' || t.turn_start_line || ':' || t.turn_end_line, ',' ORDER BY t.turn_start_line, t.turn_ref) FROM catalog_turns t WHERE t.session_id = s.id) AS turns_sig
       FROM catalog_sessions s WHERE s.project_key = $1 ORDER BY s.id`,
      [projectKey],
    );
  }

  async insertSession(s: SessionIdentity): Promise<number> {
    const made = await this.rows<{ id: number }>(
      `INSERT INTO catalog_sessions (project_key, session_ref, ord, source, source_session_id, session_path, turn_count, machine, q_lower)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (project_key, session_ref) DO NOTHING RETURNING id`,
      [s.project_key, s.session_ref, s.ord, s.source, s.source_session_id, s.session_path, s.turn_count, s.machine, qLower(s.session_ref, s.source, s.source_session_id, null)],
    );
    // Else another process made the row meanwhile: its row stays.
    if (made.length === 1) return made[0]!.id;
    return (await this.rows<{ id: number }>("SELECT id FROM catalog_sessions WHERE project_key = $1 AND session_ref = $2", [s.project_key, s.session_ref]))[0]!.id;
  }

  async dropSession(sessionId: number): Promise<void> {
    await this.locked(
      `WITH d AS (DELETE FROM catalog_docs WHERE session_id = $1 RETURNING id),
            l AS (DELETE FROM catalog_lines m USING d WHERE ${DOC_RANGE("m", "d")}),
            t AS (DELETE FROM catalog_turns WHERE session_id = $1)
       DELETE FROM catalog_sessions WHERE id = $1`,
      [sessionId],
    );
  }

  async replaceTurns(sessionId: number, turns: readonly TurnSpan[]): Promise<void> {
    await this.atomic(async (on) => {
      await on.query("DELETE FROM catalog_turns WHERE session_id = $1", [sessionId]);
      if (turns.length === 0) return;
      await on.query(
        "INSERT INTO catalog_turns (session_id, turn_ref, turn_start_line, turn_end_line) SELECT $1, r, s, e FROM unnest($2::text[], $3::int[], $4::int[]) AS u(r, s, e)",
        [sessionId, turns.map((t) => t.turn_ref), turns.map((t) => t.turn_start_line), turns.map((t) => t.turn_end_line)],
      );
    });
  }

  async setSessionMachine(sessionId: number, machine: string | null): Promise<void> {
    await this.q("UPDATE catalog_sessions SET machine = $2 WHERE id = $1", [sessionId, machine]);
  }

  async setSessionOrd(sessionId: number, ord: number): Promise<void> {
    await this.q("UPDATE catalog_sessions SET ord = $2 WHERE id = $1 AND ord <> $2", [sessionId, ord]);
  }

  async setSessionStatus(sessionId: number, status: string | null, statusRecent: number): Promise<boolean> {
    const r = await this.q("UPDATE catalog_sessions SET status = $2, status_recent = $3 WHERE id = $1 AND (status IS DISTINCT FROM $2 OR status_recent <> $3)", [sessionId, status, statusRecent]);
    return (r.rowCount ?? 0) > 0;
  }

  async updateSessionFacts(sessionId: number, f: SessionFacts): Promise<void> {
    const machine = (f as { machine?: string | null }).machine;
    await this.q(
      `UPDATE catalog_sessions SET ord = $2, file_stamp = $3, missing = 0, started_at = $4, ended_at = $5, duration_seconds = $6, turn_count = $7,
         first_user_message = $8, subagent_count = $9, size_bytes = $10, output_tokens = $11, total_tokens = $12, cost_usd = $13,
         usage_buckets = $14, usage_last_ms = $15, usage_stamp = $16, status = $17, status_recent = $18, last_response_preview = $19,
         q_lower = ARRAY[q_lower[1], q_lower[2], q_lower[3], $20]${machine === undefined ? "" : ", machine = $21"}
       WHERE id = $1`,
      [
        sessionId, f.ord, f.file_stamp, f.started_at, f.ended_at, f.duration_seconds, f.turn_count, f.first_user_message, f.subagent_count, f.size_bytes,
        f.output_tokens, f.total_tokens, f.cost_usd, f.usage_buckets, f.usage_last_ms, f.usage_stamp, f.status, f.status_recent, f.last_response_preview,
        (f.first_user_message ?? "").toLowerCase(), ...(machine === undefined ? [] : [machine]),
      ],
    );
  }

  async markSessionMissing(sessionId: number, ord: number, turnCount: number): Promise<void> {
    await this.locked(
      `WITH d AS (DELETE FROM catalog_docs WHERE session_id = $1 RETURNING id),
            l AS (DELETE FROM catalog_lines m USING d WHERE ${DOC_RANGE("m", "d")})
       UPDATE catalog_sessions SET ord = $2, fts_stamp = NULL, file_stamp = NULL, missing = 1, started_at = NULL, ended_at = NULL, duration_seconds = NULL,
         turn_count = $3, first_user_message = NULL, subagent_count = 0, size_bytes = 0, output_tokens = NULL, total_tokens = NULL, cost_usd = NULL,
         usage_buckets = NULL, usage_last_ms = NULL, usage_stamp = NULL, status = NULL, status_recent = 0, last_response_preview = NULL,
         risk_level = NULL, reset_count = NULL, risk_stamp = NULL, q_lower = ARRAY[q_lower[1], q_lower[2], q_lower[3], '']
       WHERE id = $1`,
      [sessionId, ord, turnCount],
    );
  }

  async listSessions(query: SessionPageQuery): Promise<{ total: number; rows: CatalogSessionRow[] }> {
    const { sort, order, limit, offset } = query;
    if (!SORT_COLUMNS.has(sort)) throw new AppError("internal", `unexpected sort ${sort}`);
    const where = new PgWhere(["project_key = ", query.project_key]);
    // q: a substring of any of the four lowered texts (JavaScript's lower case, as SQLite's js_lower).
    if (query.q) where.add(["EXISTS (SELECT 1 FROM unnest(q_lower) AS v WHERE strpos(v, ", query.q.toLowerCase(), ") > 0)"]);
    if (query.risk) where.add(["risk_level = ", query.risk]);
    if (query.source) where.add(["source = ", query.source]);
    if (query.machine) where.add(["machine = ", query.machine]);
    const total = (await this.rows<{ n: number }>(`SELECT count(*) AS n FROM catalog_sessions WHERE ${where.sql}`, where.values))[0]!.n;
    const page = where.bind(limit);
    const skip = where.bind(offset);
    const rows = await this.rows<CatalogSessionRow>(
      `SELECT session_ref, source, source_session_id, machine, started_at, ended_at, duration_seconds, turn_count, first_user_message, subagent_count, size_bytes,
              output_tokens, total_tokens, cost_usd, status, last_response_preview, risk_level, reset_count
       FROM catalog_sessions WHERE ${where.sql} ORDER BY (${sort} IS NULL), ${sort} ${order === "asc" ? "ASC" : "DESC"}, session_ref ASC LIMIT ${page} OFFSET ${skip}`,
      where.values,
    );
    return { total, rows };
  }

  bigSessions(minBytes: number, sources: readonly string[]): Promise<{ project_key: string; session_ref: string }[]> {
    return this.rows(
      `SELECT s.project_key, s.session_ref FROM catalog_sessions s JOIN catalog_projects p USING (project_key)
       WHERE s.missing = 0 AND s.size_bytes >= $1 AND s.source = ANY($2::text[]) ORDER BY p.ord, s.ord, s.session_ref`,
      [minBytes, [...sources]],
    );
  }

  // --- risk ---------------------------------------------------------------------------------

  staleRisks(projectKey: string): Promise<StaleRisk[]> {
    return this.rows<StaleRisk>(
      "SELECT id, session_ref, session_path, file_stamp FROM catalog_sessions WHERE project_key = $1 AND missing = 0 AND (risk_stamp IS NULL OR risk_stamp <> file_stamp) ORDER BY session_ref",
      [projectKey],
    );
  }

  async storeRisks(updates: readonly RiskUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await this.q(
      `UPDATE catalog_sessions s SET risk_stamp = u.st, risk_level = u.lv, reset_count = u.rc
       FROM unnest($1::int[], $2::text[], $3::text[], $4::int[]) AS u(id, st, lv, rc) WHERE s.id = u.id`,
      [updates.map((u) => u.id), updates.map((u) => u.risk_stamp), updates.map((u) => u.risk_level), updates.map((u) => u.reset_count)],
    );
  }

  // --- usage --------------------------------------------------------------------------------

  usageRows(query: UsageQuery): Promise<UsageRow[]> {
    const where = new PgWhere(["missing = 0 AND source = ANY(", [...query.sources], "::text[])"]);
    if (query.project_key !== undefined) where.add(["project_key = ", query.project_key]);
    if (query.source !== undefined) where.add(["source = ", query.source]);
    if (query.machine !== undefined) where.add(["machine = ", query.machine]);
    if (query.sinceMs !== undefined) where.add(["usage_last_ms >= ", query.sinceMs]);
    else if (query.timedOnly) where.add(["usage_last_ms IS NOT NULL"]);
    return this.rows<UsageRow>(`SELECT id, project_key, session_ref, source_session_id, source, machine, usage_buckets, usage_stamp FROM catalog_sessions WHERE ${where.sql} ORDER BY id`, where.values);
  }

  async setUsage(sessionId: number, u: SessionUsageFacts): Promise<void> {
    await this.q("UPDATE catalog_sessions SET output_tokens = $2, total_tokens = $3, cost_usd = $4, usage_buckets = $5, usage_last_ms = $6, usage_stamp = $7 WHERE id = $1", [
      sessionId, u.output_tokens, u.total_tokens, u.cost_usd, u.usage_buckets, u.usage_last_ms, u.usage_stamp,
    ]);
  }

  // --- full-text index ----------------------------------------------------------------------

  staleFullText(projectKey: string): Promise<StaleFullText[]> {
    return this.rows<StaleFullText>(
      `SELECT s.id, s.session_path, s.source, coalesce(d.indexed_bytes, 0) AS indexed_bytes
       FROM catalog_sessions s LEFT JOIN catalog_docs d ON d.session_id = s.id AND d.kind = 0
       WHERE s.project_key = $1 AND s.missing = 0 AND s.file_stamp IS NOT NULL AND s.fts_stamp IS DISTINCT FROM s.file_stamp ORDER BY s.ord, s.id`,
      [projectKey],
    );
  }

  async setFtsStamp(sessionId: number, stamp: string): Promise<void> {
    await this.q("UPDATE catalog_sessions SET fts_stamp = $2 WHERE id = $1", [sessionId, stamp]);
  }

  searchDocs(sessionId: number): Promise<SearchDoc[]> {
    return this.rows<SearchDoc>("SELECT id, kind, name, stamp FROM catalog_docs WHERE session_id = $1 ORDER BY id", [sessionId]);
  }

  async addSearchDoc(sessionId: number, kind: number, name: string, relPath: string): Promise<number> {
    return (await this.rows<{ id: number }>("INSERT INTO catalog_docs (session_id, kind, name, rel_path) VALUES ($1, $2, $3, $4) RETURNING id", [sessionId, kind, name, relPath]))[0]!.id;
  }

  async dropSearchDoc(docId: number): Promise<void> {
    await this.locked(`WITH l AS (DELETE FROM catalog_lines WHERE ${ROWID_RANGE}) DELETE FROM catalog_docs WHERE id = $1`, [docId]);
  }

  async setDocStamp(docId: number, stamp: string): Promise<void> {
    await this.q("UPDATE catalog_docs SET stamp = $2 WHERE id = $1", [docId, stamp]);
  }

  async docProgress(docId: number): Promise<DocProgress | undefined> {
    return (await this.rows<DocProgress>("SELECT indexed_bytes, indexed_lines, head_sha FROM catalog_docs WHERE id = $1", [docId]))[0];
  }

  async resetDoc(docId: number): Promise<void> {
    await this.locked(`WITH l AS (DELETE FROM catalog_lines WHERE ${ROWID_RANGE}) UPDATE catalog_docs SET indexed_bytes = 0, indexed_lines = 0, head_sha = NULL WHERE id = $1`, [docId]);
  }

  /**
   * One statement (atomic on its own): the document's progress, then the batch's lines from
   * arrays (one parameter per column, however many lines), only when the progress found its row.
   * A line indexed again replaces its row, as SQLite's `INSERT OR REPLACE`.
   */
  async addLines(docId: number, batch: LineBatch): Promise<boolean> {
    const { extracted: ex, from, to, progress } = batch;
    const partition = Number(BigInt(docId) << 32n >> PARTITION_SHIFT);
    if (!this.partitions.has(partition)) {
      await this.q("SELECT catalog_lines_partition($1)", [partition]);
      this.partitions.add(partition);
    }
    this.touched.add(partition);
    const n = to - from;
    const rowids = new Array<string>(n);
    const starts = new Array<number>(n);
    const lens = new Array<number>(n);
    const roles = new Array<number>(n);
    const errors = new Array<number>(n);
    const times = new Array<number | null>(n);
    const tools = new Array<string | null>(n);
    const files = new Array<string | null>(n);
    const calls = new Array<string | null>(n);
    const tokens = new Array<string>(n);
    for (let k = from; k < to; k++) {
      const i = k - from;
      rowids[i] = lineRowid(docId, ex.lines[k]!).toString();
      starts[i] = ex.starts[k]!;
      lens[i] = ex.lens[k]!;
      roles[i] = ex.roles[k]!;
      errors[i] = ex.errors[k]!;
      const time = ex.times[k]!;
      times[i] = Number.isNaN(time) ? null : Math.round(time);
      tools[i] = ex.tools[k] || null;
      files[i] = ex.files[k] || null;
      calls[i] = ex.calls[k] || null;
      tokens[i] = bucketLiteral(ex.words, k);
    }
    const r = await this.locked<{ docs: number }>(
      `WITH p AS (UPDATE catalog_docs SET indexed_bytes = $2, indexed_lines = $3, head_sha = $4 WHERE id = $1 RETURNING id),
            ins AS (
              INSERT INTO catalog_lines (rowid, start, len, role, error, time, tools, files, calls, tokens)
              SELECT u.r, u.s, u.l, u.ro, u.e, u.t, u.tl, u.f, u.c, u.k::int4[]
              FROM unnest($5::int8[], $6::int8[], $7::int4[], $8::int2[], $9::int2[], $10::int8[], $11::text[], $12::text[], $13::text[], $14::text[]) AS u(r, s, l, ro, e, t, tl, f, c, k)
              WHERE EXISTS (SELECT 1 FROM p)
              ON CONFLICT (rowid) DO UPDATE SET start = excluded.start, len = excluded.len, role = excluded.role, error = excluded.error, time = excluded.time,
                tools = excluded.tools, files = excluded.files, calls = excluded.calls, tokens = excluded.tokens)
       SELECT count(*) AS docs FROM p`,
      [docId, progress.indexed_bytes, progress.indexed_lines, progress.head_sha, rowids, starts, lens, roles, errors, times, tools, files, calls, tokens],
    );
    return r.rows[0]!.docs === 1;
  }

  async lastCalls(docId: number, limit: number): Promise<CallRow[]> {
    const rows = await this.rows<CallRow>(`SELECT tools, files, calls FROM catalog_lines WHERE ${ROWID_RANGE} AND calls IS NOT NULL ORDER BY rowid DESC LIMIT $2`, [docId, limit]);
    return rows.reverse();
  }

  async fullTextCoverage(filter: { project_key?: string; source?: string; machine?: string }): Promise<FullTextCoverage> {
    const where = new PgWhere(["missing = 0 AND file_stamp IS NOT NULL"]);
    if (filter.project_key) where.add(["project_key = ", filter.project_key]);
    if (filter.source) where.add(["source = ", filter.source]);
    if (filter.machine) where.add(["machine = ", filter.machine]);
    const row = (await this.rows<{ total: number; indexed: number }>(
      `SELECT count(*) AS total, coalesce(sum(CASE WHEN fts_stamp IS NOT DISTINCT FROM file_stamp THEN 1 ELSE 0 END), 0) AS indexed FROM catalog_sessions WHERE ${where.sql}`,
      where.values,
    ))[0]!;
    return { sessions_indexed: row.indexed, sessions_total: row.total };
  }

  async indexStamp(): Promise<string> {
    const row = (await this.rows<{ docs: number; bytes: number; top: number }>("SELECT count(*) AS docs, coalesce(sum(indexed_bytes), 0) AS bytes, coalesce(max(id), 0) AS top FROM catalog_docs"))[0]!;
    return `${row.docs}:${row.bytes}:${row.top}`;
  }

  // --- search -------------------------------------------------------------------------------

  /**
   * Streams the candidates partition by partition in the query's order (newest documents first,
   * or ascending), each through a cursor (one plan run, rows fetched in growing pages), on a client
   * of its own in a read-only transaction: the visit may stop it at any row, and the partitions it
   * does not reach are never read. With index words the planner is told each partition's whole
   * result is read (`cursor_tuple_fraction` 1), so it takes the GIN bitmap and sorts, never a walk
   * of every line in key order hoping for early rows.
   */
  async scanCandidates(query: CandidateQuery, visit: (line: CandidateLine) => boolean): Promise<void> {
    const pool = await this.ready();
    const range = await this.sessionRange(query);
    const client = await pool.connect();
    try {
      await client.query("BEGIN READ ONLY");
      if (wordCondition(query.words) !== null) await client.query("SET LOCAL cursor_tuple_fraction = 1");
      const windows = partitionWindows(await partitionsOf(client), range, query.order);
      const words = wordCondition(query.words);
      let fetched = 0;
      for (const [w, window] of windows.entries()) {
        // The window's documents and their sessions, read once: each candidate row carries only its own columns.
        const docs = new Map<number, DocOfLine>();
        const docRows = await client.query({
          text: `SELECT d.id, d.kind, d.name, d.rel_path, s.id AS sid, s.project_key, coalesce(s.ended_at, s.started_at) AS recency, s.source
                 FROM catalog_docs d JOIN catalog_sessions s ON s.id = d.session_id WHERE d.id BETWEEN ($1::int8 >> 32) AND ($2::int8 >> 32)`,
          values: window,
          rowMode: "array",
          types: TYPES,
        });
        for (const r of docRows.rows as unknown[][]) docs.set(r[0] as number, { kind: r[1] as number, name: r[2] as string, relPath: r[3] as string, sessionId: r[4] as number, projectKey: r[5] as string, recency: r[6] as string | null, source: r[7] as string });
        const sql = candidateSql(query, window);
        await client.query({
          text: `DECLARE candidates NO SCROLL CURSOR FOR
                 SELECT (m.rowid >> 32)::int AS doc, (m.rowid & 4294967295)::int8 AS line, m.start, m.len, m.role, m.time
                 ${sql.from} ORDER BY m.rowid ${query.order === "line" ? "ASC" : "DESC"}`,
          values: sql.values,
        });
        let fetch = FETCH_FIRST;
        for (;;) {
          const page = await client.query({ text: `FETCH ${fetch} FROM candidates`, rowMode: "array", types: TYPES });
          for (const r of page.rows as unknown[][]) {
            const doc = docs.get(r[0] as number)!;
            const line: CandidateLine = {
              docId: r[0] as number,
              line: r[1] as number,
              start: r[2] as number,
              len: r[3] as number,
              role: r[4] as number,
              time: r[5] as number | null,
              kind: doc.kind,
              name: doc.name,
              relPath: doc.relPath,
              sessionId: doc.sessionId,
              projectKey: doc.projectKey,
              recency: doc.recency,
              source: doc.source,
            };
            if (!visit(line)) return;
          }
          // Many candidates already: the check will likely stop here and ask for the lines left, so
          // the partitions past this one are counted now, beside the check (PostgreSQL's cores are idle meanwhile).
          if (words !== null && fetched < COUNT_AHEAD.rows && (fetched += page.rows.length) >= COUNT_AHEAD.rows) this.countAhead(words, windows.slice(w + 1));
          if (page.rows.length < fetch) break;
          fetch = Math.min(FETCH_MOST, fetch * 2);
        }
        await client.query("CLOSE candidates");
      }
    } finally {
      await client.query("ROLLBACK").catch(() => undefined);
      client.release();
    }
  }

  /**
   * Without words: the candidates past `last` under every filter, exact. With words: the lines
   * holding them past `last` within the session scope's far bound (as the SQLite store counts in
   * FTS5), summed over the partitions: one wholly past `last` by its GIN bitmap and no other
   * condition, the one holding `last` (or the scope's bound) with the key range too. The
   * partitions are counted on two connections at once (the count reads every candidate's heap
   * page: PostgreSQL no longer skips all-visible pages in bitmap scans).
   */
  async countCandidatesAfter(query: CandidateQuery, last: LineKey): Promise<number> {
    const range = await this.sessionRange(query);
    const byLine = query.order === "line";
    const at = lineRowid(last.docId, last.line);
    const words = wordCondition(query.words);
    if (words === null) {
      const sql = candidateSql(query, range);
      const at$ = sql.values.length + 1;
      return (await this.rows<{ n: number }>(`SELECT count(*) AS n ${sql.from} AND m.rowid ${byLine ? ">" : "<"} $${at$}::int8`, [...sql.values, at.toString()]))[0]!.n;
    }
    // The rowids counted: [lo, hi], past `last` and within the scope's far bound.
    const lo = byLine ? at + 1n : range === null ? 0n : BigInt(range[0]);
    const hi = byLine ? (range === null ? MAX_ROWID : BigInt(range[1])) : at - 1n;
    if (lo > hi) return 0;
    const pool = await this.ready();
    const groups: { parts: string[]; values: unknown[] }[] = [
      { parts: [], values: [] },
      { parts: [], values: [] },
    ];
    const ahead: Promise<number>[] = [];
    for (const [i, n] of (await partitionsOf(pool)).entries()) {
      const [pLo, pHi] = partitionBounds(n);
      if (pHi < lo || pLo > hi) continue;
      const counted = pLo >= lo && pHi <= hi && !this.tx ? this.takeAhead(words, n) : undefined;
      if (counted !== undefined) {
        ahead.push(counted);
        continue;
      }
      const group = groups[i % groups.length]!;
      const where = wordSql(words, group.values, "");
      if (pLo < lo) where.push(`rowid >= ${lo}`);
      if (pHi > hi) where.push(`rowid <= ${hi}`);
      group.parts.push(`(SELECT count(*) FROM catalog_lines_${n} WHERE ${where.join(" AND ")})`);
    }
    // Inside an open write transaction its client (the counts see its rows); else two pool connections at once.
    const counts = await Promise.all([
      ...ahead,
      ...groups.filter((g) => g.parts.length > 0).map(async (g) => (await (this.tx?.client ?? pool).query<{ n: number }>({ text: `SELECT ${g.parts.join(" + ")} AS n`, values: g.values, types: TYPES })).rows[0]!.n),
    ]);
    return counts.reduce((a, b) => a + b, 0);
  }

  /**
   * Starts counting the lines holding `words` in each whole partition of `windows` (on two pool
   * connections), for the {@link countCandidatesAfter} that likely follows; each count is used
   * once, within {@link COUNT_AHEAD.ms}, else dropped.
   */
  private countAhead(words: WordCondition, windows: readonly [string, string][]): void {
    const now = performance.now();
    for (const [key, entry] of this.aheadCounts) if (now - entry.at > COUNT_AHEAD.ms) this.aheadCounts.delete(key);
    const whole = windows.map(([lo]) => Number(BigInt(lo) >> PARTITION_SHIFT)).filter((n, i) => {
      const [pLo, pHi] = partitionBounds(n);
      return windows[i]![0] === pLo.toString() && windows[i]![1] === pHi.toString() && !this.aheadCounts.has(aheadKey(words, n));
    });
    if (whole.length === 0) return;
    for (const group of [whole.filter((_, i) => i % 2 === 0), whole.filter((_, i) => i % 2 === 1)]) {
      if (group.length === 0) continue;
      const values: unknown[] = [];
      const text = group.map((n) => `SELECT ${n} AS n, count(*) AS c FROM catalog_lines_${n} WHERE ${wordSql(words, values, "").join(" AND ")}`).join(" UNION ALL ");
      const rows = this.ready().then((pool) => pool.query<{ n: number; c: number }>({ text, values, types: TYPES }));
      // Unused counts must not become unhandled rejections; a failed one is counted again when asked.
      rows.catch(() => undefined);
      for (const n of group) {
        const count = rows.then((r) => r.rows.find((row) => row.n === n)!.c);
        count.catch(() => undefined);
        this.aheadCounts.set(aheadKey(words, n), { at: now, count });
      }
    }
  }

  /** A count {@link countAhead} started for partition `n`, taken (used once); undefined when none is fresh. */
  private takeAhead(words: WordCondition, n: number): Promise<number> | undefined {
    const key = aheadKey(words, n);
    const entry = this.aheadCounts.get(key);
    this.aheadCounts.delete(key);
    return entry !== undefined && performance.now() - entry.at <= COUNT_AHEAD.ms ? entry.count : undefined;
  }

  async hitSession(sessionId: number): Promise<HitSession | undefined> {
    return (await this.rows<HitSession>("SELECT project_key, session_ref, source_session_id, first_user_message, machine FROM catalog_sessions WHERE id = $1", [sessionId]))[0];
  }

  async turnAt(sessionId: number, line: number): Promise<string | null> {
    const rows = await this.rows<{ turn_ref: string }>(
      "SELECT turn_ref FROM catalog_turns WHERE session_id = $1 AND turn_start_line <= $2 AND turn_end_line >= $2 ORDER BY turn_start_line DESC LIMIT 1",
      [sessionId, line],
    );
    return rows[0]?.turn_ref ?? null;
  }

  async callLine(sessionId: number, callId: string): Promise<number | null> {
    const rows = await this.rows<{ line: number }>(
      `SELECT (m.rowid & 4294967295) AS line FROM catalog_docs d JOIN catalog_lines m ON ${DOC_RANGE("m", "d")}
       WHERE d.session_id = $1 AND d.kind = 0 AND m.calls IS NOT NULL AND position(E'\\n' || $2 || E'\\n' IN E'\\n' || m.calls || E'\\n') > 0
       ORDER BY m.rowid LIMIT 1`,
      [sessionId, callId],
    );
    return rows[0]?.line ?? null;
  }

  /**
   * The rowid range of the documents of the sessions `sessions` names in one project (with
   * `transcript`, that file's only), as strings; [0, 0] when none; null when the query names no
   * sessions of one project (the SQLite store's `sessionRange`).
   */
  private async sessionRange(query: CandidateQuery): Promise<[string, string] | null> {
    if (query.sessions.length === 0 || query.projects.length !== 1) return null;
    const values: unknown[] = [query.projects[0], [...query.sessions]];
    let file = "";
    if (query.transcript !== null) {
      file = " AND d.kind = $3 AND d.name = $4";
      values.push(query.transcript === "main" ? 0 : 1, query.transcript === "main" ? "" : query.transcript);
    }
    const row = (await this.rows<{ lo: number | null; hi: number | null }>(
      `SELECT min(d.id) AS lo, max(d.id) AS hi FROM catalog_docs d JOIN catalog_sessions s ON s.id = d.session_id WHERE s.project_key = $1 AND s.session_ref = ANY($2::text[])${file}`,
      values,
    ))[0]!;
    return row.lo === null || row.hi === null ? ["0", "0"] : [lineRowid(row.lo, 0).toString(), lineRowid(row.hi, 0xffffffff).toString()];
  }
}

/** The key of a partition's count of a word condition. */
function aheadKey(words: WordCondition, n: number): string {
  return `${n}:${JSON.stringify(words)}`;
}

/** What a candidate line carries of its document and session. */
type DocOfLine = Pick<CandidateLine, "kind" | "name" | "relPath" | "sessionId" | "projectKey" | "recency" | "source">;

/** The largest rowid (document id and line number both at their largest). */
const MAX_ROWID = (1n << 63n) - 1n;

/** The first and last rowid of line partition `n`. */
function partitionBounds(n: number): [bigint, bigint] {
  return [BigInt(n) << PARTITION_SHIFT, ((BigInt(n) + 1n) << PARTITION_SHIFT) - 1n];
}

/** The numbers of the line partitions that exist, ascending. */
async function partitionsOf(on: Queryable): Promise<number[]> {
  const { rows } = await on.query<{ n: number }>(
    "SELECT substr(c.relname, 15)::int AS n FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid WHERE h.inhparent = 'catalog_lines'::regclass ORDER BY 1",
  );
  return rows.map((r) => r.n);
}

/** The key ranges a scan reads, one per partition, within the session scope's range, in the scan's order. */
function partitionWindows(partitions: readonly number[], range: [string, string] | null, order: "newest" | "line"): [string, string][] {
  const [lo, hi] = range === null ? [0n, MAX_ROWID] : [BigInt(range[0]), BigInt(range[1])];
  const windows: [string, string][] = [];
  for (const n of partitions) {
    const [pLo, pHi] = partitionBounds(n);
    if (pHi < lo || pLo > hi) continue;
    windows.push([(pLo > lo ? pLo : lo).toString(), (pHi < hi ? pHi : hi).toString()]);
  }
  return order === "line" ? windows : windows.reverse();
}

/** `m`'s rowid within document `d`'s range (its id in the high 32 bits). */
const DOC_RANGE = (m: string, d: string) => `${m}.rowid BETWEEN (${d}.id::int8 << 32) AND ((${d}.id::int8 << 32) | 4294967295)`;
/** A line's rowid within document `$1`'s range. */
const ROWID_RANGE = "rowid BETWEEN ($1::int8 << 32) AND (($1::int8 << 32) | 4294967295)";

/** What list_sessions' `q` searches of a session, lowered by JavaScript (SQLite's `js_lower`). */
function qLower(sessionRef: string, source: string, sourceSessionId: string, firstUserMessage: string | null): string[] {
  return [sessionRef, source, sourceSessionId, firstUserMessage ?? ""].map((v) => v.toLowerCase());
}

/**
 * A WHERE clause built from parts: each `add` is alternating SQL text and values, every value
 * bound as the next `$n` (so clauses compose without counting placeholders by hand).
 */
class PgWhere {
  private readonly clauses: string[] = [];
  readonly values: unknown[] = [];

  constructor(...parts: unknown[][]) {
    for (const p of parts) this.add(p);
  }

  /** Adds one clause: `["a = ", 1, " AND b = ", 2]` → `a = $1 AND b = $2`. */
  add(parts: unknown[]): this {
    this.clauses.push(parts.map((p, i) => (i % 2 === 0 ? (p as string) : this.bind(p))).join(""));
    return this;
  }

  /** Binds a value, returning its placeholder. */
  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  get sql(): string {
    return this.clauses.length === 0 ? "true" : this.clauses.map((c) => `(${c})`).join(" AND ");
  }
}

/**
 * The query's index words as GIN conditions: the words every candidate holds (the clauses of one
 * alternative, merged into one array: `@>` of their union) and the OR clauses, each a list of
 * alternatives' arrays. A clause with an alternative of no words constrains nothing (as
 * lib/catalog/search-match's candidateExpression); null when no clause constrains.
 */
type WordCondition = { all: number[]; any: number[][][] };

function wordCondition(words: CandidateQuery["words"]): WordCondition | null {
  if (words === null) return null;
  const all = new Set<number>();
  const any: number[][][] = [];
  for (const clause of words) {
    const alternatives = clause.map((alternative) => [...new Set(alternative.map(wordBucket))].sort((a, b) => a - b));
    if (alternatives.length === 0 || alternatives.some((a) => a.length === 0)) continue;
    const distinct = [...new Map(alternatives.map((a) => [a.join(","), a])).values()];
    if (distinct.length === 1) distinct[0]!.forEach((w) => all.add(w));
    else any.push(distinct);
  }
  if (all.size === 0 && any.length === 0) return null;
  return { all: [...all].sort((a, b) => a - b), any };
}

/**
 * The WHERE text of {@link WordCondition} `c` over column `tokens` of `alias`, its arrays pushed to
 * `values`. `opaque`: each array is a subquery's value (`(SELECT $n)`), which the planner cannot
 * see: it then estimates the condition at its default (0.5 % of the lines) instead of multiplying
 * the buckets' frequencies (a common word's three trigrams, each on a few % of the lines, came out
 * as one line), so a selective `file:`/`tool:` filter's trigram index is ANDed with the words' GIN
 * bitmap, or scanned alone, instead of visiting every candidate of the words.
 */
function wordSql(c: WordCondition, values: unknown[], alias: string, opaque = false): string[] {
  const col = alias === "" ? "tokens" : `${alias}.tokens`;
  const bind = (a: number[]) => {
    values.push(a);
    return opaque ? `${col} @> (SELECT $${values.length}::int4[])` : `${col} @> $${values.length}::int4[]`;
  };
  const out: string[] = [];
  if (c.all.length > 0) out.push(bind(c.all));
  for (const alternatives of c.any) out.push(`(${alternatives.map((a) => `(${bind(a)})`).join(" OR ")})`);
  return out;
}

/**
 * The FROM … WHERE of a search's candidates (the SQLite store's, condition for condition), within
 * the rowid `range` when one is given (a session scope's, a partition's).
 */
function candidateSql(query: CandidateQuery, range: [string, string] | null): { from: string; values: unknown[] } {
  const where = new PgWhere(["s.missing = 0"]);
  if (query.projects.length > 0) where.add(["s.project_key = ANY(", [...query.projects], "::text[])"]);
  if (query.sessions.length > 0) where.add(["s.session_ref = ANY(", [...query.sessions], "::text[])"]);
  if (query.agents.length > 0) where.add(["s.source = ANY(", [...query.agents], "::text[])"]);
  if (query.machines.length > 0) where.add(["s.machine = ANY(", [...query.machines], "::text[])"]);
  if (query.roles.length > 0) where.add(["m.role = ANY(", [...query.roles], "::int2[])"]);
  // tool: a whole name among the line's tools; file: a substring of its paths; both with SQLite's lower (ASCII letters only).
  // Each also as the `LIKE '%…%'` (implied by the exact test) that the trigram indexes of migration 3 serve.
  if (query.tools.length > 0) {
    where.add(orParts(query.tools, (t) => ["m.tools IS NOT NULL AND catalog_ascii_lower(m.tools) LIKE ", containsPattern(t), " AND position(E'\\n' || catalog_ascii_lower(", t, ") || E'\\n' IN E'\\n' || catalog_ascii_lower(m.tools) || E'\\n') > 0"]));
  }
  if (query.files.length > 0) {
    where.add(orParts(query.files, (f) => ["m.files IS NOT NULL AND catalog_ascii_lower(m.files) LIKE ", containsPattern(f), " AND strpos(catalog_ascii_lower(m.files), catalog_ascii_lower(", f, ")) > 0"]));
  }
  if (query.errors) where.add(["m.error = 1"]);
  if (query.noErrors) where.add(["m.error = 0"]);
  if (query.after !== null) where.add(["coalesce(m.time >= ", Date.parse(query.after), "::int8, s.started_at >= ", query.after, ")"]);
  if (query.before !== null) where.add(["coalesce(m.time < ", Date.parse(query.before), "::int8, s.started_at < ", query.before, ")"]);
  if (query.since !== null) where.add(["coalesce(s.ended_at, s.started_at) >= ", query.since]);
  if (query.until !== null) where.add(["s.started_at <= ", query.until]);
  if (range !== null) where.add(["m.rowid BETWEEN ", range[0], "::int8 AND ", range[1], "::int8"]);
  const words = wordCondition(query.words);
  const conditions = [where.sql];
  if (words !== null) conditions.push(...wordSql(words, where.values, "m", query.tools.length > 0 || query.files.length > 0));
  return {
    from: `FROM catalog_lines m JOIN catalog_docs d ON d.id = (m.rowid >> 32) JOIN catalog_sessions s ON s.id = d.session_id WHERE ${conditions.join(" AND ")}`,
    values: where.values,
  };
}

/**
 * The `LIKE` pattern of the column values holding `text` lowered as `catalog_ascii_lower` lowers
 * (ASCII letters only): `%text%` with backslash, `%` and `_` escaped, so it matches what `strpos` finds.
 */
function containsPattern(text: string): string {
  return `%${text.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Alternating SQL and values of `make(value)` for each value, ORed. */
function orParts(values: readonly string[], make: (value: string) => unknown[]): unknown[] {
  const out: unknown[] = [];
  values.forEach((v, i) => {
    const part = make(v);
    if (i > 0) out[out.length - 1] = `${out[out.length - 1] as string}) OR (${part[0] as string}`;
    else out.push(`(${part[0] as string}`);
    out.push(...part.slice(1));
  });
  out[out.length - 1] = `${out[out.length - 1] as string})`;
  return out;
}
