/**
 * Where OpenCode writes and which sessions a root holds (agent-formats.md §3): the data folder
 * `${OPENCODE_DATA_DIR:-${XDG_DATA_HOME:-~/.local/share}/opencode}` with `opencode.db` (and channel
 * databases `opencode-<channel>.db`) and the older `storage/` JSON files.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { type DatabaseSession, listDatabaseSessions } from "@/lib/sources/opencode/database";
import { listStorageSessions, type StorageSession, storageSessionOf } from "@/lib/sources/opencode/storage";

/**
 * OpenCode's data folder: `$OPENCODE_DATA_DIR` when set, else `opencode` under `$XDG_DATA_HOME`
 * (OpenCode resolves it with xdg-basedir) or `~/.local/share`, on every platform.
 */
export function defaultRoots(home: string, env: NodeJS.ProcessEnv): string[] {
  if (env.OPENCODE_DATA_DIR) return [path.resolve(env.OPENCODE_DATA_DIR)];
  const xdg = env.XDG_DATA_HOME;
  const dataHome = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, ".local", "share");
  return [path.join(dataHome, "opencode")];
}

/** `opencode.db` first, then channel databases (`opencode-beta.db`, …) by name. */
const DATABASE_NAME = /^opencode(-[A-Za-z0-9_.-]+)?\.db$/;

/** The databases directly in `dir`, `opencode.db` first. */
async function databasesIn(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => DATABASE_NAME.test(n))
    .sort((a, b) => (a === "opencode.db" ? -1 : b === "opencode.db" ? 1 : a < b ? -1 : a > b ? 1 : 0))
    .map((n) => path.join(dir, n));
}

async function isDirectory(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isDirectory() ?? false;
}

/** True when `file` starts with SQLite's header (a database whatever its name). */
async function isSqliteFile(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r").catch(() => null);
  if (handle === null) return false;
  try {
    const buffer = Buffer.alloc(16);
    await handle.read(buffer, 0, 16, 0);
    return buffer.toString("latin1") === "SQLite format 3\0";
  } finally {
    await handle.close();
  }
}

/**
 * Every session under `root`: a data folder (its databases and its `storage/`), a `storage` folder,
 * a database file, or one session file `storage/session/<projectID>/<ses>.json`. A session held
 * twice (OpenCode copies `storage/` into each database it migrates, and channel databases can hold
 * the same session) is reported once: the copy updated last, a database before `storage/` on a tie.
 * A missing root has no sessions and no warning (OpenCode not installed); anything unreadable or
 * malformed is a warning.
 */
export async function discover(root: string): Promise<{ sessions: FoundSession[]; warnings: SourceWarning[] }> {
  const warnings: SourceWarning[] = [];
  const candidates: (DatabaseSession | StorageSession)[] = [];
  const st = await fs.stat(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") warnings.push({ file: root, where: "root", problem: `cannot read: ${error.message}` });
    return null;
  });
  if (st === null) return { sessions: [], warnings };

  const addDatabase = (file: string) => {
    const found = listDatabaseSessions(file);
    candidates.push(...found.sessions);
    warnings.push(...found.warnings);
  };
  const addStorage = (dir: string) => {
    const found = listStorageSessions(dir);
    candidates.push(...found.sessions);
    warnings.push(...found.warnings);
  };

  if (st.isFile()) {
    if (root.endsWith(".json")) {
      const session = storageSessionOf(root, warnings);
      if (session !== null) candidates.push(session);
    } else if (await isSqliteFile(root)) {
      addDatabase(root);
    } else {
      warnings.push({ file: root, where: "whole file", problem: "not an OpenCode database or session file" });
    }
  } else if (st.isDirectory()) {
    for (const db of await databasesIn(root)) addDatabase(db);
    if (await isDirectory(path.join(root, "storage", "session"))) addStorage(path.join(root, "storage"));
    else if (await isDirectory(path.join(root, "session"))) addStorage(root);
  }
  return { sessions: newestCopies(candidates), warnings };
}

/** One session per id, the copy with the greatest `updated`; on a tie the earlier (databases come first). */
function newestCopies(candidates: readonly (DatabaseSession | StorageSession)[]): FoundSession[] {
  const byId = new Map<string, DatabaseSession | StorageSession>();
  for (const candidate of candidates) {
    const held = byId.get(candidate.found.sourceSessionId);
    if (held === undefined || candidate.updated > held.updated) byId.set(candidate.found.sourceSessionId, candidate);
  }
  return [...byId.values()].map((c) => c.found);
}
