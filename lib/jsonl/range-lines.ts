/** One pass over a big JSONL file with no line index yet, its ranges read on every core. */
/**
 * One pass over a big JSONL file whose line index is not built yet, on every core (issue 13:
 * prepare reads each transcript once, at disk speed): the file is cut after `\n` bytes into
 * ranges of a few MiB ({@link newlineRanges}), a {@link RangePool} maps a per-range task on this
 * thread and worker threads, each task reads its range into this thread's two reused scan
 * buffers ({@link readRangeLines}), and the results are handed back in file order; the line
 * starts every task returns make the file's line index. The Claude Code and Codex analyses
 * (lib/sources/claude-code/analyze, lib/sources/codex/analyze) both read this way.
 */
import type { Worker } from "node:worker_threads";

import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { workersOnly, type LineRange, type RangeTask } from "@/lib/jsonl/workers";
import { poolCutTargets, RangePool } from "@/lib/jsonl/range-pool";
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { newlineRanges } from "@/lib/jsonl/record-walk";

/** A range task's result: whatever it read, plus the absolute byte offset of each of its lines. */
export type RangeLinesResult = { starts: Float64Array };

/**
 * Maps `task` over `filePath` (`size` bytes, as stat'ed by the caller) on `threads` threads
 * (this one and `threads - 1` workers from `spawn`, whose module serves `task` with
 * lib/jsonl/range-pool's `serveRangeStream`; in the server, `CASEFILE_WORKERS_ONLY`, the workers
 * map every range and this thread only hands results over), and calls `onPart` with each
 * range's result in file order, as soon as the ranges before it were handed over.
 * @returns the line index of `[0, size)` built from the ranges' `starts` (`mtimeMs` from the caller's stat).
 * @throws whatever `task` or `onPart` throws (the workers are closed first), or the fs error.
 */
export async function mapLineRanges<R extends RangeLinesResult>(
  spawn: () => Promise<Worker>,
  task: RangeTask<undefined, R>,
  file: { path: string; size: number; mtimeMs: number },
  threads: number,
  onPart: (part: R) => void,
): Promise<LineIndex> {
  const offMain = workersOnly();
  // Built first: the workers boot while the ranges are cut.
  const pool = new RangePool<undefined, R>(spawn, offMain ? threads : threads - 1, { workersOnly: offMain });
  const starts: Float64Array[] = [];
  let lineCount = 0;
  try {
    const ranges = await newlineRanges(file.path, file.size, poolCutTargets(file.size, threads));
    await pool.map(task, file.path, ranges, undefined, (part) => {
      starts.push(part.starts);
      lineCount += part.starts.length;
      onPart(part);
    });
  } finally {
    releaseRangeBuffers();
    await pool.close();
  }
  const all = new Float64Array(lineCount);
  let at = 0;
  for (const part of starts) {
    all.set(part, at);
    at += part.length;
  }
  return { size: file.size, mtimeMs: file.mtimeMs, lineCount, starts: all };
}

/**
 * Streams the lines of bytes `[range.startByte, range.endByte)` of `filePath` (contract §1.6
 * boundaries) to `onLine` as byte ranges of a read buffer (valid only during the call), with
 * synchronous reads into this thread's two spare scan buffers (a pool thread maps its ranges one
 * after another; the skim then scans each line in place).
 * @returns the absolute byte offset of each line's start.
 * @throws the fs error when the file cannot be read.
 */
export async function readRangeLines(filePath: string, range: LineRange, onLine: (bytes: Buffer, start: number, end: number, next: number) => void): Promise<Float64Array> {
  // The thread's spare buffers, unless another range of this thread is being read right now.
  const buffers = spareBuffers ?? [scanMemoryBuffer(RANGE_HEADROOM + RANGE_CHUNK), scanMemoryBuffer(RANGE_HEADROOM + RANGE_CHUNK)];
  spareBuffers = null;
  const options = { range: { startByte: range.startByte, endByte: range.endByte, firstLine: 1 }, chunkBytes: RANGE_CHUNK, headroomBytes: RANGE_HEADROOM, buffers, syncReads: true };
  try {
    return (await forEachLineBytes(filePath, options, (_line, bytes, start, end, next) => void onLine(bytes, start, end, next)))!;
  } finally {
    spareBuffers = buffers;
  }
}

/** Drops this thread's spare range buffers, after a pass. */
export function releaseRangeBuffers(): void {
  spareBuffers = null;
}

/**
 * Read size and carry room of a range's stream: a thread maps its ranges one after another into
 * the same two buffers, over scan memories (lines are skimmed where they were read).
 */
const RANGE_CHUNK = 1 << 20;
const RANGE_HEADROOM = 1 << 20;
let spareBuffers: [Buffer, Buffer] | null = null;
