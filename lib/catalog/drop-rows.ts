// Deleting a project's or a session's rows, and forgetting what the full-text index holds of a session.

import type Database from "better-sqlite3";

import { lineRowid } from "@/lib/catalog/db-schema";
import { atomically, stmt } from "@/lib/catalog/transactions";

/** Deletes every full-text row of a session (its rowid range). */
function deleteSessionLines(db: Database.Database, sessionId: number): void {
  stmt(db, "DELETE FROM lines_fts WHERE rowid BETWEEN ? AND ?").run(lineRowid(sessionId, 0), lineRowid(sessionId, 0xffffffff));
}

export function dropProject(db: Database.Database, projectKey: string): void {
  const ids = (stmt(db, "SELECT id FROM sessions WHERE project_key = ?").all(projectKey) as { id: number }[]).map((r) => r.id);
  atomically(db, () => {
    for (const id of ids) dropSessionRows(db, id);
    stmt(db, "DELETE FROM sessions WHERE project_key = ?").run(projectKey);
    stmt(db, "DELETE FROM projects WHERE project_key = ?").run(projectKey);
  });
}

export function dropSessionRows(db: Database.Database, id: number): void {
  deleteSessionLines(db, id);
  stmt(db, "DELETE FROM turns WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_tools WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_files WHERE session_id = ?").run(id);
}

/** Forgets what the full-text index holds of a session (lines, tools, files, errors, progress): it is indexed again from the start. */
export function clearIndexed(db: Database.Database, id: number): void {
  deleteSessionLines(db, id);
  stmt(db, "DELETE FROM session_tools WHERE session_id = ?").run(id);
  stmt(db, "DELETE FROM session_files WHERE session_id = ?").run(id);
  stmt(db, "UPDATE sessions SET error_count = 0, indexed_bytes = 0, indexed_lines = 0, head_sha = NULL, fts_stamp = NULL WHERE id = ?").run(id);
}
