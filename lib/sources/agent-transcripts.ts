/** A prepared agent session read back from its workspace file, cached while the file is unchanged. */
import { readFileSync, statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { fileStamp } from "@/lib/fs/file-stamp";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { agentSource } from "@/lib/sources/agents";
import { transcriptLines, type AgentLines, type AgentTranscript } from "@/lib/sources/common/agent-source";

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
 * Lines of the workspace file `filePath` of an agent session (`source` as in
 * {@link readAgentTranscript}) read as its transcript reads them, for a window of them (issue 38: a
 * cold 2,000-line window of a 12 MB Gemini chat cost its whole read): the transcript's own when it
 * is cached, else the agent's `readLines` of the file's bytes (each line's record made when asked
 * for; `window`, the 1-based lines whose records will be, read ahead), else the transcript read in
 * full. Null when `source` is not such an agent.
 * @throws the fs error when the file cannot be read.
 */
export async function readAgentLines(source: string, filePath: string, window?: { start: number; end: number }): Promise<AgentLines | null> {
  const agent = agentSource(source);
  if (agent === null) return null;
  const st = statSync(filePath);
  const stamp = fileStamp(st);
  if (last !== null && last.filePath === filePath && last.stamp === stamp) return transcriptLines(last.transcript);
  const cached = cache.get(filePath, stamp);
  if (cached !== undefined) return transcriptLines(cached);
  if (lastLines !== null && lastLines.filePath === filePath && lastLines.stamp === stamp) return lastLines.lines;
  if (agent.readLines !== undefined) {
    const lines = agent.readLines(await readWhole(filePath, st), filePath, window);
    if (lines !== null) {
      lastLines = { filePath, stamp, lines };
      return lines;
    }
  }
  const transcript = await readAgentTranscript(source, filePath);
  return transcript === null ? null : transcriptLines(transcript);
}

/**
 * Files up to this size are stat and read on the calling thread: a thread-pool round trip cost more
 * than such a read (a catalog refresh reads thousands of small agent sessions, three times each).
 */
const SYNC_READ_MAX_BYTES = 1 << 20;

/** The file's bytes: read on this thread when `st` (its stat just taken) says it is small, else on the thread pool. */
function readWhole(filePath: string, st: Stats): Promise<Buffer> {
  return st.size <= SYNC_READ_MAX_BYTES ? Promise.resolve(readFileSync(filePath)) : fs.readFile(filePath);
}
