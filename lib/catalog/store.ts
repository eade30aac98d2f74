// The catalog's store (issue 39): every read and write of its rows — projects, sessions, turns,
// search documents, the line index, usage, risk — as domain operations, behind one interface with
// two implementations: SQLite (lib/catalog/sqlite-store.ts, the default) and PostgreSQL
// (lib/catalog/postgres/store.ts, the team server). lib/catalog/catalog-store.ts chooses one.

import type { ExtractedLines } from "@/lib/catalog/extract-lines";
import type { SessionUsageFacts } from "@/lib/catalog/row-facts";
import type { SessionSortKey } from "@/lib/workspace/schema";

/** A `projects` row as the lists read it (counts, origin, coverage), with its sessions' last activity and tokens. */
export type CatalogProjectRow = {
  project_key: string;
  project_label: string;
  session_count: number;
  turn_count: number;
  cwd: string | null;
  git_branch: string | null;
  /** The project index's malformed rows, JSON. */
  broken_rows: string;
  turns_with_chain: number;
  covered_turns: number;
  indexed_turns: number;
  synthesis_complete: number;
  has_envelope: number;
  /** The latest record time of the project's sessions (ISO), null when none has one. */
  last_activity_at: string | null;
  /** Tokens of the project's sessions (sum of those known), null when none is known. */
  total_tokens: number | null;
  /** What is wrong with the project's folder (lib/workspace/project-problem, issue 35), null when nothing. */
  problem: string | null;
};

/** What a refresh compares of a project's row: the stamps it was written at and its order. */
export type ProjectStamps = { project_key: string; ord: number; index_stamp: string; coverage_stamp: string | null };

/** A project's row as a refresh writes it (lib/catalog/project-row). */
export type ProjectRowInput = {
  project_key: string;
  ord: number;
  project_label: string;
  index_stamp: string;
  session_count: number;
  turn_count: number;
  cwd: string | null;
  git_branch: string | null;
  /** The project index's malformed rows, JSON. */
  broken_rows: string;
};

/** A project's evidence and synthesis coverage, stored with the stamp it was read at (lib/catalog/project-row). */
export type ProjectCoverage = {
  coverage_stamp: string;
  turns_with_chain: number;
  covered_turns: number;
  indexed_turns: number;
  synthesis_complete: number;
  has_envelope: number;
  problem: string | null;
};

/**
 * A session's stored row as a refresh compares it: identity, machine, file stamp, turns (`turns_sig`:
 * `turn_ref:turn_start_line:turn_end_line` of each turn by start line, joined with ",", null when
 * none) and whether its status may be "active because recent" (`status_recent` 1).
 */
export type StoredSession = { id: number; session_ref: string; source_session_id: string; session_path: string; turns_sig: string | null; file_stamp: string | null; status_recent: number; machine: string | null };

/** A session row's stamps: the file stamp it was written at, and whether its status may expire with the clock. */
export type SessionStamp = { project_key: string; session_ref: string; file_stamp: string | null; status_recent: number };

/** What makes a new session row: its keys, order, source and identity, and the machine it was prepared from (null: unknown). */
export type SessionIdentity = { project_key: string; session_ref: string; ord: number; source: string; source_session_id: string; session_path: string; turn_count: number; machine: string | null };

/** A turn of a session's index row. */
export type TurnSpan = { turn_ref: string; turn_start_line: number; turn_end_line: number };

/** What a refresh writes of a session read from its file (lib/catalog/refresh-session): list facts, usage, status. */
export type SessionFacts = SessionUsageFacts & {
  ord: number;
  file_stamp: string;
  started_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  turn_count: number;
  first_user_message: string | null;
  subagent_count: number;
  size_bytes: number;
  status: string | null;
  /** 1 when an `active` status may expire with the clock (re-checked by later reads). */
  status_recent: number;
  last_response_preview: string | null;
};

/** A `sessions` row as list_sessions shows it (lib/catalog/session-item). */
export type CatalogSessionRow = {
  session_ref: string;
  source: string;
  source_session_id: string;
  machine: string | null;
  started_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  turn_count: number;
  first_user_message: string | null;
  subagent_count: number;
  size_bytes: number;
  output_tokens: number | null;
  total_tokens: number | null;
  cost_usd: number | null;
  status: string | null;
  last_response_preview: string | null;
  risk_level: string | null;
  reset_count: number | null;
};

