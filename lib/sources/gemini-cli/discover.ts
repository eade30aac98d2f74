/** Gemini CLI sessions found under a root (agent-formats.md §1, "Where", "File names", "Sessions and projects"). */
import { closeSync, openSync, readFileSync, readSync, statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { expandHome } from "@/lib/sources/common/project-key";
import { sortPosixPaths } from "@/lib/sources/common/walk-files";
import { readProjectIndex, resolveProjectRoot, type GeminiProjectIndex } from "@/lib/sources/gemini-cli/project-roots";

/** Where a session file sits in a Gemini home: `<home>/tmp/<projectId>/chats/[<parentSessionId>/]<name>`. */
export type ChatLocation = {
  home: string;
  projectId: string;
  /** The parent session's folder for a subagent chat (`chats/<parentSessionId>/<sessionId>.jsonl`), else null. */
  parentSessionId: string | null;
};

/** The identity a session file states about itself (JSONL header line, or the legacy object's top-level keys). */
type FileIdentity = { sessionId: string | null; projectHash: string | null };

/** A header line longer than this is not read for discovery (the session id falls back to the file name). */
const HEADER_READ_LIMIT = 4 * 1024 * 1024;
const HEADER_CHUNK = 64 * 1024;
/** A legacy file larger than this has its identity read from its head ({@link legacyHeadIdentity}); a smaller one is parsed whole. */
const LEGACY_HEAD_BYTES = 64 * 1024;

/**
 * Where Gemini CLI writes (agent-formats.md §1): `~/.gemini`, or `$GEMINI_CLI_HOME/.gemini` when that
 * variable is set (gemini-cli's `homedir()` honours it for all of its state).
 */
export function geminiDefaultRoots(home: string, env: NodeJS.ProcessEnv): string[] {
  const base = env.GEMINI_CLI_HOME?.trim() ? env.GEMINI_CLI_HOME : home;
  return [path.join(base, ".gemini")];
}

/**
 * Every Gemini CLI session under `root` (agent-formats.md §1), `~` expanded. `root` may be a Gemini
 * home (`~/.gemini`: `tmp/<id>/chats/` of both sha256-hash and slug folders), a folder holding one
 * (`~`), the `tmp` folder, a project folder `tmp/<id>`, a `chats` folder, a subagent folder
 * `chats/<parentSessionId>`, or a single `.json`/`.jsonl` session file. Each `.json` (legacy, one
 * object) and `.jsonl` file in a chats folder, and in its subagent folders one level down, is one
 * session keyed by path (two files may share a `sessionId`). The project root comes from the home
 * found above the file (projects.json, `.project_root`, sha256 match; see project-roots.ts).
 * Unreadable roots and files, malformed legacy files and empty files become warnings (a large
 * legacy file whose head reads well is only parsed whole by exportLines, which warns when it is
 * malformed further on); never throws.
 * Sessions are sorted by POSIX path.
 */
export async function discoverGeminiSessions(root: string): Promise<{ sessions: FoundSession[]; warnings: SourceWarning[] }> {
  const rootPath = path.resolve(expandHome(root));
  const warnings: SourceWarning[] = [];
  const stat = await fs.stat(rootPath).catch(() => null);
  if (stat === null) return { sessions: [], warnings: [{ file: rootPath, where: "root", problem: "does not exist or cannot be read" }] };
  let files: string[];
  if (stat.isDirectory()) {
    files = await sessionFilesUnder(rootPath);
    if (files.length === 0 && !(await looksLikeGeminiFolder(rootPath))) {
      warnings.push({ file: rootPath, where: "root", problem: "no Gemini CLI chats folder (tmp/<project>/chats) under this folder" });
    }
  } else if (isSessionFileName(rootPath)) {
    files = [rootPath];
  } else {
    return { sessions: [], warnings: [{ file: rootPath, where: "root", problem: "not a .json or .jsonl session file" }] };
  }
  const indexes = new Map<string, GeminiProjectIndex>();
  const sessions: FoundSession[] = [];
  for (const file of sortPosixPaths(files)) {
    const found = await describeSessionFile(file, indexes, warnings);
    if (found !== null) sessions.push(found);
  }
  return { sessions, warnings };
}

/**
 * The Gemini home, project id and subagent parent of a session file, read from its path: the
 * nearest `tmp/<projectId>/chats/` above it, the file directly in `chats` or one folder below it.
 * Null for a file outside that layout (its project stays unknown).
 */
export function locateChatFile(file: string): ChatLocation | null {
  const parts = path.resolve(file).split(path.sep);
  for (let i = parts.length - 2; i >= 2; i--) {
    if (parts[i] !== "chats" || parts[i - 2] !== "tmp") continue;
    const below = parts.length - 1 - i;
    if (below !== 1 && below !== 2) return null;
    return {
      home: parts.slice(0, i - 2).join(path.sep) || path.sep,
      projectId: parts[i - 1]!,
      parentSessionId: below === 2 ? parts[i + 1]! : null,
    };
  }
  return null;
}

/**
 * The workspace file name of a session file (unique per source, ends in `.jsonl`): the project id,
 * the subagent parent's folder if any, and the file name, joined by `__`. A legacy `.json` keeps its
 * extension before `.jsonl` because Gemini CLI migrates `session-x.json` to `session-x.jsonl` beside
 * it on resume, so both may exist. A file outside the chats layout is named by its file name alone.
 */
export function workspaceFileName(file: string, location: ChatLocation | null): string {
  const base = path.basename(file);
  const name = base.endsWith(".jsonl") ? base : `${base}.jsonl`;
  if (location === null) return name;
  return [location.projectId, location.parentSessionId, name].filter((p) => p !== null).join("__");
}

function isSessionFileName(file: string): boolean {
  return file.endsWith(".json") || file.endsWith(".jsonl");
}

/** Session files under a directory root, by what the directory is (see {@link discoverGeminiSessions}). */
async function sessionFilesUnder(dir: string): Promise<string[]> {
  const base = path.basename(dir);
  if (base === "chats") return filesOfChats(dir);
  if (path.basename(path.dirname(dir)) === "chats") return filesIn(dir);
  if (await isDir(path.join(dir, "chats"))) return filesOfChats(path.join(dir, "chats"));
  if (base === "tmp") return filesOfTmp(dir);
  if (await isDir(path.join(dir, "tmp"))) return filesOfTmp(path.join(dir, "tmp"));
  if (await isDir(path.join(dir, ".gemini", "tmp"))) return filesOfTmp(path.join(dir, ".gemini", "tmp"));
  return [];
}

/** True for a folder that is Gemini's even when it holds no chats yet (no warning then). */
async function looksLikeGeminiFolder(dir: string): Promise<boolean> {
  const base = path.basename(dir);
  if (base === "chats" || base === "tmp" || path.basename(path.dirname(dir)) === "chats") return true;
  for (const child of ["chats", "tmp", path.join(".gemini", "tmp")]) if (await isDir(path.join(dir, child))) return true;
  return false;
}

async function filesOfTmp(tmp: string): Promise<string[]> {
  const entries = await fs.readdir(tmp, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) if (entry.isDirectory()) files.push(...(await filesOfChats(path.join(tmp, entry.name, "chats"))));
  return files;
}

/** The session files of a chats folder and of its subagent folders (one level down). */
async function filesOfChats(chats: string): Promise<string[]> {
  const entries = await fs.readdir(chats, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(chats, entry.name);
    if (entry.isDirectory()) files.push(...(await filesIn(full)));
    else if (isSessionFileName(entry.name) && (entry.isFile() || (await isFile(full)))) files.push(full);
  }
  return files;
}

async function filesIn(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (isSessionFileName(entry.name) && (entry.isFile() || (await isFile(full)))) files.push(full);
  }
  return files;
}

