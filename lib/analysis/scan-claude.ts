/** The Claude Code analysis pass: ranges mapped (on workers for big files) and reduced in file order into token points, reads and markers. */
import fs from "node:fs/promises";

import { FACT_ASSISTANT, FACT_USER, mapClaudeRange, type ClaudeFacts, type UserOutcome } from "@/lib/analysis/claude-map";
import { ResetDetector } from "@/lib/analysis/context-resets";
import { splitRecordRanges } from "@/lib/jsonl/record-walk";
import type { FileRead, MarkerHit, TokenPoint } from "@/lib/analysis/schema";
import { mapRangesOnPool } from "@/lib/jsonl/range-pool";
import { rangeCount, startWorker } from "@/lib/jsonl/workers";

/** What one pass over a Claude Code transcript yields (before workspace facts are added). */
export type ClaudeScan = {
  lineCount: number;
  points: TokenPoint[];
  resets: ReturnType<ResetDetector["finish"]>;
  reads: FileRead[];
  readBatches: number;
  /** tool_use_id → tool name, for every tool_use seen. */
  toolNames: Map<string, string>;
  markers: MarkerHit[];
  markerMentions: number;
  workscopeId: string | null;
  workscopeSource: "pattern" | "date_output" | null;
  unparsable: number;
};

/** Files smaller than this are mapped in this thread: a worker costs ~50–300 ms to start. */
const PARALLEL_MIN_BYTES = 64 << 20;
/** The worker entry, relative to this module (see startWorker: built from variables for Next.js). */
const WORKER_ENTRY = "./claude-worker.ts";

/**
 * Scans one Claude Code transcript (seed 003, issue 10):
 * - token points and context resets from every `type: "assistant"` record's `message.usage`;
 * - every `Read` tool_use (batch = its `message.id`), its tool_result line and success
 *   (`is_error`), its first use (next assistant record) and last use (last assistant record
 *   naming the file's basename);
 * - phantom-read markers only when a tool_result's content *starts* with one; the strings
 *   elsewhere in conversation text (prompts, assistant text and tool inputs) are
 *   counted as mentions, never as markers (the seed's caveat); inside a tool_result's content
 *   (a file that discusses them) they are neither;
 * - the Workscope ID (first `Workscope ID: …`, else the first bare `date` output tool result).
 * Records are classified from their first bytes (lib/analysis/claude-map) and parsed only when
 * needed: assistant records, tool results answering an awaited Read with an error or starting
 * with a marker, and the first short tool results while no Workscope ID is known. Mentions are
 * looked for in message records ≤ 64 KB; records without a role are not conversation.
 * A file of 64 MB or more is split into byte ranges mapped on every core ({@link mapClaudeRange}
 * in workers, `CASEFILE_WORKERS` as in lib/jsonl/workers) and reduced in file order
 * ({@link reduceClaudeFacts}): the result is the one-pass result whatever the split.
 * @throws the fs error when the file cannot be read.
 */
export async function scanClaudeSession(filePath: string, threshold: number): Promise<ClaudeScan> {
  const { size } = await fs.stat(filePath);
  const parts = size < PARALLEL_MIN_BYTES ? 1 : rangeCount(size);
  const ranges = await splitRecordRanges(filePath, size, parts);
  const reducer = claudeReducer(threshold);
  // Ranges are reduced in file order as soon as they are mapped, while the others are still read.
  await mapRangesOnPool<undefined, ClaudeFacts>(() => startWorker(import.meta.url, WORKER_ENTRY), mapClaudeRange, filePath, ranges, undefined, (facts) => reducer.add(facts));
  return reducer.finish();
}

/**
 * The reduce half of {@link scanClaudeSession}: replays the ranges' facts (in file order)
 * through the sequential state — line numbers rebased by the line counts of the ranges
 * before, the reset detector, Read → result pairing (a result settles a Read only while it
 * awaits one), first and last use, the Workscope ID (the first pattern, else the first `date`
 * output before it).
 */
export function reduceClaudeFacts(parts: readonly ClaudeFacts[], threshold: number): ClaudeScan {
  const reducer = claudeReducer(threshold);
  for (const part of parts) reducer.add(part);
  return reducer.finish();
}

/**
 * {@link reduceClaudeFacts} one range at a time: `add` the ranges in file order (each is applied
 * at once, so the first range is reduced while the workers still read theirs), then `finish`.
 * Only the Workscope patterns of the ranges added so far matter to their lines.
 */
