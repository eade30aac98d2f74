import type { LineRange } from "@/lib/jsonl/parallel";
import { readRangeLines } from "@/lib/jsonl/range-lines";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { CODEX_ENVELOPE, envelopeSuffices } from "@/lib/sources/codex/skim-plan";

/**
 * The record `CodexAnalyzer.pushRecord` needs of the line `bytes[start, end)` while the analyzer
 * is `skimmable` (an envelope-format file read without fork fingerprints): the skimmed envelope
 * when {@link envelopeSuffices} (the line's other bytes are checked, never built), else the
 * `JSON.parse`d object of the decoded line, null when it is not a JSON object (malformed or blank).
 */
export function codexLineRecord(bytes: Buffer, start: number, end: number): JsonObject | null {
  const skimmed = skimLine(bytes, start, end, CODEX_ENVELOPE);
  if (skimmed !== null && skimmed !== BLANK && envelopeSuffices(skimmed.record)) return skimmed.record;
  return parseJsonObject(bytes.toString("utf8", start, end));
}

/** What a worker returns for one byte range of a rollout: one {@link codexLineRecord} per line, and the lines' absolute start offsets. */
export type CodexRangeRecords = { records: (JsonObject | null)[]; starts: Float64Array };

/**
 * The {@link codexLineRecord} of every line in bytes `[range.startByte, range.endByte)` (line
 * numbers are not needed: the caller folds ranges in order). The worker task of
 * `analyzeCodexTranscript` for an envelope-format file read without fingerprints (issue 13).
 * @throws the fs error when the file cannot be read.
 */
export async function codexRangeRecords(filePath: string, range: LineRange): Promise<CodexRangeRecords> {
  const records: (JsonObject | null)[] = [];
  const starts = await readRangeLines(filePath, range, (bytes, start, end) => records.push(codexLineRecord(bytes, start, end)));
  return { records, starts };
}