/** One session file as a {@link FoundSession}, or null (with a warning) when it cannot be one. */
async function describeSessionFile(file: string, indexes: Map<string, GeminiProjectIndex>, warnings: SourceWarning[]): Promise<FoundSession | null> {
  // Each file's stat and head read on this thread: thousands of small chats, where a thread-pool
  // round trip per step cost more than the step (issue 38: discovery of 2,125 chats 440 ms, most waiting).
  const stat = statOrNull(file);
  if (stat === null) {
    warnings.push({ file, where: "file", problem: "cannot be read" });
    return null;
  }
  if (stat.size === 0) {
    warnings.push({ file, where: "file", problem: "empty file (no header yet); skipped" });
    return null;
  }
  const identity = file.endsWith(".jsonl") ? await readJsonlIdentity(file, warnings) : ((stat.size > LEGACY_HEAD_BYTES ? await legacyHeadIdentity(file, stat.size) : null) ?? (await readLegacyIdentity(file, warnings)));
  if (identity === null) return null;
  const location = locateChatFile(file);
  let projectRoot: string | null = null;
  if (location !== null) {
    let index = indexes.get(location.home);
    if (index === undefined) {
      const read = await readProjectIndex(location.home);
      warnings.push(...read.warnings);
      index = read.index;
      indexes.set(location.home, index);
    }
    projectRoot = resolveProjectRoot(index, location.projectId, identity.projectHash);
  }
  let sourceSessionId = identity.sessionId;
  if (sourceSessionId === null) {
    sourceSessionId = path.basename(file).replace(/\.jsonl?$/, "");
    warnings.push({ file, where: "line 1", problem: `no sessionId in the header; using the file name "${sourceSessionId}"` });
  }
  return {
    source: "gemini-cli",
    sourceSessionId,
    sourcePath: file,
    part: null,
    fileName: workspaceFileName(file, location),
    projectRoot,
    stamp: `${stat.size}:${stat.mtimeMs}`,
  };
}

