/**
 * One agent session read for prepare (issue 38): exported, read for its turns and its workspace
 * file written to the staging folder, on this thread or a prepare worker's
 * (lib/workspace/agent-session-worker.ts): what prepare keeps of it is small (turns, the line
 * index), so the readers of two sessions run side by side.
 */
import { chmodSync, constants as fsConstants, copyFileSync, rmSync, statSync, writeFileSync } from "node:fs";

import type { LineIndex } from "@/lib/jsonl/line-index";
import type { LineRange } from "@/lib/jsonl/workers";
import { agentSource } from "@/lib/sources/agents";
import { preparedTurns, type ExportedLines, type ExportScratch, type FileAsRead, type FoundSession, type PreparedTurns, type SourceWarning } from "@/lib/sources/common/agent-source";
import type { IndexTurn } from "@/lib/sources/common/schema";
import type { ReportWindow } from "@/lib/sources/common/window";

/** What {@link readAgentSession} reads: the session, the report window, and where to write its workspace file. */
export type AgentSessionArg = { found: FoundSession; window: ReportWindow; staged: string };

/**
 * A session read: its warnings (the export's, then the reader's), and either why it has no turn
 * (`skip`; nothing written) or its turns, physical lines, workspace file size and line index
 * (`starts` null when a line holds a break: the file is then indexed by reading it), its file
 * written whole at the `staged` path.
 */
export type AgentSessionRead = {
  warnings: SourceWarning[];
  skip: string | null;
  turns: Omit<IndexTurn, "turn_ref">[];
  lineCount: number;
  bytes: number;
  starts: Float64Array | null;
};

/** A line break of contract §1.6 (Python's `splitlines`): a line holding one would be several physical lines. */
const BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/**
 * Reads `arg.found` with its agent's reader (`exportLines`, then its `prepareTurns` of those lines,
 * else `parseLines` of them, the exporter's objects taken), keeps the turns whose prompt falls in `arg.window` (all without one),
 * and, when there is one, writes the workspace file (the lines, each followed by `\n`) to
 * `arg.staged` (a temp file of the staging folder: nothing reads it before this resolves; the
 * source file copied by the kernel when those are its bytes as read, `copyOf`, and 1 MiB or more). A
 * range-pool task (lib/jsonl/range-pool; `filePath` and `range` are unused: a session is one job).
 * @throws the fs error of the staged write (an unreadable session is a warning, not an error).
 */
export async function readAgentSession(_filePath: string, _range: LineRange, arg: AgentSessionArg): Promise<AgentSessionRead> {
  // The thread's scratch buffers, unless a read still under way holds them (its views stay its own).
  const scratch = idleScratch;
  idleScratch = null;
  try {
    return await readWith(arg, scratch ?? undefined);
  } finally {
    if (scratch !== null) idleScratch = scratch;
  }
}

/** {@link readAgentSession} exporting into `scratch`: nothing of the export outlives this call. */
async function readWith(arg: AgentSessionArg, scratch: ExportScratch | undefined): Promise<AgentSessionRead> {
  const { found, window } = arg;
  const source = agentSource(found.source)!;
  const exported = await source.exportLines(found, scratch);
  const file = `sessions/${found.source}/${found.fileName}`;
  // The reader's turns-only path when it has one for these lines, else the full read.
  const transcript = source.prepareTurns?.(exported, file) ?? preparedTurns(source.parseLines(exported.lines, file, exported.objects));
  const warnings = [...exported.warnings, ...transcript.warnings];
  const turns = turnsInWindow(transcript, window);
  if (turns.length === 0) return { warnings, skip: window ? "no user prompt inside the report window" : "no user prompt (no turn to index)", turns, lineCount: 0, bytes: 0, starts: null };
  const content = fileContent(exported);
  // On this thread: a worker has nothing else to do meanwhile, and the plan's thread would await it.
  const copied = exported.copyOf !== undefined && content.content === exported.bytes && content.content.length >= KERNEL_COPY_MIN_BYTES && copyAsRead(exported.copyOf, arg.staged);
  if (!copied) writeFileSync(arg.staged, content.content);
  return { warnings, skip: null, turns, lineCount: content.lineCount, bytes: content.content.length, starts: content.starts };
}

/** Scratch buffers kept up to this size each; a larger session's are made for it alone. */
const KEEP_SCRATCH_BYTES = 64 << 20;

/** Buffers reused from one session's read to the next on this thread (the export's contract: {@link ExportScratch}). */
class ScratchBuffers implements ExportScratch {
  private readonly kept: [Buffer | null, Buffer | null] = [null, null];

