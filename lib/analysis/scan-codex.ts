/** The Codex analysis pass: token points and resets from a rollout's `token_count` snapshots. */
import fs from "node:fs/promises";

import { ResetDetector } from "@/lib/analysis/context-resets";
import { walkRecords } from "@/lib/jsonl/record-walk";
import type { TokenPoint } from "@/lib/analysis/schema";
import { mapRangesOnPool } from "@/lib/jsonl/range-pool";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";
import { findWorkscopePattern } from "@/lib/sources/common/workscope";
import { isJsonObject, parseJsonObject } from "@/lib/sources/common/json-object";

/** What one pass over a Codex rollout yields. */
export type CodexScan = {
  lineCount: number;
  points: TokenPoint[];
  resets: ReturnType<ResetDetector["finish"]>;
  workscopeId: string | null;
  tokenCountEvents: number;
  unparsable: number;
};

const TOKEN_COUNT = Buffer.from('"token_count"');

/**
 * Scans a Codex rollout ({@link scanCodexRange} over the whole file, as one range of
 * lib/jsonl/range-pool's `mapRangesOnPool`): in this thread, except in a process that keeps its main
 * thread free (a server) for a file of 64 MiB and more, which a worker scans, so the project
 * page's background risk analysis of a big rollout never holds the requests that come meanwhile
 * (issue 13); it runs here if no worker can start.
 * @throws the fs error when the file cannot be read.
 */
export async function scanCodexSession(filePath: string, threshold: number): Promise<CodexScan> {
  const { size } = await fs.stat(filePath);
  // Line numbers unknown yet (0, as lib/jsonl/range-lines leaves them): the walk reads bytes.
  const whole: LineRange = { firstLine: 1, lastLine: 0, startByte: 0, endByte: size };
  let scan: CodexScan | undefined;
  await mapRangesOnPool<number, CodexScan>(() => startWorker(import.meta.url, "./codex-worker.ts"), scanCodexRange, filePath, [whole], threshold, (result) => (scan = result));
  return scan!;
}

/**
 * Scans bytes `[0, range.endByte)` of a Codex rollout (issue 10 §5; the whole file, as
 * {@link scanCodexSession} calls it): one token point per `event_msg` `token_count` snapshot
 * with an `info` object, from its `last_token_usage` (the last response): `cache_read` =
 * `cached_input_tokens`, `input` = `input_tokens − cached_input_tokens` (Codex's input count
 * includes cached input), `output` = `output_tokens`; `cache_creation` is null (Codex records
 * none). A snapshot repeating the previous cumulative `total_token_usage` is a duplicate and
 * skipped. Resets use seed 003's rule on `cache_read`. Only lines naming `"token_count"` are parsed.
 * @throws the fs error when the file cannot be read.
 */
export async function scanCodexRange(filePath: string, range: LineRange, threshold: number): Promise<CodexScan> {
  const detector = new ResetDetector(threshold);
  const points: TokenPoint[] = [];
  let workscopeId: string | null = null;
  let lastTotal = "";
  let events = 0;
  let unparsable = 0;
  const end = await walkRecords(filePath, 0, range.endByte, (bytes, line) => {
    if (workscopeId === null) workscopeId = findWorkscopePattern(bytes);
    if (bytes.indexOf(TOKEN_COUNT) === -1) return;
    const record = parseJsonObject(bytes.toString("utf8"));
    if (record === null) {
      unparsable += 1;
      return;
    }
    const payload = isJsonObject(record.payload) ? record.payload : null;
    if (record.type !== "event_msg" || payload?.type !== "token_count" || !isJsonObject(payload.info)) return;
    const last = isJsonObject(payload.info.last_token_usage) ? payload.info.last_token_usage : null;
    if (last === null) return;
    events += 1;
    const total = JSON.stringify(payload.info.total_token_usage ?? null);
    if (total === lastTotal) return;
    lastTotal = total;
    const input = count(last.input_tokens);
    const cached = count(last.cached_input_tokens);
    const point: TokenPoint = { line, cache_read: cached, cache_creation: null, input: Math.max(0, input - cached), output: count(last.output_tokens) };
    points.push(point);
    detector.observe(point);
  });
  const lineCount = end.lastLine;
  return { lineCount, points, resets: detector.finish(lineCount), workscopeId, tokenCountEvents: events, unparsable };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
