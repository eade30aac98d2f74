/**
 * OpenCode's older JSON-file layout (agent-formats.md §3): `storage/session/<projectID>/<ses_…>.json`,
 * `storage/message/<ses_…>/<msg_…>.json`, `storage/part/<msg_…>/<prt_…>.json`, each file one complete
 * object (ids included). Ids ascend with time, so file-name order is OpenCode's own order.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { sessionFileName } from "@/lib/sources/opencode/database";
import { num, str } from "@/lib/sources/opencode/values";

/** A session found in a storage folder, with its `time.updated` (ms) for picking among copies. */
export type StorageSession = { found: FoundSession; updated: number };

/** One stored object file: its id (the file name) and its object (null when malformed). */
export type StoredObject = { id: string; file: string; data: JsonObject | null };

// The storage tree is thousands of small files (a file per message and per part): they are listed,
// stated and read on this thread, as a thread-pool round trip for each cost several times the
// read itself (issue 38: 2,000 sessions' 30,000 files read in 5.6 s, 0.7 s so).

/** The `.json` files of `dir` by name (empty when it does not exist); a folder that cannot be read is a warning. */
function jsonFiles(dir: string, warnings: SourceWarning[]): string[] {
  try {
    const names = readdirSync(dir);
    return names.filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ file: dir, where: "folder", problem: `cannot list: ${(error as Error).message}` });
    return [];
  }
}

/** The object in a JSON file, or null with a warning when it cannot be read or is not a JSON object. */
function readObject(file: string, warnings: SourceWarning[]): JsonObject | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    warnings.push({ file, where: "whole file", problem: `cannot read: ${(error as Error).message}` });
    return null;
  }
  const data = parseJsonObject(text);
  if (data === null) warnings.push({ file, where: "whole file", problem: "not a JSON object (malformed or half-written)" });
  return data;
}

/** The `storage` folder a session file `storage/session/<projectID>/<ses>.json` belongs to. */
export function storageDirOf(sessionFile: string): string {
  return path.dirname(path.dirname(path.dirname(sessionFile)));
}

/**
 * The stamp of a session's files (the session file, its message files and their part files):
 * count, total size and newest mtime, so an added, grown or rewritten file changes it.
 */
function filesStamp(sessionFile: string, sessionId: string, warnings: SourceWarning[]): string {
  const storage = storageDirOf(sessionFile);
  const files = [sessionFile];
  const messageDir = path.join(storage, "message", sessionId);
  for (const name of jsonFiles(messageDir, warnings)) {
    files.push(path.join(messageDir, name));
    const partDir = path.join(storage, "part", name.slice(0, -".json".length));
    for (const part of jsonFiles(partDir, warnings)) files.push(path.join(partDir, part));
  }
  let size = 0;
  let mtime = 0;
  for (const file of files) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (st === undefined) continue;
    size += st.size;
    mtime = Math.max(mtime, st.mtimeMs);
  }
  return `files:${files.length}:${size}:${mtime}`;
}

/**
 * The session of one session file (`storage/session/<projectID>/<ses>.json`); null with a warning
 * when the file is not a session object. `projectRoot` is its `directory`.
 */
export function storageSessionOf(sessionFile: string, warnings: SourceWarning[]): StorageSession | null {
  const data = readObject(sessionFile, warnings);
  if (data === null) return null;
  const id = str(data.id) ?? path.basename(sessionFile, ".json");
  return {
    found: {
      source: "opencode",
      sourceSessionId: id,
      sourcePath: sessionFile,
      part: id,
      fileName: sessionFileName(id),
      projectRoot: str(data.directory) || null,
      stamp: filesStamp(sessionFile, id, warnings),
    },
    updated: num(asObject(data.time)?.updated) ?? 0,
  };
}

/** Every session under a `storage` folder (`session/<projectID>/*.json`); malformed files are warnings. */
export function listStorageSessions(storageDir: string): { sessions: StorageSession[]; warnings: SourceWarning[] } {
  const warnings: SourceWarning[] = [];
  const sessions: StorageSession[] = [];
  const sessionRoot = path.join(storageDir, "session");
  let projects: string[];
  try {
    projects = readdirSync(sessionRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ file: sessionRoot, where: "folder", problem: `cannot list: ${(error as Error).message}` });
    return { sessions, warnings };
  }
  for (const project of projects) {
    const dir = path.join(sessionRoot, project);
    for (const name of jsonFiles(dir, warnings)) {
      const session = storageSessionOf(path.join(dir, name), warnings);
      if (session !== null) sessions.push(session);
    }
  }
  return { sessions, warnings };
}

/** One session's stored objects: the session, its messages by id, and each message's parts by id. */
export type StorageSessionObjects = { session: JsonObject | null; messages: StoredObject[]; parts: Map<string, StoredObject[]> };

/** Reads a session's files; each unreadable or malformed file becomes a warning and a null object. */
export function readStorageSession(sessionFile: string, sessionId: string, warnings: SourceWarning[]): StorageSessionObjects {
  const storage = storageDirOf(sessionFile);
  const session = readObject(sessionFile, warnings);
  const messageDir = path.join(storage, "message", sessionId);
  const messages: StoredObject[] = [];
  const parts = new Map<string, StoredObject[]>();
  for (const name of jsonFiles(messageDir, warnings)) {
    const id = name.slice(0, -".json".length);
    const file = path.join(messageDir, name);
    messages.push({ id, file, data: readObject(file, warnings) });
    const partDir = path.join(storage, "part", id);
    const list: StoredObject[] = [];
    for (const partName of jsonFiles(partDir, warnings)) {
      const partFile = path.join(partDir, partName);
      list.push({ id: partName.slice(0, -".json".length), file: partFile, data: readObject(partFile, warnings) });
    }
    parts.set(id, list);
  }
  return { session, messages, parts };
}