/** The header line of a JSONL session (its first physical `\n` line); a malformed header leaves both fields null. */
async function readJsonlIdentity(file: string, warnings: SourceWarning[]): Promise<FileIdentity | null> {
  const line = await readFirstLine(file);
  if (line === null) {
    warnings.push({ file, where: "file", problem: "cannot be read" });
    return null;
  }
  const header = parseJsonObject(line);
  if (header === null) return { sessionId: null, projectHash: null };
  return { sessionId: stringOrNull(header.sessionId), projectHash: stringOrNull(header.projectHash) };
}

/** The top-level `sessionId`/`projectHash` of a legacy `.json` session; null (with a warning) when it is not one JSON object. */
async function readLegacyIdentity(file: string, warnings: SourceWarning[]): Promise<FileIdentity | null> {
  let text: string | null;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    text = null;
  }
  if (text === null) {
    warnings.push({ file, where: "file", problem: "cannot be read" });
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    warnings.push({ file, where: "file", problem: `not valid JSON (${(error as Error).message}); skipped` });
    return null;
  }
  if (!isJsonObject(value) || (typeof value.sessionId !== "string" && !Array.isArray(value.messages))) {
    warnings.push({ file, where: "file", problem: "not a Gemini session object (no sessionId, no messages); skipped" });
    return null;
  }
  return { sessionId: stringOrNull(value.sessionId), projectHash: stringOrNull(value.projectHash) };
}

/**
 * The identity of a large legacy session from its head, without parsing its messages (issue 38:
 * discovery parsed every chat whole, and exportLines again): the keys before the top-level
 * `"messages": [` read as one JSON object, when the file ends with `}` (one cut short is parsed
 * whole, for its warning). Null when the head does not read that way (no `messages` key in it,
 * keys in another order, no `sessionId` before it): the file is then parsed whole.
 */
async function legacyHeadIdentity(file: string, size: number): Promise<FileIdentity | null> {
  const fd = openOrNull(file);
  if (fd === null) return null;
  try {
    const tail = Buffer.alloc(64);
    const endRead = readSync(fd, tail, 0, tail.length, Math.max(0, size - tail.length));
    if (!/\}\s*$/.test(tail.toString("latin1", 0, endRead))) return null;
    const head = Buffer.alloc(LEGACY_HEAD_BYTES);
    const bytesRead = readSync(fd, head, 0, head.length, 0);
    const text = head.toString("utf8", 0, bytesRead);
    const at = text.search(/"messages"\s*:\s*\[/);
    if (at === -1) return null;
    const header = parseJsonObject(`${text.slice(0, at).replace(/,\s*$/, "")}}`);
    if (header === null || typeof header.sessionId !== "string") return null;
    return { sessionId: stringOrNull(header.sessionId), projectHash: stringOrNull(header.projectHash) };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The text before the first `\n` (a trailing `\r` dropped), read in chunks up to {@link HEADER_READ_LIMIT}; null if unreadable. */
async function readFirstLine(file: string): Promise<string | null> {
  const fd = openOrNull(file);
  if (fd === null) return null;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < HEADER_READ_LIMIT) {
      const buffer = Buffer.alloc(HEADER_CHUNK);
      const bytesRead = readSync(fd, buffer, 0, HEADER_CHUNK, total);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      const nl = chunk.indexOf(0x0a);
      chunks.push(nl === -1 ? chunk : chunk.subarray(0, nl));
      total += bytesRead;
      if (nl !== -1) break;
    }
    return Buffer.concat(chunks).toString("utf8").replace(/\r$/, "");
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** `file` opened for reading, or null when it cannot be. */
function openOrNull(file: string): number | null {
  try {
    return openSync(file, "r");
  } catch {
    return null;
  }
}

/** `file`'s stat, or null when it cannot be taken. */
function statOrNull(file: string): Stats | null {
  try {
    return statSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

async function isDir(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isDirectory() ?? false;
}

async function isFile(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isFile() ?? false;
}