/**
 * One page of a project's sessions: `q` a case-insensitive substring (JavaScript's lower case) of
 * session_ref, source, source_session_id or the first user message; `risk`, `source`, `machine`
 * exact; sorted by `sort` (nulls last) then session_ref ascending; `offset`/`limit` slice it.
 */
export type SessionPageQuery = { project_key: string; q?: string; risk?: string; source?: string; machine?: string; sort: SessionSortKey; order: "asc" | "desc"; limit: number; offset: number };

/** A session whose seed 003 risk is older than its file (its risk stamp differs from its file stamp). */
export type StaleRisk = { id: number; session_ref: string; session_path: string; file_stamp: string };

/** A risk to store: computed for `risk_stamp` (the file stamp; null with a null level: pending, forget any older one). */
export type RiskUpdate = { id: number; risk_stamp: string | null; risk_level: string | null; reset_count: number | null };

/**
 * Which sessions' usage get_usage reads: present (not missing) of `sources`, narrowed by
 * project, source and machine; `sinceMs`: only sessions with a timed bucket ending at or after it;
 * `timedOnly`: only sessions with a timed bucket.
 */
export type UsageQuery = { sources: readonly string[]; project_key?: string; source?: string; machine?: string; sinceMs?: number; timedOnly?: boolean };

/** A session's stored usage as get_usage groups it. */
export type UsageRow = { id: number; project_key: string; session_ref: string; source_session_id: string; source: string; machine: string | null; usage_buckets: string | null; usage_stamp: string | null };

/** A session whose full-text lines are behind its file (`fts_stamp` differs from its file stamp), with how much of its transcript is indexed. */
export type StaleFullText = { id: number; session_path: string; source: string; indexed_bytes: number };

/** A search document of a session: `kind` 0 its transcript, 1 a subagent's (`name` its agent id), 2 a persisted tool result (`name` its tool-use id). */
export type SearchDoc = { id: number; kind: number; name: string; stamp: string | null };

/** How far the index has read a document: bytes and lines, and the SHA-256 (hex) of its first bytes then. */
export type DocProgress = { indexed_bytes: number; indexed_lines: number; head_sha: string | null };

/**
 * A batch of a document's extracted lines to index: `lines` entries `[from, to)` of `extracted`
 * (each with its meta and its words as lib/catalog/trigram-tokens packs them), and the document's
 * progress after the batch's last line.
 */
export type LineBatch = { extracted: ExtractedLines; from: number; to: number; progress: DocProgress };

/** A line's stored tool calls (tools, files, call ids, each "\n"-joined), for a resumed document's results. */
export type CallRow = { tools: string | null; files: string | null; calls: string };

/** Sessions (with a file) whose every line up to their present size is indexed, of all such sessions. */
export type FullTextCoverage = { sessions_indexed: number; sessions_total: number };

/** A line of a document: its document id and 1-based line number. */
export type LineKey = { docId: number; line: number };

/**
 * The index words a candidate line must hold (lib/catalog/trigram-tokens' `termTokens`): every
 * clause (AND), one of its alternatives (OR), every word of that alternative (AND).
 */
export type CandidateWords = readonly (readonly (readonly string[])[])[];

/**
 * A search's candidate lines, described apart from any database: the index words (null: every
 * line the filters leave) and the line and session filters of the query language (issue 37).
 * Lists are ORs within and ANDs between; `roles` as stored (lib/catalog/extract-lines' ROLE_CODES);
 * `tools` a line calling or answering one (case-insensitive, whole name); `files` a line naming a
 * path containing one (case-insensitive); `errors`/`noErrors` the line's error flag; `after`/`before`
 * (ISO, inclusive/exclusive) the line's time, else its session's start; `since` (session active
 * at or after: its last record, else start) and `until` (session started at or before), ISO;
 * `transcript` ("main" or a subagent's agent id) with one project and its `sessions`: that file only.
 * `order` "newest": the newest documents first, lines descending; "line": documents and lines ascending.
 */
export type CandidateQuery = {
  words: CandidateWords | null;
  projects: readonly string[];
  sessions: readonly string[];
  agents: readonly string[];
  machines: readonly string[];
  roles: readonly number[];
  tools: readonly string[];
  files: readonly string[];
  errors: boolean;
  noErrors: boolean;
  after: string | null;
  before: string | null;
  since: string | null;
  until: string | null;
  transcript: string | null;
  order: "newest" | "line";
};

