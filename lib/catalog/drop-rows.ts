// Deleting a project's or a session's rows, and forgetting what the full-text index holds of a session or document.

import type Database from "better-sqlite3";

import { lineRowid } from "@/lib/catalog/db-schema";
import { atomically, stmt } from "@/lib/catalog/transactions";

/** Deletes every indexed line of a document (its rowid range, in the full-text index and `line_meta`). */
export function deleteDocLines(db: Database.Database, docId: number): void {
  const range = [lineRowid(docId, 0), lineRowid(docId, 0xffffffff)];
  stmt(db, "DELETE FROM lines_fts WHERE rowid BETWEEN ? AND ?").run(...range);
  stmt(db, "DELETE FROM line_meta WHERE rowid BETWEEN ? AND ?").run(...range);
}

/** Deletes what the full-text index holds of a session: its documents and their lines. */
function deleteSessionDocs(db: Database.Database, sessionId: number): void {
  for (const { id } of stmt(db, "SELECT id FROM search_docs WHERE session_id = ?").all(sessionId) as { id: number }[]) deleteDocLines(db, id);
  stmt(db, "DELETE FROM search_docs WHERE session_id = ?").run(sessionId);
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
  deleteSessionDocs(db, id);
  stmt(db, "DELETE FROM turns WHERE session_id = ?").run(id);
}

/** Forgets what the full-text index holds of a session (its documents' lines and progress): it is indexed again from the start. */
export function clearIndexed(db: Database.Database, id: number): void {
  deleteSessionDocs(db, id);
  stmt(db, "UPDATE sessions SET fts_stamp = NULL WHERE id = ?").run(id);
}
