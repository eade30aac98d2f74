/**
 * Finds Aider runs (agent-formats.md §4). Aider keeps no folder of sessions: it appends to
 * `.aider.chat.history.md` in the folder it runs in, so users add project folders (or the file
 * itself, or a folder of projects) as sources, and every run of every history file found is a session.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { physicalLines } from "@/lib/jsonl/text-lines";
import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { expandHome } from "@/lib/sources/common/project-key";
import { sortPosixPaths } from "@/lib/sources/common/walk-files";
import { HISTORY_FILE_NAME, runIdentities, splitRuns, type RunSpan } from "@/lib/sources/aider/history-runs";

/** Folders never searched for history files: dependencies and version-control internals. */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** A history file read whole: its physical lines and whether the last one ends with a line break. */
export type HistoryText = { lines: string[]; endsWithBreak: boolean };

/** Reads a history file (UTF-8, invalid bytes replaced) into its physical lines (contract §1.6). Throws on I/O errors. */
export async function readHistory(file: string): Promise<HistoryText> {
  const text = await fs.readFile(file, "utf8");
  return { lines: physicalLines(text), endsWithBreak: text === "" || /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]$/.test(text) };
}

/** The project folder's name, which Aider's session ids and file names start with. */
export function projectNameOf(historyFile: string): string {
  return path.basename(path.dirname(historyFile)) || "aider";
}

/**
 * Every run under `root` (`~` expanded), in POSIX path order then file order:
 * - a file is read as a history whatever its name (Aider's `--chat-history-file` may rename it);
 * - a folder is searched recursively for `.aider.chat.history.md` files (a project folder, or a
 *   folder of projects), skipping `node_modules` and `.git` and not following folder symlinks.
 * Each run becomes a session: `sourceSessionId` and `fileName` from {@link runIdentities}, `part`
 * the run's first physical line, `projectRoot` the folder holding the file, and `stamp` the run's
 * line count and a SHA-256 of its lines (it changes exactly when the run's text does, so a run
 * left untouched by later appends keeps its stamp). A run without prompts is still returned
 * (it has no turns). A missing root, an unreadable folder or file, a file with no run header, a
 * malformed header date and text before the first header are warnings. Never throws.
 */
export async function discoverAiderSessions(root: string): Promise<{ sessions: FoundSession[]; warnings: SourceWarning[] }> {
  const rootPath = path.resolve(expandHome(root));
  const warnings: SourceWarning[] = [];
  const stat = await fs.stat(rootPath).catch((error: unknown) => errorCode(error));
  if (typeof stat === "string") {
    warnings.push({ file: rootPath, where: "source root", problem: `cannot be read (${stat})` });
    return { sessions: [], warnings };
  }
  const files = stat.isDirectory() ? await findHistoryFiles(rootPath, warnings) : [rootPath];
  const sessions: FoundSession[] = [];
  for (const file of files) sessions.push(...(await sessionsOfFile(file, warnings)));
  return { sessions, warnings };
}

/** The `.aider.chat.history.md` files under `dir`, sorted by POSIX path; unreadable folders are warnings. */
async function findHistoryFiles(dir: string, warnings: SourceWarning[]): Promise<string[]> {
  const found: string[] = [];
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let entries;
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch (error) {
      warnings.push({ file: current, where: "folder", problem: `cannot be read (${errorCode(error)})` });
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(full);
      } else if (entry.name === HISTORY_FILE_NAME && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(full))))) {
        found.push(full);
      }
    }
  }
  return sortPosixPaths(found);
}

/** The runs of one history file as sessions. */
async function sessionsOfFile(file: string, warnings: SourceWarning[]): Promise<FoundSession[]> {
  let history: HistoryText;
  try {
    history = await readHistory(file);
  } catch (error) {
    warnings.push({ file, where: "file", problem: `cannot be read (${errorCode(error)})` });
    return [];
  }
  const runs = splitRuns(history.lines);
  if (runs.length === 0) {
    warnings.push({ file, where: "file", problem: 'no "# aider chat started at" header: not an Aider chat history' });
    return [];
  }
  const ids = runIdentities(runs, projectNameOf(file));
  const projectRoot = path.dirname(file);
  return runs.map((run, k) => {
    warnings.push(...runWarnings(file, run));
    return {
      source: "aider",
      sourceSessionId: ids[k]!.sourceSessionId,
      sourcePath: file,
      part: String(run.startLine),
      fileName: ids[k]!.fileName,
      projectRoot,
      stamp: runStamp(history.lines, run),
    };
  });
}

/** What is odd about a run's header: lines before any header, or a date that cannot be read. */
function runWarnings(file: string, run: RunSpan): SourceWarning[] {
  if (run.stamp === null) {
    return [{ file, where: `lines 1–${run.endLine}`, problem: "text before the first run header: read as a run without a start time" }];
  }
  if (run.local === null) {
    return [{ file, where: `line ${run.startLine}`, problem: `run header date "${run.stamp}" is not YYYY-MM-DD HH:MM:SS: the run is named by its line` }];
  }
  return [];
}

/** `<line count>:<sha256 of the run's lines, each followed by \n>` (first 32 hex digits). */
function runStamp(lines: readonly string[], run: RunSpan): string {
  const hash = createHash("sha256");
  for (let i = run.startLine - 1; i < run.endLine; i++) hash.update(lines[i]!).update("\n");
  return `${run.endLine - run.startLine + 1}:${hash.digest("hex").slice(0, 32)}`;
}

/** A Node error's code (`ENOENT`, `EACCES`), else its message. */
export function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}

async function isFile(p: string): Promise<boolean> {
  return fs.stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}
