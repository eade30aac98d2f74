/**
 * One OpenCode session as the lines of its workspace file (agent-formats.md §3): line 1 the session
 * object, then each message in time order followed by its parts in order, one JSON object a line.
 * Every line is the agent's own object; ids the database keeps in columns are put back under
 * OpenCode's names (`id`, `sessionID`, `messageID`).
 */
import { type FoundSession, jsonLine, type SourceWarning } from "@/lib/sources/common/agent-source";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { databaseReadFailure, readDatabaseSession } from "@/lib/sources/opencode/database";
import { readStorageSession } from "@/lib/sources/opencode/storage";

/** `data` with the ids in front (key order) and authoritative (values). */
function withIds(ids: JsonObject, data: JsonObject): JsonObject {
  return Object.assign({}, ids, data, ids);
}

/**
 * The workspace lines of `session`: from its database (`sourcePath` a database, `part` the session
 * id) or its storage files (`sourcePath` the session's `.json`). A row or file whose object cannot
 * be read is left out with a warning naming it; a database that cannot be read (locked, busy) gives
 * no lines and a warning. Never throws.
 */
export async function exportLines(session: FoundSession): Promise<{ lines: string[]; warnings: SourceWarning[] }> {
  const sessionId = session.part ?? session.sourceSessionId;
  return session.sourcePath.endsWith(".json") ? exportStorage(session.sourcePath, sessionId) : exportDatabase(session.sourcePath, sessionId);
}

function exportDatabase(file: string, sessionId: string): { lines: string[]; warnings: SourceWarning[] } {
  const warnings: SourceWarning[] = [];
  let rows;
  try {
    rows = readDatabaseSession(file, sessionId);
  } catch (error) {
    return { lines: [], warnings: [databaseReadFailure(file, error)] };
  }
  if (rows === null) return { lines: [], warnings: [{ file, where: `key session/${sessionId}`, problem: "session not found in the database" }] };

  const partsOf = new Map<string, typeof rows.parts>();
  for (const part of rows.parts) {
    const key = part.messageId ?? "";
    const list = partsOf.get(key);
    if (list === undefined) partsOf.set(key, [part]);
    else list.push(part);
  }
  const lines = [jsonLine(rows.session)];
  const emitParts = (messageId: string) => {
    for (const part of partsOf.get(messageId) ?? []) {
      if (part.data === null) warnings.push({ file, where: `key part/${part.id}`, problem: "data is not a JSON object; part left out" });
      else lines.push(jsonLine(withIds({ id: part.id, sessionID: sessionId, messageID: messageId }, part.data)));
    }
    partsOf.delete(messageId);
  };
  for (const message of rows.messages) {
    if (message.data === null) warnings.push({ file, where: `key message/${message.id}`, problem: "data is not a JSON object; message left out, its parts kept" });
    else lines.push(jsonLine(withIds({ id: message.id, sessionID: sessionId }, message.data)));
    emitParts(message.id);
  }
  for (const messageId of [...partsOf.keys()]) {
    warnings.push({ file, where: `key message/${messageId}`, problem: "parts of a message the session does not have; kept at the end" });
    emitParts(messageId);
  }
  return { lines, warnings };
}

function exportStorage(sessionFile: string, sessionId: string): { lines: string[]; warnings: SourceWarning[] } {
  const warnings: SourceWarning[] = [];
  const stored = readStorageSession(sessionFile, sessionId, warnings);
  const lines: string[] = [];
  if (stored.session !== null) lines.push(jsonLine(stored.session));
  for (const message of stored.messages) {
    if (message.data !== null) lines.push(jsonLine(message.data));
    for (const part of stored.parts.get(message.id) ?? []) if (part.data !== null) lines.push(jsonLine(part.data));
  }
  return { lines, warnings };
}
