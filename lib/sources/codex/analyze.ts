/** Codex rollout analysis for prepare, on every core for big rollouts. */
import fs from "node:fs/promises";
import path from "node:path";

import type { LineIndex } from "@/lib/jsonl/line-index";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import { rangeCount, startWorker } from "@/lib/jsonl/workers";
import { mapLineRanges } from "@/lib/jsonl/range-lines";
import { forEachLineBytes, POOLED_BUFFER_BYTES, streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { codexLineRecord, codexRangeRecords, rangeRecordsReader, type CodexRangeRecords } from "@/lib/sources/codex/range-records";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { CodexAnalysis } from "@/lib/sources/codex/analysis";
import { CodexAnalyzer } from "@/lib/sources/codex/analyze-core";
import type { CodexUsageLog } from "@/lib/sources/codex/token-usage";
import { toTranscriptReadError } from "@/lib/sources/codex/read-error";
import { legacyReportReason } from "@/lib/sources/codex/report-session";

const READ_CHUNK = 8 << 20;
const READ_HEADROOM = 4 << 20;

/**
 * Smallest rollout read on every core: below it the pool costs more than it saves (the worker's
 * JIT warm-up, records crossing threads, the main thread still folding every line;
 * docs/performance.md).
 */
const POOL_MIN_BYTES = 512 << 20;

/** Takes one line of a Codex rollout as its analysis read it (see `analyzeCodexTranscript`'s `onRecord`): valid only during the call. */
export type CodexRecordSink = (line: number, record: JsonObject | null, timestampMs: number | null | undefined, bytes: Buffer, start: number, end: number) => void;

/** How `analyzeCodexTranscript` reads (see its `options`). */
export type CodexReadOptions = { fingerprints?: boolean; skim?: boolean; onIndex?: (index: LineIndex) => void; onRecord?: CodexRecordSink };

/**
 * Streams a Codex rollout once and analyses it with `CodexAnalyzer` (contract §1.3, §1.4, §1.7,
 * §1.8): triggers, in-window turns with output tokens and display usage, project root,
 * `source_session_id`, exclusion reasons, fork history and audit counters. Reading stops at a
 * `session_meta` that excludes the session for certain (a child or a prompt_diary session:
 * "child bodies are never read"). After the pass, legacy `codex_python_sdk` sessions are checked
 * against their cwd's report-workspace provenance. Memory: two 12 MiB read buffers plus the
 * longest line; a file read on several cores (see `readPooled`) also holds the records of the
 * ranges read ahead of the fold.
 * @param filePath the rollout file (either line format).
 * @param window report window for turn inclusion; null = all time.
 * @param usageLog when given, fed every line (per-turn display usage from the same pass, issue 13).
 * @param options `fingerprints: false` skips the fork fingerprints (`fork.history` is then null,
 *   `fork.qualifies` still set; see `CodexAnalyzeOptions`), and then lines whose kind is read
 *   only by its envelope are skimmed, not parsed (lib/sources/codex/skim-plan), on every core
 *   for an envelope-format file of at least 512 MiB; `skim: false` parses every line in this thread (the
 *   reference the skim is tested against); `onIndex` receives the file's line index built in
 *   the same pass (not when reading stopped early). `onRecord` is given each line read on this
 *   thread, in order (a big file read on every core gives none, and its first line is read apart):
 *   its record as the analysis read it (skimmed or parsed; null when malformed), its aware
 *   timestamp when the skim read it (`undefined`: read it from the record) and its bytes;
 *   prepare counts the session's usage from them (issue 25).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function analyzeCodexTranscript(filePath: string, window: ReportWindow, usageLog?: CodexUsageLog, options: CodexReadOptions = {}): Promise<CodexAnalysis> {
  const analyzer = new CodexAnalyzer(window, { fileStem: path.basename(filePath, ".jsonl"), usageLog, fingerprints: options.fingerprints });
  try {
    // Only a pass without fingerprints may skim (`analyzer.skimmable`).
    await readLines(analyzer, filePath, options.skim !== false && options.fingerprints === false, options.onIndex, options.onRecord);
  } catch (error) {
    throw toTranscriptReadError(filePath, error);
  }
  const analysis = analyzer.finish();
  if (analysis.subagentReason === null && analysis.reportReason === null && analysis.legacySdkCandidates.length > 0) {
    analysis.reportReason = await legacyReportReason(analysis.legacySdkCandidates);
  }
  return analysis;
}

/**
 * Feeds `analyzer` every line of the file (or up to an excluding `session_meta`). With `skim`
 * (allowed, and no fingerprints) a file of at least {@link POOL_MIN_BYTES} is read on every core
 * when its first line says it is an envelope-format rollout that is not excluded: that line is
 * fed here first, parsed whole as in one thread, since the format decides how every other line
 * is read. Anything else is read in this thread.
 */
async function readLines(analyzer: CodexAnalyzer, filePath: string, skim: boolean, onIndex?: (index: LineIndex) => void, onRecord?: CodexRecordSink): Promise<void> {
  const stat = skim ? await fs.stat(filePath) : null;
  const threads = stat === null ? 1 : rangeCount(stat.size, POOL_MIN_BYTES);
  const first = stat !== null && threads > 1 ? await firstLine(filePath, stat.size) : null;
  if (stat === null || first === null) return readSequential(analyzer, filePath, stat === null ? null : stat.size, 1, onIndex, onRecord);
  analyzer.pushRecord(1, parseJsonObject(first));
  if (analyzer.excluded) return;
  if (!analyzer.skimmable) return readSequential(analyzer, filePath, stat.size, 2, onIndex, onRecord);
  return readPooled(analyzer, { path: filePath, size: stat.size, mtimeMs: stat.mtimeMs }, threads, onIndex);
}

/**
 * Feeds `analyzer` lines `from`… of the file in this thread. Byte-level boundaries (the line
 * index's scanner). With `skimSize` (skimming allowed; the file's size in bytes when stat'ed),
 * lines are read into scan memories sized for the file and, while the analysis allows it, each
 * is skimmed where it was read (grammar checked, only the envelope built) and parsed whole only
 * when its kind is read further (issue 13); else each is decoded once and parsed.
 */
async function readSequential(analyzer: CodexAnalyzer, filePath: string, skimSize: number | null, from: number, onIndex?: (index: LineIndex) => void, onRecord?: CodexRecordSink): Promise<void> {
  const skim = skimSize !== null;
  // A small file gets small buffers, as streamLineBytes sizes its own (a prepare or sync reads
  // thousands of small rollouts); a file that grew since the stat gets streamLineBytes' own buffers.
  const bufferBytes = skim ? Math.min(READ_HEADROOM, skimSize) + Math.min(READ_CHUNK, Math.max(1, skimSize)) : 0;
  // One that fits the line reader's pooled scan memories reads into those (no memory made per file).
  const buffers = skim && bufferBytes > POOLED_BUFFER_BYTES ? ([scanMemoryBuffer(bufferBytes), scanMemoryBuffer(bufferBytes)] as const) : undefined;
  await forEachLineBytes(filePath, { onIndex, buffers, chunkBytes: READ_CHUNK, headroomBytes: READ_HEADROOM }, (line, bytes, start, end) => {
    if (line < from) return;
    if (skim && analyzer.skimmable) {
      const { record, timestampMs, facts } = codexLineRecord(bytes, start, end);
      analyzer.pushRecord(line, record, timestampMs, facts);
      onRecord?.(line, record, timestampMs, bytes, start, end);
    } else {
      const record = parseJsonObject(bytes.toString("utf8", start, end));
      analyzer.pushRecord(line, record);
      onRecord?.(line, record, undefined, bytes, start, end);
    }
    return !analyzer.excluded;
  });
}

/**
 * Feeds `analyzer` (already fed line 1, and `skimmable`) lines 2… of a big file read on every
 * core: the file is cut into ranges of a few MiB after a `\n`, mapped by this thread and worker
 * threads into the records {@link codexLineRecord} gives (lib/jsonl/range-lines, as the Claude
 * Code analysis reads), and folded here in file order as they arrive, so the result is that of
 * {@link readSequential} (issue 13: prepare on both cores). An excluding `session_meta` stops
 * the pass (no line index then, as in one thread).
 */
async function readPooled(analyzer: CodexAnalyzer, file: { path: string; size: number; mtimeMs: number }, threads: number, onIndex?: (index: LineIndex) => void): Promise<void> {
  let line = 0;
  const fold = (part: CodexRangeRecords): void => {
    const next = rangeRecordsReader(part);
    for (let i = 0; i < part.kinds.length; i++) {
      const { record, timestampMs } = next();
      line += 1;
      if (line === 1) continue;
      analyzer.pushRecord(line, record, timestampMs);
      if (analyzer.excluded) throw STOPPED;
    }
  };
  try {
    const index = await mapLineRanges(() => startWorker(import.meta.url, "./analyze-worker.ts"), codexRangeRecords, file, threads, fold);
    onIndex?.(index);
  } catch (error) {
    if (error !== STOPPED) throw error;
  }
}

/** Thrown out of a pooled pass's fold when a `session_meta` excluded the session: the remaining ranges are never folded. */
const STOPPED = new Error("Codex analysis stopped: the session is excluded");

/** The decoded first physical line of bytes `[0, size)` of `filePath` (contract §1.6), or null when there is none. */
async function firstLine(filePath: string, size: number): Promise<string | null> {
  for await (const { bytes, start, end } of streamLineBytes(filePath, { range: { startByte: 0, endByte: size, firstLine: 1 }, chunkBytes: 64 << 10, headroomBytes: 64 << 10 })) {
    return bytes.toString("utf8", start, end);
  }
  return null;
}
