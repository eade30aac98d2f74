/**
 * Builds an `opencode.db` for tests from opencode-db.json, with OpenCode's tables (session.sql.ts:
 * `session` one column per field, `message` and `part` with `data` JSON) in WAL mode, and returns
 * the writer connection still open, as OpenCode keeps it while it runs.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** OpenCode's schema for the three tables read (column names and types as OpenCode's migrations create them). */
export const OPENCODE_SCHEMA = `
CREATE TABLE session (
  id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL,
  directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text,
  summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text,
  cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL,
  tokens_reasoning integer DEFAULT 0 NOT NULL, tokens_cache_read integer DEFAULT 0 NOT NULL,
  tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text, agent text, model text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer
);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
`;

type Row = Record<string, unknown>;
/** The fixture: session rows by column; message and part rows whose `data` is an object (stored as JSON) or a raw string. */
export type FixtureRows = { sessions: Row[]; messages: Row[]; parts: Row[] };

/** The rows of opencode-db.json. */
export function fixtureRows(): FixtureRows {
  return JSON.parse(readFileSync(path.join(__dirname, "opencode-db.json"), "utf8")) as FixtureRows;
}

/** `data` as stored: an object as its JSON text, a string as it is (a malformed row). */
function storedData(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Inserts a message or part row (`data` as {@link storedData}). */
export function insertRow(db: Database.Database, table: "message" | "part", row: Row): void {
  const columns = Object.keys(row);
  const values = columns.map((c) => (c === "data" ? storedData(row[c]) : row[c]));
  db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...values);
}

/**
 * Writes `opencode.db` in `dir` (WAL, automatic checkpoints off, so the rows stay in the `-wal`
 * file as in a running OpenCode) and returns it with its writer connection open; close it after.
 */
export function buildFixtureDatabase(dir: string, rows: FixtureRows = fixtureRows()): { file: string; writer: Database.Database } {
  const file = path.join(dir, "opencode.db");
  const writer = new Database(file);
  writer.pragma("journal_mode = WAL");
  writer.pragma("wal_autocheckpoint = 0");
  writer.exec(OPENCODE_SCHEMA);
  writer.transaction(() => {
    for (const session of rows.sessions) {
      const columns = Object.keys(session);
      writer.prepare(`INSERT INTO session (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(...columns.map((c) => session[c]));
    }
    for (const message of rows.messages) insertRow(writer, "message", message);
    for (const part of rows.parts) insertRow(writer, "part", part);
  })();
  return { file, writer };
}