  buffer(slot: 0 | 1, size: number): Buffer {
    if (size > KEEP_SCRATCH_BYTES) return Buffer.allocUnsafe(size);
    let kept = this.kept[slot];
    // Grown by half again at least: a few allocations reach the largest session.
    if (kept === null || kept.length < size) kept = this.kept[slot] = Buffer.allocUnsafe(Math.min(KEEP_SCRATCH_BYTES, Math.max(size, Math.ceil((kept?.length ?? 0) * 1.5), 1 << 20)));
    return kept.subarray(0, size);
  }
}

/** This thread's scratch buffers when no read holds them. */
let idleScratch: ScratchBuffers | null = new ScratchBuffers();

/**
 * Files from this size are copied by the kernel ({@link copyAsRead}); a smaller one is written from
 * the bytes read: the copy's own opens, stats and clone attempt cost more than the write (ext4,
 * 2,000 Copilot sessions of 20 KB: 117 ms against 48 ms; 256 KB files 207 against 115 ms; even
 * from 2 MB; issue 38).
 */
const KERNEL_COPY_MIN_BYTES = 1 << 20;

/** Copies made as clones where the file system can (APFS, Btrfs, XFS), else by the kernel (copy_file_range), as lib/workspace/copy.ts's. */
const CLONE_OR_COPY = fsConstants.COPYFILE_FICLONE;

/** The mode `writeFileSync` gives a new file (0o666 less the umask), which a copy, taking its source's, is given too. */
let writtenMode: number | undefined;

/**
 * `file` copied to `to` when it still is as it was read (its size and mtime the same after the
 * copy, the copy of the size read), with the mode a written file gets: the same bytes as writing
 * those read, for a fraction of the kernel's time (issue 38). False when the file changed or
 * the copy failed: the caller writes the bytes read over `to`. Never throws.
 */
function copyAsRead(file: FileAsRead, to: string): boolean {
  try {
    copyFileSync(file.path, to, CLONE_OR_COPY);
    const after = statSync(file.path);
    if (after.size === file.size && after.mtimeMs === file.mtimeMs && statSync(to).size === file.size) {
      writtenMode ??= 0o666 & ~process.umask();
      if ((file.mode & 0o7777) !== writtenMode) chmodSync(to, writtenMode);
      return true;
    }
  } catch {
    /* the bytes read are written instead */
  }
  // A copy of a read-only source is read-only: removed before the bytes are written in its place.
  rmSync(to, { force: true });
  return false;
}

/** The line index of a read session's workspace file (`mtimeMs` left for its writer to set), or undefined when it is read to be indexed. */
export function readIndex(read: AgentSessionRead): LineIndex | undefined {
  return read.starts === null ? undefined : { size: read.bytes, mtimeMs: Number.NaN, lineCount: read.lineCount, starts: read.starts };
}

/**
 * The bytes of the workspace file of an exported session (its lines, each followed by `\n`), their
 * lines' byte starts (null when a line holds a break) and their number.
 */
function fileContent(exported: ExportedLines): { content: Buffer; starts: Float64Array | null; lineCount: number } {
  const { bytes } = exported;
  if (bytes !== undefined) {
    // The exporter's bytes are its lines, each followed by `\n` (the lines' strings not read: a reader may leave them undecoded).
    const ends: number[] = [];
    for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, nl + 1)) ends.push(nl);
    const starts = new Float64Array(ends.length);
    for (let i = 1; i < ends.length; i++) starts[i] = ends[i - 1]! + 1;
    return { content: bytes, starts, lineCount: ends.length };
  }
  const { lines } = exported;
  const starts = new Float64Array(lines.length);
  let size = 0;
  let exact = true;
  for (let i = 0; i < lines.length; i++) {
    starts[i] = size;
    const line = lines[i]!;
    size += Buffer.byteLength(line) + 1;
    if (exact && BREAK.test(line)) exact = false;
  }
  // Each line encoded in place: no text of the whole file is made.
  const content = Buffer.allocUnsafe(size);
  for (let i = 0; i < lines.length; i++) {
    const end = starts[i]! + content.write(lines[i]!, starts[i]!);
    content[end] = 0x0a;
  }
  return { content, starts: exact ? starts : null, lineCount: lines.length };
}

/** The transcript's turns whose prompt line's time falls in `window` (all of them without one). */
function turnsInWindow(transcript: PreparedTurns, window: ReportWindow): Omit<IndexTurn, "turn_ref">[] {
  if (window === null) return transcript.turns;
  return transcript.turns.filter((_t, i) => {
    const time = transcript.promptTimes[i];
    const ms = time ? Date.parse(time) : NaN;
    return ms >= window.startMs && ms < window.endMs;
  });
}