export function claudeReducer(threshold: number): { add: (part: ClaudeFacts) => void; finish: () => ClaudeScan } {
  const detector = new ResetDetector(threshold);
  const points: TokenPoint[] = [];
  const reads: FileRead[] = [];
  const readsById = new Map<string, FileRead>();
  const pendingResult = new Set<string>();
  const awaitingFirstUse: FileRead[] = [];
  const latestByBase = new Map<string, FileRead>();
  const toolNames = new Map<string, string>();
  const markers: MarkerHit[] = [];
  const batchOf = new Map<string, number>();
  let markerMentions = 0;
  let dateId: string | null = null;
  let unparsable = 0;
  let lineCount = 0;

  // The first Workscope ID pattern of the file, on its global line.
  let patternId: string | null = null;
  let patternLine = Number.POSITIVE_INFINITY;
  /** Lines of the ranges added so far. */
  let offset = 0;

  const settleRead = (id: string, line: number, isError: boolean) => {
    if (!pendingResult.delete(id)) return;
    const read = readsById.get(id)!;
    read.result_line = line;
    read.success = !isError;
    awaitingFirstUse.push(read);
  };

  const applyUser = (outcome: UserOutcome | "malformed", line: number) => {
    if (outcome === "malformed") {
      unparsable += 1;
      return;
    }
    for (const r of outcome.results) {
      if (r.marker) markers.push({ line, tool_use_id: r.id, marker: r.marker });
      if (dateId === null && patternLine > line) dateId = r.date;
      settleRead(r.id, line, r.isError);
    }
    if (outcome.mention) markerMentions += 1;
  };

  const add = (part: ClaudeFacts) => {
    if (patternId === null && part.pattern !== null) {
      patternId = part.pattern.id;
      patternLine = offset + part.pattern.line;
    }
    markerMentions += part.mentions;
    unparsable += part.unparsable;
    const { strs, outcomes, tokenNames, tokenRefs } = part;
    const str = (at: number): string | null => (at === -1 ? null : strs[at]!);
    for (const nums of part.nums) for (let at = 0; at < nums.length; ) {
      const kind = nums[at]!;
      const line = int(offset + nums[at + 1]!);
      if (kind === FACT_ASSISTANT) {
        if (nums[at + 2] === 1) {
          const point: TokenPoint = { line, cache_read: int(nums[at + 3]!), cache_creation: int(nums[at + 4]!), input: int(nums[at + 5]!), output: int(nums[at + 6]!) };
          points.push(point);
          detector.observe(point);
        }
        for (const read of awaitingFirstUse) read.first_use_line = line;
        awaitingFirstUse.length = 0;
        if (latestByBase.size > 0) {
          for (let i = nums[at + 8]!; i < nums[at + 9]!; i++) {
            const read = latestByBase.get(tokenNames[tokenRefs[i]!]!);
            if (read && read.line < line) read.last_use_line = line;
          }
        }
        const messageId = str(nums[at + 7]!);
        const useCount = nums[at + 10]!;
        at += 11;
        const newReads: FileRead[] = [];
        for (let u = 0; u < useCount; u++, at += 4) {
          const id = strs[nums[at]!]!;
          toolNames.set(id, strs[nums[at + 1]!]!);
          if (nums[at + 3] !== 1) continue;
          const batchKey = messageId ?? `line:${line}`;
          let batch = batchOf.get(batchKey);
          if (batch === undefined) batchOf.set(batchKey, (batch = batchOf.size + 1));
          const read: FileRead = {
            sequence: reads.length + 1,
            line,
            tool_use_id: id,
            file_path: str(nums[at + 2]!),
            batch,
            result_line: null,
            success: null,
            persisted: false,
            first_use_line: null,
            last_use_line: null,
            reset_before_use_line: null,
          };
          reads.push(read);
          readsById.set(id, read);
          pendingResult.add(id);
          newReads.push(read);
        }
        for (const read of newReads) if (read.file_path) latestByBase.set(basename(read.file_path), read);
      } else if (kind === FACT_USER) {
        applyUser(outcomes[nums[at + 2]!]!, line);
        at += 3;
      } else {
        const id = str(nums[at + 2]!);
        const ok = nums[at + 3] === 1;
        const dateProbe = nums[at + 4] === 1;
        const outcome = outcomes[nums[at + 5]!];
        at += 6;
        if (dateProbe && patternLine > line && dateId === null) applyUser(outcome!, line);
        else if (pendingResult.size === 0 || (id !== null && !pendingResult.has(id))) continue;
        else if (id !== null && ok) settleRead(id, line, false);
        else applyUser(outcome!, line);
      }
    }
    if (part.lastLine > 0) lineCount = offset + part.lastLine;
    offset += part.nextLine - 1;
  };

  const finish = (): ClaudeScan => ({
    lineCount,
    points,
    resets: detector.finish(lineCount),
    reads,
    readBatches: new Set(reads.map((r) => r.batch)).size,
    toolNames,
    markers,
    markerMentions,
    workscopeId: patternId ?? dateId,
    workscopeSource: patternId ? "pattern" : dateId ? "date_output" : null,
    unparsable,
  });
  return { add, finish };
}

/**
 * `x` held as V8 holds a small integer when it is an int32. A number read from a Float64Array is
 * a double, and an object field that ever held one keeps every value of that field boxed (a heap
 * number of its own): the 94,290 token points of the real-shaped 959 MB session took 13.6 MB as
 * doubles, 7 MB as small integers, in the server's heap while its analysis was built (issue 13).
 */
function int(x: number): number {
  return (x | 0) === x ? x | 0 : x;
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return i === -1 ? p : p.slice(i + 1);
}