/** A candidate line: where it is (document, line, byte span), its role and time, its document's kind, name and path, its session's id, project, source and recency. */
export type CandidateLine = LineKey & {
  start: number;
  len: number;
  role: number;
  /** Record time, ms since the epoch; null when none. */
  time: number | null;
  kind: number;
  name: string;
  relPath: string;
  sessionId: number;
  projectKey: string;
  /** The session's last record, else its start (ISO), null when neither. */
  recency: string | null;
  source: string;
};

/** What a search hit shows of its session (machine null: not recorded). */
export type HitSession = { project_key: string; session_ref: string; source_session_id: string; first_user_message: string | null; machine: string | null };

/**
 * The catalog's rows, read and written through domain operations. Every call is atomic on its own
 * (inside {@link CatalogStore.write}'s transaction when one is open). A store is had from
 * `catalogStore(ctx)` (lib/catalog/catalog-store) for each use; the SQLite one runs inside
 * `withCatalog` (lib/catalog/catalog), which heals a broken file.
 */
export interface CatalogStore {
  // --- transactions -------------------------------------------------------------------------
  /**
   * Runs `fn` in a write transaction (a refresh's, a fill's: kept short by {@link commitIfDue}),
   * waiting for another writer's in short async polls (never blocking the event loop); `tx` is the
   * store whose calls belong to it. Inside an open one of this store, `fn` joins it. Committed when
   * `fn` resolves, rolled back when it throws.
   * @throws the engine's error when the catalog stays locked for 120 s; whatever `fn` throws.
   */
  write<T>(fn: (tx: CatalogStore) => Promise<T>): Promise<T>;
  /** Whether a write transaction of this store is open (a refresh between two of its awaits). */
  writing(): boolean;
  /**
   * Inside {@link write}: commits and begins again when the transaction has been open `maxMs` ms
   * (default 200), leaving other writers their turn in between. Outside one: nothing.
   */
  commitIfDue(maxMs?: number): Promise<void>;
  /**
   * Runs `fn` holding the catalog's cross-process index lock: one process at a time adds lines
   * to the full-text index. @throws AppError io_error when it cannot be taken within 30 s; whatever `fn` throws.
   */
  withIndexLock<T>(fn: () => Promise<T>): Promise<T>;

  // --- projects -----------------------------------------------------------------------------
  /** Every project row's stamps and order. */
  projectStamps(): Promise<ProjectStamps[]>;
  /** One project row's stamps and order; undefined when it has none. */
  projectStamp(projectKey: string): Promise<ProjectStamps | undefined>;
  /** Writes a project's row (made, or its fields replaced; coverage kept). */
  upsertProject(row: ProjectRowInput): Promise<void>;
  /** Sets a project row's order. */
  setProjectOrd(projectKey: string, ord: number): Promise<void>;
  /** Stores a project row's coverage. */
  setCoverage(projectKey: string, coverage: ProjectCoverage): Promise<void>;
  /** Deletes a project's row and everything of its sessions (rows, turns, documents, lines). */
  dropProject(projectKey: string): Promise<void>;
  /**
   * Every project row with its sessions' last activity (max of each session's last record, else
   * start) and tokens (sum of those known): most recently active first, those without any time
   * last, ties by order.
   */
  listProjects(): Promise<CatalogProjectRow[]>;

  // --- sessions -----------------------------------------------------------------------------
  /** Every session row's stamps, or one project's. */
  sessionStamps(projectKey?: string): Promise<SessionStamp[]>;
  /** A project's session rows as a refresh compares them. */
  storedSessions(projectKey: string): Promise<StoredSession[]>;
  /**
   * Makes a session row (empty facts, turns none); when another process made it meanwhile, its
   * row stays. Returns the row's id.
   */
  insertSession(identity: SessionIdentity): Promise<number>;
  /** Deletes a session's row and everything of it (turns, documents, lines). */
  dropSession(sessionId: number): Promise<void>;
  /** Replaces a session's turns. */
  replaceTurns(sessionId: number, turns: readonly TurnSpan[]): Promise<void>;
  /** Sets the machine a session came from (issue 39 provenance: its project's machines record retagged it). */
  setSessionMachine(sessionId: number, machine: string | null): Promise<void>;
  /** Sets a session row's order (when it differs). */
  setSessionOrd(sessionId: number, ord: number): Promise<void>;
  /** Sets a session's status and its `status_recent`; returns whether either changed. */
  setSessionStatus(sessionId: number, status: string | null, statusRecent: number): Promise<boolean>;
  /** Writes a session's facts read from its file (file stamp, list facts, usage, status), present again. */
  updateSessionFacts(sessionId: number, facts: SessionFacts): Promise<void>;
  /**
   * Marks a session whose file is gone or cannot be read: no stamp (the next refresh looks
   * again), facts, usage and risk cleared, what the index holds of it forgotten.
   */
  markSessionMissing(sessionId: number, ord: number, turnCount: number): Promise<void>;
  /** One page of a project's sessions and how many match in all. */
  listSessions(query: SessionPageQuery): Promise<{ total: number; rows: CatalogSessionRow[] }>;
  /** Present sessions of at least `minBytes` of `sources`, keys only, in project then session order. */
  bigSessions(minBytes: number, sources: readonly string[]): Promise<{ project_key: string; session_ref: string }[]>;

