/** A prepared agent session read back from its workspace file, cached while the file is unchanged. */
import { readFileSync, statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { fileStamp } from "@/lib/fs/file-stamp";
import type { Logger } from "@/lib/context";
import { getLineIndex, readLineRangeBytes, readLineRangeBytesSync } from "@/lib/jsonl/line-index";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { agentSource } from "@/lib/sources/agents";
import { transcriptLines, type AgentLines, type AgentSource, type AgentTranscript } from "@/lib/sources/common/agent-source";
import { readLineFacts, writeLineFacts } from "@/lib/sources/line-facts-file";

/** Bytes of read transcripts kept (their text counted twice for the records built from it). */
const CACHE_BYTES = 32 << 20;
const cache = stampedCache<AgentTranscript>("sources:agent-transcripts", CACHE_BYTES);

/**
 * The transcript read last, kept whatever its size: a session's pages read it several times in a
 * row (an overview once per part), and one larger than the cache was parsed each time (issue 38:
 * a 12 MB Gemini chat's first overview 1.2 s, 0.2 s so; the next one 0.8 s, 8 ms so).
 */
let last: { filePath: string; stamp: string; transcript: AgentTranscript } | null = null;

/**
 * The records, turns and times of the workspace file `filePath` of an agent session (`source`:
 * the index row's, one of lib/sources/agents), read by that agent's `parseLines` from the file's
 * physical lines (contract §1.6: lib/jsonl/text-lines byteCopyLines). Cached per path while the file keeps its size and mtime (the
 * last one read whatever its size); a session read by several pages at once is read once. Null when `source` is not such an agent.
 * @throws the fs error when the file cannot be read.
 */
export async function readAgentTranscript(source: string, filePath: string): Promise<AgentTranscript | null> {
  const agent = agentSource(source);
  if (agent === null) return null;
  const st = statSync(filePath);
  const stamp = fileStamp(st);
  if (last !== null && last.filePath === filePath && last.stamp === stamp) return last.transcript;
  const transcript = await cache.getOrBuild(filePath, stamp, async () => {
    const data = await readWhole(filePath, st);
    // Each line decoded on its own (issue 38: a 12 MB chat's text decoded whole and split by a regex cost ~30 ms of its first page).
    const transcript = agent.parseLines(byteCopyLines(data).lines, filePath);
    return { value: transcript, bytes: 4 * data.length + 200 * transcript.records.length };
  });
  last = { filePath, stamp, transcript };
  return transcript;
}

/** The lines read last by {@link readAgentLines}: the next window of the same file version replays nothing again. */
let lastLines: { filePath: string; stamp: string; lines: AgentLines } | null = null;

/**
 * Sessions at least this big have their line facts stored (issue 38: a cold window of a 12 MB
 * Gemini chat spent ~20 ms reading and replaying the whole chat, the viewer's first window of a
 * 2.4 MB Copilot session ~5 ms scanning it; below this a scan costs a millisecond or two).
 */
export const LINE_FACTS_MIN_BYTES = 1 << 20;

/** Where {@link readAgentLines} keeps and finds line facts: the workspace's `.casefile/index` (lib/workspace/sessions `workspaceIndexDir`). */
export type LineFactsStore = { cacheDir: string; log?: Logger };

/**
 * Lines of the workspace file `filePath` of an agent session (`source` as in
 * {@link readAgentTranscript}) read as its transcript reads them, for a window of them (issue 38: a
 * cold 2,000-line window of a 12 MB Gemini chat cost its whole read): the transcript's own when it
 * is cached; else, with a `store` holding the file's current line facts, the agent's
 * `linesFromFacts` (the window's lines read at once, any other line when its record is asked
 * for); else the agent's `readLines` of the file's bytes (each line's record made when asked for;
 * `window`, the 1-based lines whose records will be, read ahead), whose facts are stored in `store`
 * for a file of {@link LINE_FACTS_MIN_BYTES} or more; else the transcript read in full. Null when
 * `source` is not such an agent.
 * @throws the fs error when the file cannot be read.
 */
export async function readAgentLines(source: string, filePath: string, window?: { start: number; end: number }, store?: LineFactsStore): Promise<AgentLines | null> {
  const agent = agentSource(source);
  if (agent === null) return null;
  const st = statSync(filePath);
  const stamp = fileStamp(st);
  if (last !== null && last.filePath === filePath && last.stamp === stamp) return transcriptLines(last.transcript);
  const cached = cache.get(filePath, stamp);
  if (cached !== undefined) return transcriptLines(cached);
  if (lastLines !== null && lastLines.filePath === filePath && lastLines.stamp === stamp) return lastLines.lines;
  const keeps = store !== undefined && agent.linesFromFacts !== undefined && st.size >= LINE_FACTS_MIN_BYTES;
  if (keeps) {
    const lines = await linesFromStoredFacts(agent, filePath, st, store, window);
    if (lines !== null) {
      lastLines = { filePath, stamp, lines };
      return lines;
    }
  }
  if (agent.readLines !== undefined) {
    const lines = agent.readLines(await readWhole(filePath, st), filePath, window);
    if (lines !== null) {
      // Lines whose facts are stored are not kept: they hold the file's bytes, and the next read takes the facts.
      const stored = keeps && lines.facts !== undefined && (await writeLineFacts(store.cacheDir, path.resolve(filePath), agent.name, st, lines.facts()));
      lastLines = stored ? null : { filePath, stamp, lines };
      return lines;
    }
  }
  const transcript = await readAgentTranscript(source, filePath);
  return transcript === null ? null : transcriptLines(transcript);
}

/**
 * Stores the line facts of the workspace file `filePath` of an agent session (`source`) in `store`
 * unless they are stored already, when its source has them and the file is at least
 * {@link LINE_FACTS_MIN_BYTES}: the catalog does it for the sessions it reads in full, so their first
 * window reads only its own lines. Never throws (a session that cannot be read is left to its reader).
 */
export async function storeAgentLineFacts(source: string, filePath: string, store: LineFactsStore): Promise<void> {
  const agent = agentSource(source);
  if (agent?.readLines === undefined || agent.linesFromFacts === undefined) return;
  try {
    const st = statSync(filePath);
    if (st.size < LINE_FACTS_MIN_BYTES || readLineFacts(store.cacheDir, path.resolve(filePath), agent.name, st, store.log) !== null) return;
    const facts = agent.readLines(await readWhole(filePath, st), filePath)?.facts?.();
    if (facts !== undefined) await writeLineFacts(store.cacheDir, path.resolve(filePath), agent.name, st, facts);
  } catch {
    /* NOTE: deliberately ignored, see above */
  }
}

/** {@link readAgentLines}' read from the stored facts of a file (`st`: its stat just taken), else null (none current, or not the reader's). */
async function linesFromStoredFacts(agent: AgentSource, filePath: string, st: Stats, store: LineFactsStore, window?: { start: number; end: number }): Promise<AgentLines | null> {
  const key = path.resolve(filePath);
  const facts = readLineFacts(store.cacheDir, key, agent.name, st, store.log);
  if (facts === null) return null;
  const index = await getLineIndex(key, store.cacheDir, store.log);
  if (index.size !== st.size || index.mtimeMs !== st.mtimeMs) return null;
  // The window's lines are read at once; a line asked for outside them with the unread lines
  // around it, up to OUTSIDE_READ_BYTES (a compact block edging past a viewer window, an ending).
  const read = new Map<number, Buffer>();
  const from = Math.max(1, window?.start ?? 1);
  const to = Math.min(index.lineCount, window?.end ?? 0);
  if (from <= to) for (const l of await readLineRangeBytes(key, index, from, to)) read.set(l.line, l.bytes);
  // Lines whose text was given (a record is made once): never read again.
  const given = new Set<number>();
  const unread = (line: number) => line >= 1 && line <= index.lineCount && !read.has(line) && !given.has(line);
  const lineText = (line: number): string => {
    let bytes = read.get(line);
    if (bytes === undefined) {
      // The unread lines around it, half the budget each way (pages read forward, an ending backward).
      let first = line;
      let end = line;
      while (unread(end + 1) && index.starts[end]! - index.starts[line - 1]! < OUTSIDE_READ_BYTES / 2) end++;
      while (unread(first - 1) && index.starts[line - 1]! - index.starts[first - 2]! < OUTSIDE_READ_BYTES / 2) first--;
      for (const l of readLineRangeBytesSync(key, index, first, end)) read.set(l.line, l.bytes);
      bytes = read.get(line)!;
    }
    read.delete(line);
    given.add(line);
    return bytes.toString("utf8");
  };
  return agent.linesFromFacts!(facts, index.lineCount, lineText, filePath);
}

/** Bytes read ahead with a line asked for outside the lines read (see {@link linesFromStoredFacts}). */
const OUTSIDE_READ_BYTES = 256 << 10;

/**
 * Files up to this size are stat and read on the calling thread: a thread-pool round trip cost more
 * than such a read (a catalog refresh reads thousands of small agent sessions, three times each).
 */
const SYNC_READ_MAX_BYTES = 1 << 20;

/** The file's bytes: read on this thread when `st` (its stat just taken) says it is small, else on the thread pool. */
function readWhole(filePath: string, st: Stats): Promise<Buffer> {
  return st.size <= SYNC_READ_MAX_BYTES ? Promise.resolve(readFileSync(filePath)) : fs.readFile(filePath);
}
