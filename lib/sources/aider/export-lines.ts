/**
 * The workspace file of an Aider run (agent-formats.md §4): the run's physical lines of the
 * history file, unchanged. The workspace file is Markdown (`.md`), not JSON lines.
 */
import fs from "node:fs/promises";

import type { FoundSession, SourceWarning } from "@/lib/sources/common/agent-source";
import { errorCode, projectNameOf, readHistory, type HistoryText } from "@/lib/sources/aider/discover";
import { runIdentities, splitRuns, type RunIdentity, type RunSpan } from "@/lib/sources/aider/history-runs";

/** One history file read and split, with the size and mtime it was read at. */
type ReadHistory = { file: string; size: number; mtimeMs: number; history: HistoryText; runs: RunSpan[]; ids: RunIdentity[] };

/**
 * The last history file read: a file's runs are exported one after another, and reading the whole
 * file for each would make exporting a file of N runs read it N times.
 */
let lastRead: ReadHistory | null = null;

/** The file split into runs, from {@link lastRead} while its size and mtime are unchanged. Throws on I/O errors. */
async function readRuns(file: string): Promise<ReadHistory> {
  const stat = await fs.stat(file);
  if (lastRead !== null && lastRead.file === file && lastRead.size === stat.size && lastRead.mtimeMs === stat.mtimeMs) return lastRead;
  const history = await readHistory(file);
  const runs = splitRuns(history.lines);
  lastRead = { file, size: stat.size, mtimeMs: stat.mtimeMs, history, runs, ids: runIdentities(runs, projectNameOf(file)) };
  return lastRead;
}

/**
 * The physical lines of the run `session` names (without terminators, byte for byte as decoded),
 * from its header to the line before the next header (the file's last line for the last run).
 * The run is the one starting at line `part` with the session's id; when the file no longer has
 * one there, the run with that id wherever it is now. The file is read once for all its runs
 * (kept while its size and mtime stay the same). Warnings, never exceptions: an unreadable
 * file or a run no longer in the file (no lines), and a last line without a line break (Aider
 * may still be writing it; it is returned as it is).
 */
export async function exportAiderLines(session: FoundSession): Promise<{ lines: string[]; warnings: SourceWarning[] }> {
  const file = session.sourcePath;
  let read;
  try {
    read = await readRuns(file);
  } catch (error) {
    return { lines: [], warnings: [{ file, where: "file", problem: `cannot be read (${errorCode(error)})` }] };
  }
  const { history, runs, ids } = read;
  const sameId = (k: number) => ids[k]!.sourceSessionId === session.sourceSessionId;
  let k = runs.findIndex((run, j) => String(run.startLine) === session.part && sameId(j));
  if (k === -1) k = runs.findIndex((_, j) => sameId(j));
  const run = runs[k];
  if (run === undefined) {
    return { lines: [], warnings: [{ file, where: `line ${session.part ?? "?"}`, problem: `run ${session.sourceSessionId} is no longer in the file` }] };
  }
  const lines = history.lines.slice(run.startLine - 1, run.endLine);
  const warnings: SourceWarning[] = [];
  if (run.endLine === history.lines.length && !history.endsWithBreak) {
    warnings.push({ file, where: `line ${run.endLine}`, problem: "the last line has no line break: Aider may still be writing it" });
  }
  return { lines, warnings };
}
