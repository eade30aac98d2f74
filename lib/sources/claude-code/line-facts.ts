import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import type { LineRange } from "@/lib/jsonl/parallel";
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { claudeUsageFact, type ClaudeUsageFact } from "@/lib/sources/claude-code/turn-usage";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";

/**
 * What one physical line of a Claude Code transcript contributes to `analyzeClaudeTranscript`
 * (contract §1.7–§1.9), small and structured-cloneable so that ranges of a big file can be read
 * in worker threads and folded in file order on the main thread (issue 13).
 */
export type ClaudeLineFact = {
  /** Not a JSON object (the contract's malformed line). */
  malformed: boolean;
  /** Top-level `type` when a string. */
  type: string | null;
  isSidechain: boolean;
  /** Aware `timestamp`, epoch ms, else null. */
  timestampMs: number | null;
  /** A human trigger by the record rules. */
  isTrigger: boolean;
  /** First-message text (≤ 500 code points) of a timestamped trigger: only until one is non-null in the stream or range. */
  firstMessage: string | null;
  /** Its contribution to the turn's output tokens. */
  usage: ClaudeUsageFact;
  /** Its contribution to the listed output tokens (`getTurnUsage`), or null when that reader skips the line. */
  listed: ClaudeUsageFact | null;
};

/** Stream-level facts gathered beside the per-line ones: first non-blank `cwd` and `sessionId` of a JSON-object line. */
export type ClaudeStreamFacts = { cwd: string | null; sessionId: string | null; firstMessageFound: boolean };

/** A fresh {@link ClaudeStreamFacts}. */
export function newStreamFacts(): ClaudeStreamFacts {
  return { cwd: null, sessionId: null, firstMessageFound: false };
}

/**
 * The fact of the line `bytes[start, end)` (terminator up to `next`): decoded alone (WHATWG
 * replacement, BOM kept) and parsed once with `JSON.parse`; updates `stream`.
 */
export function claudeLineFact(bytes: Buffer, start: number, end: number, next: number, stream: ClaudeStreamFacts): ClaudeLineFact {
  const record = parseJsonObject(bytes.toString("utf8", start, end));
  const listedRecord = listedRecordOf(bytes, start, end, next, record);
  const listed = listedRecord === undefined ? null : claudeUsageFact(listedRecord);
  if (record === null) return { malformed: true, type: null, isSidechain: false, timestampMs: null, isTrigger: false, firstMessage: null, usage: "invalid", listed };
  const cls = classifyClaudeRecord(record);
  stream.cwd ??= nonBlankString(record.cwd);
  stream.sessionId ??= nonBlankString(record.sessionId);
  let firstMessage: string | null = null;
  if (cls.isTrigger && cls.timestampMs !== null && !stream.firstMessageFound) {
    firstMessage = firstMessageText(record);
    stream.firstMessageFound = firstMessage !== null;
  }
  return { malformed: false, type: cls.type, isSidechain: cls.isSidechain, timestampMs: cls.timestampMs, isTrigger: cls.isTrigger, firstMessage, usage: claudeUsageFact(record), listed };
}

/** What a worker returns for one byte range: its line facts in order, its line starts (absolute byte offsets) and stream facts. */
export type ClaudeRangeFacts = { facts: ClaudeLineFact[]; starts: Float64Array; stream: ClaudeStreamFacts };

/**
 * The facts of every line in bytes `[range.startByte, range.endByte)` (line numbers are not
 * needed: the caller folds ranges in order). The worker task of `analyzeClaudeTranscript`.
 * @throws the fs error when the file cannot be read.
 */
export async function claudeRangeFacts(filePath: string, range: LineRange): Promise<ClaudeRangeFacts> {
  const stream = newStreamFacts();
  const facts: ClaudeLineFact[] = [];
  const starts: number[] = [];
  let offset = range.startByte;
  for await (const { bytes, start, end, next } of streamLineBytes(filePath, { range: { startByte: range.startByte, endByte: range.endByte, firstLine: 1 } })) {
    starts.push(offset);
    offset += next - start;
    facts.push(claudeLineFact(bytes, start, end, next, stream));
  }
  return { facts, starts: new Float64Array(starts), stream };
}

const ASSISTANT = Buffer.from('"assistant"');

/**
 * What `getTurnUsage` observes for a line: nothing (undefined) unless the line's bytes, terminator
 * included, hold `"assistant"`; then the parse of the decoded line with trailing whitespace
 * trimmed. That is `record` itself whenever the line ends in `}` before a `\n`, `\r\n` or EOF
 * (nothing to trim); any other ending is parsed the slow, exact way.
 */
function listedRecordOf(bytes: Buffer, start: number, end: number, next: number, record: JsonObject | null): JsonObject | null | undefined {
  if (bytes.subarray(start, next).indexOf(ASSISTANT) === -1) return undefined;
  const terminator = next - end;
  const plainEnd = terminator === 0 || (terminator === 1 && bytes[end] === 0x0a) || (terminator === 2 && bytes[end] === 0x0d);
  if (plainEnd && end > start && bytes[end - 1] === 0x7d) return record;
  return parseJsonObject(bytes.toString("utf8", start, next).trimEnd());
}

const FIRST_MESSAGE_MAX = 500;

function firstMessageText(record: Record<string, unknown>): string | null {
  const text = claudeUserText(record).trim();
  if (text === "") return null;
  const chars = Array.from(text); // code points, so a surrogate pair is never split
  return chars.length <= FIRST_MESSAGE_MAX ? text : chars.slice(0, FIRST_MESSAGE_MAX).join("").trimEnd();
}

function nonBlankString(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}
