/** Seed 003's analysis of one session file: the scan of its source, then reads, persistence and resets joined with the workspace's side files. */
import { AGENT_READS_REASON, agentContextResets, agentTokenNotes, agentTokenPoints, agentUnreadableLines } from "@/lib/analysis/agent-analysis";
import { summarizeResets } from "@/lib/analysis/context-resets";
import { scanClaudeSession, type ClaudeScan } from "@/lib/analysis/scan-claude";
import { scanCodexSession } from "@/lib/analysis/scan-codex";
import { DEFAULT_RESET_THRESHOLD, type ContextReset, type FileRead, type PairedExport, type SessionAnalysis, type TokenPoint } from "@/lib/analysis/schema";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { transcriptFormat } from "@/lib/sources/transcript-formats";

/** Workspace facts about a session's side files, gathered by the caller. */
export type SessionSideFiles = {
  /** File names under the session's `tool-results/` folder; null when the folder does not exist. */
  toolResultFiles: string[] | null;
  hasSubagents: boolean;
  export: PairedExport | null;
};

const NO_SIDE_FILES: SessionSideFiles = { toolResultFiles: null, hasSubagents: false, export: null };

/**
 * Analyses one session file (seed 003, issue 10) in a single streamed pass: resets, risk,
 * token progression, reads, persistence mapping, markers and Workscope ID. The format of `source`
 * (lib/sources/formats `analysis.scan`) selects the scan: a `token-counts` source (Codex) gives
 * tokens and resets only, reads and persistence reported as unavailable with its reason, never as 0. A session of an agent read through the source contract
 * (lib/sources/agents) is read by its reader: tokens and resets from the usage on its lines
 * (lib/analysis/agent-analysis), reads and persistence unavailable with the reason.
 * @param threshold reset threshold in tokens (default 10,000).
 * @throws the fs error when the file cannot be read.
 */
export async function analyzeSessionFile(
  filePath: string,
  source: string,
  threshold: number = DEFAULT_RESET_THRESHOLD,
  side: SessionSideFiles = NO_SIDE_FILES,
): Promise<SessionAnalysis> {
  // What both sources report alike, in the result's key order: the side files, then the scan's lines, resets and tokens.
  const common = (scan: { lineCount: number; resets: ContextReset[]; points: TokenPoint[] }) => ({
    source,
    threshold,
    has_subagents: side.hasSubagents,
    has_tool_results: (side.toolResultFiles?.length ?? 0) > 0,
    export: side.export,
    line_count: scan.lineCount,
    ...summarizeResets(scan.resets),
    resets: scan.resets,
    token_points: scan.points,
  });
  const transcript = await readAgentTranscript(source, filePath);
  if (transcript !== null) {
    const points = agentTokenPoints(transcript);
    const unavailable = { value: null, reason: AGENT_READS_REASON };
    return {
      ...common({ lineCount: transcript.records.length, resets: agentContextResets(transcript, threshold), points }),
      token_notes: agentTokenNotes(transcript, points),
      reads: unavailable,
      read_batches: 0,
      persistence: unavailable,
      markers: [],
      marker_mentions_in_conversation: 0,
      workscope_id: null,
      workscope_id_source: null,
      unparsable_lines: agentUnreadableLines(transcript),
    };
  }
  const analysis = transcriptFormat(source)?.analysis;
  if (analysis?.scan === "token-counts") {
    const scan = await scanCodexSession(filePath, threshold);
    const reason = analysis.readsUnavailable;
    return {
      ...common(scan),
      token_notes: [
        "Codex records no cache creation tokens: that series is left out (null), not drawn as 0.",
        ...(scan.tokenCountEvents === 0 ? ["This rollout has no token_count event with usage figures (last_token_usage): no token figures."] : []),
      ],
      reads: { value: null, reason },
      read_batches: 0,
      persistence: { value: null, reason },
      markers: [],
      marker_mentions_in_conversation: 0,
      workscope_id: scan.workscopeId,
      workscope_id_source: scan.workscopeId ? "pattern" : null,
      unparsable_lines: scan.unparsable,
    };
  }
  const scan = await scanClaudeSession(filePath, threshold);
  const persistedIds = persistedToolUseIds(side.toolResultFiles);
  finishReads(scan.reads, scan.resets, persistedIds);
  return {
    ...common(scan),
    token_notes: scan.points.length === 0 ? ["No assistant record carries usage: no token figures."] : [],
    reads: scan.reads,
    read_batches: scan.readBatches,
    persistence: persistenceMapping(scan, persistedIds),
    markers: scan.markers,
    marker_mentions_in_conversation: scan.markerMentions,
    workscope_id: scan.workscopeId,
    workscope_id_source: scan.workscopeSource,
    unparsable_lines: scan.unparsable,
  };
}

/** `tool-results/<tool_use_id>.<ext>` → tool_use_id → file name; null when there is no folder. */
function persistedToolUseIds(files: string[] | null): Map<string, string> | null {
  if (files === null) return null;
  const ids = new Map<string, string>();
  for (const name of files) {
    const dot = name.indexOf(".");
    ids.set(dot === -1 ? name : name.slice(0, dot), name);
  }
  return ids;
}

/** Sets `persisted` and `reset_before_use_line` on every read once the resets are known. */
function finishReads(reads: FileRead[], resets: ContextReset[], persisted: Map<string, string> | null): void {
  const lines = resets.map((r) => r.session_line); // ascending: resets are found in file order
  for (const read of reads) {
    read.persisted = persisted?.has(read.tool_use_id) ?? false;
    const after = read.result_line ?? read.line;
    const until = Math.max(read.last_use_line ?? 0, read.first_use_line ?? 0);
    const next = lines[firstAbove(lines, after)];
    read.reset_before_use_line = next !== undefined && next <= until ? next : null;
  }
}

/** Index of the first element of ascending `xs` greater than `x` (xs.length when none). */
function firstAbove(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function persistenceMapping(scan: ClaudeScan, persisted: Map<string, string> | null): SessionAnalysis["persistence"] {
  const ids = persisted ?? new Map<string, string>();
  const readIds = new Set(scan.reads.map((r) => r.tool_use_id));
  return {
    persisted_reads: scan.reads.filter((r) => ids.has(r.tool_use_id)).map((r) => r.tool_use_id),
    inline_reads: scan.reads.filter((r) => !ids.has(r.tool_use_id)).map((r) => r.tool_use_id),
    persisted_non_reads: [...ids]
      .filter(([id]) => !readIds.has(id))
      .map(([id, file]) => ({ tool_use_id: id, tool_name: scan.toolNames.get(id) ?? null, file_name: file }))
      .sort((a, b) => a.tool_use_id.localeCompare(b.tool_use_id)),
  };
}
