/**
 * OpenCode's older JSON-file layout (agent-formats.md §3): `storage/session/<projectID>/<ses_…>.json`,
 * `storage/message/<ses_…>/<msg_…>.json`, `storage/part/<msg_…>/<prt_…>.json`, each file one complete
 * object (ids included). Ids ascend with time, so file-name order is OpenCode's own order.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { sessionFileName } from "@/lib/sources/opencode/database";
import { num, str } from "@/lib/sources/opencode/values";

/** A session found in a storage folder, with its `time.updated` (ms) for picking among copies. */
export type StorageSession = { found: FoundSession; updated: number };

/** One stored object file: its id (the file name) and its object (null when malformed). */
export type StoredObject = { id: string; file: string; data: JsonObject | null };

/** The `.json` files of `dir` by name (empty when it does not exist); a folder that cannot be read is a warning. */
async function jsonFiles(dir: string, warnings: SourceWarning[]): Promise<string[]> {
  try {
    const names = await fs.readdir(dir);
    return names.filter((n) => n.endsWith(".json")).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ file: dir, where: "folder", problem: `cannot list: ${(error as Error).message}` });
    return [];
  }
}

/** The object in a JSON file, or null with a warning when it cannot be read or is not a JSON object. */
async function readObject(file: string, warnings: SourceWarning[]): Promise<JsonObject | null> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
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
async function filesStamp(sessionFile: string, sessionId: string, warnings: SourceWarning[]): Promise<string> {
  const storage = storageDirOf(sessionFile);
  const files = [sessionFile];
  const messageDir = path.join(storage, "message", sessionId);
  for (const name of await jsonFiles(messageDir, warnings)) {
    files.push(path.join(messageDir, name));
    const partDir = path.join(storage, "part", name.slice(0, -".json".length));
    for (const part of await jsonFiles(partDir, warnings)) files.push(path.join(partDir, part));
  }
  let size = 0;
  let mtime = 0;
  for (const file of files) {
    const st = await fs.stat(file).catch(() => null);
    if (st === null) continue;
    size += st.size;
    mtime = Math.max(mtime, st.mtimeMs);
  }
  return `files:${files.length}:${size}:${mtime}`;
}

/**
 * The session of one session file (`storage/session/<projectID>/<ses>.json`); null with a warning
 * when the file is not a session object. `projectRoot` is its `directory`.
 */
export async function storageSessionOf(sessionFile: string, warnings: SourceWarning[]): Promise<StorageSession | null> {
  const data = await readObject(sessionFile, warnings);
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
      stamp: await filesStamp(sessionFile, id, warnings),
    },
    updated: num(asObject(data.time)?.updated) ?? 0,
  };
}

/** Every session under a `storage` folder (`session/<projectID>/*.json`); malformed files are warnings. */
export async function listStorageSessions(storageDir: string): Promise<{ sessions: StorageSession[]; warnings: SourceWarning[] }> {
  const warnings: SourceWarning[] = [];
  const sessions: StorageSession[] = [];
  const sessionRoot = path.join(storageDir, "session");
  let projects: string[];
  try {
    projects = (await fs.readdir(sessionRoot, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") warnings.push({ file: sessionRoot, where: "folder", problem: `cannot list: ${(error as Error).message}` });
    return { sessions, warnings };
  }
  for (const project of projects) {
    const dir = path.join(sessionRoot, project);
    for (const name of await jsonFiles(dir, warnings)) {
      const session = await storageSessionOf(path.join(dir, name), warnings);
      if (session !== null) sessions.push(session);
    }
  }
  return { sessions, warnings };
}

/** One session's stored objects: the session, its messages by id, and each message's parts by id. */
export type StorageSessionObjects = { session: JsonObject | null; messages: StoredObject[]; parts: Map<string, StoredObject[]> };

/** Reads a session's files; each unreadable or malformed file becomes a warning and a null object. */
export async function readStorageSession(sessionFile: string, sessionId: string, warnings: SourceWarning[]): Promise<StorageSessionObjects> {
  const storage = storageDirOf(sessionFile);
  const session = await readObject(sessionFile, warnings);
  const messageDir = path.join(storage, "message", sessionId);
  const messages: StoredObject[] = [];
  const parts = new Map<string, StoredObject[]>();
  for (const name of await jsonFiles(messageDir, warnings)) {
    const id = name.slice(0, -".json".length);
    const file = path.join(messageDir, name);
    messages.push({ id, file, data: await readObject(file, warnings) });
    const partDir = path.join(storage, "part", id);
    const list: StoredObject[] = [];
    for (const partName of await jsonFiles(partDir, warnings)) {
      const partFile = path.join(partDir, partName);
      list.push({ id: partName.slice(0, -".json".length), file: partFile, data: await readObject(partFile, warnings) });
    }
    parts.set(id, list);
  }
  return { session, messages, parts };
}
