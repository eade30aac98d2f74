// The catalog's SQL schema: its tables, version and full-text tuning, and how a line's full-text rowid is made.

import type Database from "better-sqlite3";

/**
 * Bumped whenever the schema or what a row holds changes (lib/catalog/extract too): an older file
 * is deleted and rebuilt. 10: a row's times are the session's clock (min and max record time) and
 * its first user message the first real prompt (issue 36 items 5, 6). 11: every word of every line,
 * subagent transcript and persisted tool result indexed whole, per document, with each line's role,
 * time, tools, files and error (issue 37). 12 (13: merged 16 at a time): the index holds each line's distinct trigrams as hashed
 * words (lib/catalog/trigram-tokens), not FTS5's own trigram tokens. 14: an agent session's lines
 * (issue 38) indexed with the facts of its agent's reader, not read as Claude Code records. 15: a
 * session's `machine` (issue 39 provenance, lib/workspace/machines). 16: an agent line's
 * reasoning after its words (issue 38: `AgentRecord.reasoning`, which the compact view leaves out).
 */
export const SCHEMA_VERSION = 16;

const SCHEMA = `
CREATE TABLE projects (
  project_key TEXT PRIMARY KEY, ord INTEGER NOT NULL, project_label TEXT NOT NULL, index_stamp TEXT NOT NULL,
  session_count INTEGER NOT NULL, turn_count INTEGER NOT NULL, cwd TEXT, git_branch TEXT, broken_rows TEXT NOT NULL,
  coverage_stamp TEXT, turns_with_chain INTEGER NOT NULL DEFAULT 0, covered_turns INTEGER NOT NULL DEFAULT 0,
  indexed_turns INTEGER NOT NULL DEFAULT 0, synthesis_complete INTEGER NOT NULL DEFAULT 0, has_envelope INTEGER NOT NULL DEFAULT 0,
  problem TEXT
);
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY, project_key TEXT NOT NULL, session_ref TEXT NOT NULL, ord INTEGER NOT NULL,
  source TEXT NOT NULL, source_session_id TEXT NOT NULL, session_path TEXT NOT NULL,
  file_stamp TEXT, fts_stamp TEXT,
  started_at TEXT, ended_at TEXT, duration_seconds REAL, turn_count INTEGER NOT NULL, first_user_message TEXT,
  subagent_count INTEGER NOT NULL DEFAULT 0, size_bytes INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER, total_tokens INTEGER, cost_usd REAL,
  usage_buckets TEXT, usage_last_ms REAL, usage_stamp TEXT,
  status TEXT, status_recent INTEGER NOT NULL DEFAULT 0, last_response_preview TEXT,
  risk_stamp TEXT, risk_level TEXT, reset_count INTEGER, missing INTEGER NOT NULL DEFAULT 0, machine TEXT,
  UNIQUE (project_key, session_ref)
);
CREATE INDEX sessions_by_time ON sessions (started_at);
CREATE TABLE turns (session_id INTEGER NOT NULL, turn_ref TEXT NOT NULL, turn_start_line INTEGER NOT NULL, turn_end_line INTEGER NOT NULL, PRIMARY KEY (session_id, turn_ref)) WITHOUT ROWID;
CREATE INDEX turns_by_line ON turns (session_id, turn_start_line);
CREATE TABLE search_docs (
  id INTEGER PRIMARY KEY, session_id INTEGER NOT NULL, kind INTEGER NOT NULL, name TEXT NOT NULL, rel_path TEXT NOT NULL,
  stamp TEXT, head_sha TEXT, indexed_bytes INTEGER NOT NULL DEFAULT 0, indexed_lines INTEGER NOT NULL DEFAULT 0,
  UNIQUE (session_id, kind, name)
);
CREATE TABLE line_meta (
  rowid INTEGER PRIMARY KEY, start INTEGER NOT NULL, len INTEGER NOT NULL, role INTEGER NOT NULL, error INTEGER NOT NULL,
  time INTEGER, tools TEXT, files TEXT, calls TEXT
);
CREATE VIRTUAL TABLE lines_fts USING fts5 (body, tokenize = 'ascii', content = '', contentless_delete = 1, detail = none);
`;

/**
 * A line's rowid in `lines_fts` and `line_meta`: its document's id (`search_docs`: a session's
 * transcript, subagent transcript or persisted tool result) in the high 32 bits, the line number in
 * the low ones, so a document's rows are one rowid range (FTS5 deletes a range through its b-tree).
 */
export function lineRowid(docId: number, line: number): bigint {
  return (BigInt(docId) << 32n) | BigInt(line);
}

/** The document id and line number of a {@link lineRowid}. */
export function rowidLine(rowid: bigint): { docId: number; line: number } {
  return { docId: Number(rowid >> 32n), line: Number(rowid & 0xffffffffn) };
}

/**
 * What a `search_docs` row is, by its `kind`: the session's own transcript, a subagent's
 * transcript (`name` its agent id) or a persisted tool result (`name` its tool-use id).
 */
export const DOC_KINDS = ["main", "subagent", "tool_result"] as const;
export type DocKind = (typeof DOC_KINDS)[number];

export function schemaVersion(db: Database.Database): number {
  return db.pragma("user_version", { simple: true }) as number;
}

/**
 * Makes an empty catalog of this schema in place of a new or older one, in one exclusive
 * transaction: a CLI prepare and the dashboard may open a new catalog at the same moment, and the
 * second must find the first's tables, not make them again (nor delete a file the first has open).
 */
export function createSchema(db: Database.Database): void {
  db.exec("BEGIN EXCLUSIVE");
  try {
    if (schemaVersion(db) !== SCHEMA_VERSION) {
      const tables = () => db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
      // Virtual tables first: dropping one drops its shadow tables.
      for (const t of tables().filter((t) => t.sql.startsWith("CREATE VIRTUAL"))) db.exec(`DROP TABLE "${t.name}"`);
      for (const t of tables()) db.exec(`DROP TABLE "${t.name}"`);
      db.exec(SCHEMA);
      db.exec(FTS_CONFIG);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

/**
 * The full-text index's write tuning: 16 MiB of pending terms before a segment is written and
 * segments merged 16 at a time (FTS5's defaults: 1 MiB, 4). A bulk index of many sessions then
 * costs less CPU (issue 25: ~30% at 8; 16 writes 15% faster again than 8 on 400 sessions of
 * hashed trigram words, bench/search.bench.ts) for the same query times.
 */
const FTS_CONFIG = `INSERT INTO lines_fts (lines_fts, rank) VALUES ('hashsize', ${16 << 20}); INSERT INTO lines_fts (lines_fts, rank) VALUES ('automerge', 16);`;
