/**
 * One OpenCode session as the lines of its workspace file (agent-formats.md §3): line 1 the session
 * object, then each message in time order followed by its parts in order, one JSON object a line.
 * Every line is the agent's own object; ids the database keeps in columns are put back under
 * OpenCode's names (`id`, `sessionID`, `messageID`).
 */
import { type ExportedLines, type FoundSession, jsonLine, type SourceWarning } from "@/lib/sources/common/agent-source";
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
export async function exportLines(session: FoundSession): Promise<ExportedLines> {
  const sessionId = session.part ?? session.sourceSessionId;
  return session.sourcePath.endsWith(".json") ? exportStorage(session.sourcePath, sessionId) : exportDatabase(session.sourcePath, sessionId);
}

function exportDatabase(file: string, sessionId: string): ExportedLines {
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
  const out = new LinesOut();
  out.push(rows.session);
  const emitParts = (messageId: string) => {
    for (const part of partsOf.get(messageId) ?? []) {
      if (part.data === null) warnings.push({ file, where: `key part/${part.id}`, problem: "data is not a JSON object; part left out" });
      else out.push(withIds({ id: part.id, sessionID: sessionId, messageID: messageId }, part.data));
    }
    partsOf.delete(messageId);
  };
  for (const message of rows.messages) {
    if (message.data === null) warnings.push({ file, where: `key message/${message.id}`, problem: "data is not a JSON object; message left out, its parts kept" });
    else out.push(withIds({ id: message.id, sessionID: sessionId }, message.data));
    emitParts(message.id);
  }
  for (const messageId of [...partsOf.keys()]) {
    warnings.push({ file, where: `key message/${messageId}`, problem: "parts of a message the session does not have; kept at the end" });
    emitParts(messageId);
  }
  return { lines: out.lines, objects: out.objects(), warnings };
}

function exportStorage(sessionFile: string, sessionId: string): ExportedLines {
  const warnings: SourceWarning[] = [];
  const stored = readStorageSession(sessionFile, sessionId, warnings);
  const out = new LinesOut();
  if (stored.session !== null) out.push(stored.session);
  for (const message of stored.messages) {
    if (message.data !== null) out.push(message.data);
    for (const part of stored.parts.get(message.id) ?? []) if (part.data !== null) out.push(part.data);
  }
  return { lines: out.lines, objects: out.objects(), warnings };
}

/**
 * Workspace lines with the objects they were written from (`objects()[i]` for `lines[i]`, a JSON
 * round trip of it): the reader takes the objects instead of parsing the lines again (issue 38 speed).
 */
class LinesOut {
  readonly lines: string[] = [];
  private readonly made: JsonObject[] = [];
  /** False once an object is not a plain one (a `__proto__` key in the data set its prototype): its line is then the truth. */
  private plain = true;

  push(object: JsonObject): void {
    this.lines.push(jsonLine(object));
    this.made.push(object);
    if (Object.getPrototypeOf(object) !== Object.prototype) this.plain = false;
  }

  /** The objects, or undefined when one is not what its line parses to. */
  objects(): JsonObject[] | undefined {
    return this.plain ? this.made : undefined;
  }
}
