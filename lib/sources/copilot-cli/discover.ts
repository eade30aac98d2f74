/** Copilot CLI sessions under a root: `session-state/<uuid>/events.jsonl` (agent-formats.md §2). */
import { closeSync, openSync, readSync, statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { fileStamp } from "@/lib/fs/file-stamp";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { asObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { expandHome } from "@/lib/sources/common/project-key";
import { str } from "@/lib/sources/copilot-cli/fields";

/** The file a session folder holds its events in. */
export const EVENTS_FILE = "events.jsonl";
const SESSION_STATE_DIR = "session-state";
/** How much of a file's head is read for its `session.start` (the first line, about 500 bytes, in every captured file). */
const HEAD_BYTES = 256 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where Copilot CLI writes sessions: `$COPILOT_HOME/session-state` when `COPILOT_HOME` is set
 * (the CLI's own override), else `<home>/.copilot/session-state`.
 */
export function copilotDefaultRoots(home: string, env: NodeJS.ProcessEnv): string[] {
  const copilotHome = env.COPILOT_HOME?.trim();
  return [path.join(copilotHome ? path.resolve(copilotHome) : path.join(home, ".copilot"), SESSION_STATE_DIR)];
}

/**
 * Every session under `root` (`~` expanded), sorted by folder name. `root` may be:
 * - a `session-state` folder: each subfolder holding an `events.jsonl` is a session;
 * - a `.copilot` folder (one holding `session-state/`): as its `session-state`;
 * - one session folder (holding `events.jsonl`), or one `.jsonl` events file.
 *
 * A session's `sourceSessionId` is its folder name when that is a UUID (the CLI names folders by
 * session id), else `session.start`'s `sessionId`, else the folder name; `fileName` is
 * `<sourceSessionId>.jsonl`; `projectRoot` is `session.start`'s `context.gitRoot`, else its
 * `context.cwd` (a `session.resume`'s context when the head has no start), when absolute;
 * `stamp` is `size:mtimeMs`. Folders without `events.jsonl` (the CLI leaves some on resume) and
 * empty `events.jsonl` files are not sessions and are skipped silently. A missing root, an
 * unreadable folder or file, or a head without `session.start` is a warning, never an exception.
 */
export async function discoverCopilotSessions(root: string): Promise<{ sessions: FoundSession[]; warnings: SourceWarning[] }> {
  const rootPath = path.resolve(expandHome(root));
  const warnings: SourceWarning[] = [];
  const sessions: FoundSession[] = [];
  const stat = await fs.stat(rootPath).catch((error: NodeJS.ErrnoException) => error);
  if (stat instanceof Error) {
    const problem = stat.code === "ENOENT" ? "source root does not exist" : `unreadable source root: ${stat.code ?? stat.message}`;
    return { sessions, warnings: [{ file: rootPath, where: "root", problem }] };
  }
  if (stat.isFile()) {
    if (!rootPath.endsWith(".jsonl")) return { sessions, warnings: [{ file: rootPath, where: "root", problem: "not a .jsonl events file" }] };
    addSession(rootPath, sessions, warnings);
    return { sessions, warnings };
  }
  if (await isFile(path.join(rootPath, EVENTS_FILE))) {
    addSession(path.join(rootPath, EVENTS_FILE), sessions, warnings);
    return { sessions, warnings };
  }
  const nested = path.join(rootPath, SESSION_STATE_DIR);
  const stateDir = (await isDirectory(nested)) ? nested : rootPath;
  let entries;
  try {
    entries = await fs.readdir(stateDir, { withFileTypes: true });
  } catch (error) {
    return { sessions, warnings: [{ file: stateDir, where: "folder", problem: `unreadable folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}` }] };
  }
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  folders.sort();
  // Each folder's events file is stated and its head read on this thread: thousands of small
  // sessions, where a thread-pool round trip per step cost more than the step (issue 38).
  for (const folder of folders) {
    const file = path.join(stateDir, folder, EVENTS_FILE);
    let stat: Stats | undefined;
    try {
      stat = statSync(file, { throwIfNoEntry: false });
      if (stat === undefined) continue; // a folder without events: not a session
    } catch {
      stat = undefined; // unreadable: addSession names the error
    }
    if (stat === undefined || stat.isFile()) addSession(file, sessions, warnings, stat);
  }
  return { sessions, warnings };
}

/** The session of events file `file` added to `sessions` (or a warning); `known`: its stat when the caller has just taken it. */
function addSession(file: string, sessions: FoundSession[], warnings: SourceWarning[], known?: Stats): void {
  let stat;
  let head: SessionHead;
  try {
    stat = known ?? statSync(file);
    if (stat.size === 0) return;
    head = readHead(file);
  } catch (error) {
    warnings.push({ file, where: "file", problem: `unreadable events.jsonl: ${(error as NodeJS.ErrnoException).code ?? String(error)}` });
    return;
  }
  if (!head.hasStart) warnings.push({ file, where: "head", problem: `no session.start event in the first ${HEAD_BYTES / 1024} KiB` });
  const folder = path.basename(path.dirname(file));
  const sourceSessionId = UUID.test(folder) ? folder : (head.sessionId ?? folder);
  sessions.push({
    source: "copilot-cli",
    sourceSessionId,
    sourcePath: file,
    part: null,
    fileName: `${sourceSessionId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl`,
    projectRoot: head.projectRoot,
    stamp: fileStamp(stat),
  });
}

type SessionHead = { hasStart: boolean; sessionId: string | null; projectRoot: string | null };

/** One buffer for every head read (the reads are synchronous, never two at once). */
let headBuffer: Buffer | null = null;
/** The first read of a head: `session.start` is the first line (about 500 bytes) in every captured file. */
const FIRST_HEAD_BYTES = 16 * 1024;

/**
 * The session id and project root from the first `session.start` (else `session.resume`) in the
 * file's first {@link HEAD_BYTES}: its first {@link FIRST_HEAD_BYTES} read and scanned, and only
 * when their whole lines hold no `session.start` the rest (issue 38: a session is ~20 KB and its
 * start is on line 1; reading and decoding 256 KiB per session cost most of discovery).
 */
function readHead(file: string): SessionHead {
  const fd = openSync(file, "r");
  try {
    headBuffer ??= Buffer.alloc(HEAD_BYTES);
    let bytesRead = readSync(fd, headBuffer, 0, FIRST_HEAD_BYTES, 0);
    if (bytesRead === FIRST_HEAD_BYTES) {
      const first = scanHead(headBuffer, bytesRead, true);
      if (first.hasStart) return first;
      bytesRead += readSync(fd, headBuffer, bytesRead, HEAD_BYTES - bytesRead, bytesRead);
    }
    return scanHead(headBuffer, bytesRead, bytesRead === HEAD_BYTES);
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readHead}'s scan of `buffer[0, bytesRead)`, one `\n`-delimited stretch at a time (each
 * decoded and split into physical lines, contract §1.6), up to the first `session.start`;
 * `truncated`: the text after its last `\n` may be cut (not a whole line, so not read).
 */
function scanHead(buffer: Buffer, bytesRead: number, truncated: boolean): SessionHead {
  let resumeRoot: string | null = null;
  for (let start = 0; start < bytesRead; ) {
    const nl = buffer.indexOf(0x0a, start);
    if ((nl === -1 || nl >= bytesRead) && truncated) break;
    const end = nl === -1 || nl >= bytesRead ? bytesRead : nl;
    for (const line of physicalLines(buffer.toString("utf8", start, end))) {
      const event = parseJsonObject(line);
      if (event === null) continue;
      const data = asObject(event.data);
      if (event.type === "session.start") return { hasStart: true, sessionId: str(data, "sessionId"), projectRoot: contextRoot(data) };
      if (event.type === "session.resume") resumeRoot ??= contextRoot(data);
    }
    start = end + 1;
  }
  return { hasStart: false, sessionId: null, projectRoot: resumeRoot };
}

/** `context.gitRoot`, else `context.cwd`, when absolute. */
function contextRoot(data: ReturnType<typeof asObject>): string | null {
  const context = asObject(data?.context);
  const root = str(context, "gitRoot") ?? str(context, "cwd");
  return root !== null && path.isAbsolute(root) ? root : null;
}

async function isFile(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isFile() ?? false;
}

async function isDirectory(p: string): Promise<boolean> {
  return (await fs.stat(p).catch(() => null))?.isDirectory() ?? false;
}
