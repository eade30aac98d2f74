/**
 * OpenCode's SQLite database (`opencode.db`, agent-formats.md §3): tables `session` (one column per
 * field), `message` and `part` (`id`, `session_id`, [`message_id`,] `time_created`, `time_updated`,
 * `data` = the JSON object without its ids). OpenCode may have it open and be writing (WAL), so it is
 * opened read-only with a busy timeout, and a session is read inside one read transaction.
 */
import { statSync } from "node:fs";

import Database from "better-sqlite3";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { type JsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { num, str } from "@/lib/sources/opencode/values";

/** How long a read waits for a lock OpenCode holds before it gives up with SQLITE_BUSY (ms). */
export const BUSY_TIMEOUT_MS = 2_000;

/** A session found in a database, with its newest `time_updated` (ms) for picking among copies. */
export type DatabaseSession = { found: FoundSession; updated: number };

/** Opens `file` read-only (never created, never written); throws what better-sqlite3 throws. */
function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
}

/** Column names of `table` (empty when there is no such table). */
function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** A workspace file name from a session id: `<id>.jsonl`, any character unsafe in a file name replaced. */
export function sessionFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`;
}

/** A warning for a database that could not be read (locked, busy, not a database, unreadable). */
export function databaseReadFailure(file: string, error: unknown): SourceWarning {
  const message = error instanceof Error ? error.message : String(error);
  return { file, where: "database", problem: `cannot read the OpenCode database: ${message}` };
}

/** The value of a JSON text column, or the text itself when it is not JSON. */
function jsonColumn(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * The session object OpenCode builds from a `session` row (its `Session.fromRow`): `{id, slug,
 * projectID, workspaceID?, directory, path?, parentID?, title, version, agent?, model?, summary?,
 * share?, revert?, permission?, time{created, updated, compacting?, archived?}}`. Columns a schema
 * version lacks are left out, as are the row's usage totals (not part of the object).
 */
export function sessionFromRow(row: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  const put = (key: string, value: unknown) => {
    if (value !== null && value !== undefined) out[key] = value;
  };
  put("id", row.id);
  put("slug", row.slug);
  put("projectID", row.project_id);
  put("workspaceID", row.workspace_id);
  put("directory", row.directory);
  put("path", row.path);
  put("parentID", row.parent_id);
  put("title", row.title);
  put("version", row.version);
  put("agent", row.agent);
  put("model", jsonColumn(row.model));
  if (row.summary_additions != null || row.summary_deletions != null || row.summary_files != null) {
    const summary: JsonObject = { additions: row.summary_additions ?? 0, deletions: row.summary_deletions ?? 0, files: row.summary_files ?? 0 };
    if (row.summary_diffs != null) summary.diffs = jsonColumn(row.summary_diffs);
    out.summary = summary;
  }
  if (typeof row.share_url === "string" && row.share_url !== "") out.share = { url: row.share_url };
  put("revert", jsonColumn(row.revert));
  put("permission", jsonColumn(row.permission));
  const time: JsonObject = {};
  for (const [key, column] of [["created", "time_created"], ["updated", "time_updated"], ["compacting", "time_compacting"], ["archived", "time_archived"]] as const) {
    if (row[column] != null) time[key] = row[column];
  }
  out.time = time;
  return out;
}

/**
 * Every session in the database at `file`. `stamp` is the session's newest `time_updated` over its
 * own row and its messages' and parts' rows, with their counts (a deleted row changes it too);
 * `projectRoot` is the session's `directory`. A database that cannot be read is a warning.
 */
export function listDatabaseSessions(file: string): { sessions: DatabaseSession[]; warnings: SourceWarning[] } {
  let db: Database.Database | null = null;
  try {
    db = openReadOnly(file);
    const sessionColumns = columnsOf(db, "session");
    if (!sessionColumns.has("id")) return { sessions: [], warnings: [{ file, where: "database", problem: "no session table: not an OpenCode database" }] };
    const wanted = ["id", "directory", "time_updated"].filter((c) => sessionColumns.has(c));
    const conn = db;
    const read = conn.transaction(() => ({
      rows: conn.prepare(`SELECT ${wanted.join(", ")} FROM session`).all() as Record<string, unknown>[],
      messages: newestRows(conn, "message"),
      parts: newestRows(conn, "part"),
    }));
    const { rows, messages, parts } = read();
    const sessions: DatabaseSession[] = [];
    for (const row of rows) {
      const id = str(row.id);
      if (id === null || id === "") continue;
      const m = messages.get(id);
      const p = parts.get(id);
      const updated = Math.max(num(row.time_updated) ?? 0, m?.updated ?? 0, p?.updated ?? 0);
      sessions.push({
        found: {
          source: "opencode",
          sourceSessionId: id,
          sourcePath: file,
          part: id,
          fileName: sessionFileName(id),
          projectRoot: str(row.directory) || null,
          stamp: `db:${updated}:${m?.count ?? 0}:${p?.count ?? 0}`,
        },
        updated,
      });
    }
    return { sessions, warnings: [] };
  } catch (error) {
    return { sessions: [], warnings: [databaseReadFailure(file, error)] };
  } finally {
    db?.close();
  }
}

/** Per session: the newest `time_updated` (or `time_created` in a schema without it) and the row count of `table`. */
function newestRows(db: Database.Database, table: "message" | "part"): Map<string, { updated: number; count: number }> {
  const columns = columnsOf(db, table);
  const out = new Map<string, { updated: number; count: number }>();
  if (!columns.has("session_id")) return out;
  const time = columns.has("time_updated") ? "time_updated" : columns.has("time_created") ? "time_created" : "0";
  const rows = db.prepare(`SELECT session_id AS sid, MAX(${time}) AS updated, COUNT(*) AS count FROM ${table} GROUP BY session_id`).all() as {
    sid: unknown;
    updated: unknown;
    count: number;
  }[];
  for (const row of rows) if (typeof row.sid === "string") out.set(row.sid, { updated: num(row.updated) ?? 0, count: row.count });
  return out;
}

/** A message or part row with its `data` parsed (null when `data` is not a JSON object). */
type DataRow = { id: string; messageId: string | null; data: JsonObject | null };

/** One session's rows, as stored. */
export type DatabaseSessionRows = { session: JsonObject; messages: DataRow[]; parts: DataRow[] };

/**
 * A database's read-only connection with its statements, kept between the reads of one pass over
 * its sessions (a prepare exports them one after another: a connection and three statements per
 * session cost more than the session's rows). `identity` is the file's inode and birth time when
 * opened (a file made again may get the inode just freed).
 */
type SessionReader = {
  db: Database.Database;
  identity: string;
  /** One session's rows, read in one read transaction (made once per connection: better-sqlite3 builds each transaction function's statements). */
  read: (sessionId: string) => DatabaseSessionRows | null;
  idle: NodeJS.Timeout | null;
};

/** A kept connection is closed once no read came for this long (ms). */
const READER_IDLE_MS = 1_000;
const readers = new Map<string, SessionReader>();

function closeReader(file: string): void {
  const reader = readers.get(file);
  if (reader === undefined) return;
  readers.delete(file);
  if (reader.idle !== null) clearTimeout(reader.idle);
  reader.db.close();
}

/** The kept reader of `file`, opened anew when there is none or the file was replaced; its idle timer restarted. Throws what better-sqlite3 throws. */
function readerOf(file: string): SessionReader {
  const st = statSync(file);
  const identity = `${st.ino}:${st.birthtimeMs}`;
  let reader = readers.get(file);
  if (reader !== undefined && reader.identity !== identity) {
    closeReader(file);
    reader = undefined;
  }
  if (reader === undefined) {
    const db = openReadOnly(file);
    try {
      const messageTime = columnsOf(db, "message").has("time_created") ? "time_created, " : "";
      const session = db.prepare("SELECT * FROM session WHERE id = ?");
      const messages = db.prepare(`SELECT id, data FROM message WHERE session_id = ? ORDER BY ${messageTime}id`);
      const parts = db.prepare("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id");
      const read = db.transaction((sessionId: string): DatabaseSessionRows | null => {
        const row = session.get(sessionId) as Record<string, unknown> | undefined;
        if (row === undefined) return null;
        const messageRows = messages.all(sessionId) as { id: string; data: unknown }[];
        const partRows = parts.all(sessionId) as { id: string; message_id: string; data: unknown }[];
        return {
          session: sessionFromRow(row),
          messages: messageRows.map((m) => ({ id: m.id, messageId: null, data: dataOf(m.data) })),
          parts: partRows.map((p) => ({ id: p.id, messageId: p.message_id, data: dataOf(p.data) })),
        };
      });
      reader = { db, identity, read, idle: null };
    } catch (error) {
      db.close();
      throw error;
    }
    readers.set(file, reader);
  }
  if (reader.idle !== null) clearTimeout(reader.idle);
  reader.idle = setTimeout(() => closeReader(file), READER_IDLE_MS);
  // Never keeps the process alive.
  reader.idle.unref();
  return reader;
}

/**
 * Reads one session's rows in one read transaction: the session object ({@link sessionFromRow}), its
 * messages by `time_created` then id, its parts by message then id. Null rows when the session is
 * gone. The connection is kept for the next session's read a moment (see {@link SessionReader}),
 * and closed after an error. Throws what better-sqlite3 throws (busy, locked, not a database).
 */
export function readDatabaseSession(file: string, sessionId: string): DatabaseSessionRows | null {
  try {
    return readerOf(file).read(sessionId);
  } catch (error) {
    closeReader(file);
    throw error;
  }
}

function dataOf(value: unknown): JsonObject | null {
  return typeof value === "string" ? parseJsonObject(value) : null;
}