  // --- risk ---------------------------------------------------------------------------------
  /** A project's present sessions whose risk is older than their file, by session_ref. */
  staleRisks(projectKey: string): Promise<StaleRisk[]>;
  /** Stores risks (waiting its turn for the write lock in short polls; joins an open write). */
  storeRisks(updates: readonly RiskUpdate[]): Promise<void>;

  // --- usage --------------------------------------------------------------------------------
  /** The sessions' stored usage get_usage reads. */
  usageRows(query: UsageQuery): Promise<UsageRow[]>;
  /** Stores a session's usage recomputed (another price override). */
  setUsage(sessionId: number, usage: SessionUsageFacts): Promise<void>;

  // --- full-text index ----------------------------------------------------------------------
  /** A project's present sessions whose lines are behind their file, in session order. */
  staleFullText(projectKey: string): Promise<StaleFullText[]>;
  /** Records the file stamp a session's lines were indexed at. */
  setFtsStamp(sessionId: number, stamp: string): Promise<void>;
  /** A session's search documents. */
  searchDocs(sessionId: number): Promise<SearchDoc[]>;
  /** Makes a search document of a session (nothing indexed yet); returns its id (ids only grow). */
  addSearchDoc(sessionId: number, kind: number, name: string, relPath: string): Promise<number>;
  /** Deletes a search document and its lines. */
  dropSearchDoc(docId: number): Promise<void>;
  /** Records the file stamp a document was indexed at. */
  setDocStamp(docId: number, stamp: string): Promise<void>;
  /** How far a document is indexed; undefined when its row is gone. */
  docProgress(docId: number): Promise<DocProgress | undefined>;
  /** Forgets a document's lines and progress: it is indexed again from the start. */
  resetDoc(docId: number): Promise<void>;
  /**
   * Indexes a batch of a document's lines (their words, byte spans, role, error, time, tools,
   * files, calls) with the document's progress, atomically; false (nothing written) when the
   * document's row is gone (its session dropped meanwhile).
   */
  addLines(docId: number, batch: LineBatch): Promise<boolean>;
  /** The tool calls of a document's last `limit` lines with calls, in line order. */
  lastCalls(docId: number, limit: number): Promise<CallRow[]>;
  /** How much of the workspace the index covers; `project_key`, `source`, `machine` narrow both counts. */
  fullTextCoverage(filter: { project_key?: string; source?: string; machine?: string }): Promise<FullTextCoverage>;
  /** What the index holds now, as a stamp that moves whenever lines or documents are added or removed. */
  indexStamp(): Promise<string>;

  // --- search -------------------------------------------------------------------------------
  /**
   * Visits a search's candidate lines in the query's order, a superset of the lines holding its
   * words narrowed by its filters, until `visit` returns false. `visit` is synchronous.
   */
  scanCandidates(query: CandidateQuery, visit: (line: CandidateLine) => boolean): Promise<void>;
  /**
   * How many candidate lines come after `last` in the query's order: exact when the query has no
   * words, else the lines holding its words within its session and transcript scope (an upper
   * bound when other filters narrow).
   */
  countCandidatesAfter(query: CandidateQuery, last: LineKey): Promise<number>;
  /** A hit's session keys and title; undefined when its row is gone. */
  hitSession(sessionId: number): Promise<HitSession | undefined>;
  /** The turn of a session holding a line of its transcript (the latest starting at or before it), null when none. */
  turnAt(sessionId: number, line: number): Promise<string | null>;
  /** The line of a session's transcript calling the tool whose call id is `callId`, null when none is indexed. */
  callLine(sessionId: number, callId: string): Promise<number | null>;
}
