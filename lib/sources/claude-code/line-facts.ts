/** What one physical line of a Claude Code transcript contributes to its analysis, packed in columns. */
import { readRangeLines } from "@/lib/jsonl/range-lines";
import type { LineRange } from "@/lib/jsonl/workers";
import { classifyClaudeRecord, claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { TURN_FIELDS, TURN_FIELDS_ONLY } from "@/lib/sources/claude-code/skim-plans";
import { claudeUsageFact, type ClaudeUsageFact } from "@/lib/sources/claude-code/turn-usage";
import { parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { Columns, ValueTable } from "@/lib/columns/typed-columns";

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

/**
 * Takes the record a line's fact was made from, with at least the fields of `TURN_FIELDS_ONLY`
 * built (skim-plans), and its aware `timestamp` (epoch ms, null when none): valid only during the call.
 */
export type LineRecordSink = (record: JsonObject, timestampMs: number | null) => void;

/** Stream-level facts gathered beside the per-line ones: first non-blank `cwd` and `sessionId` of a JSON-object line. */
export type ClaudeStreamFacts = { cwd: string | null; sessionId: string | null; firstMessageFound: boolean };

/** A fresh {@link ClaudeStreamFacts}. */
export function newStreamFacts(): ClaudeStreamFacts {
  return { cwd: null, sessionId: null, firstMessageFound: false };
}

/**
 * The fact of the line `bytes[start, end)` (terminator up to `next`), exactly as if it were
 * decoded alone (WHATWG replacement, BOM kept) and parsed with `JSON.parse`; updates `stream`.
 * Most lines are settled by the byte-level skim (lib/sources/common/skim: the whole line's
 * grammar checked, string contents included, and only {@link TURN_FIELDS} built), so the bytes of
 * tool output and file snapshots are never decoded (issue 13). A line the skim cannot settle, a
 * blank line, and the first timestamped trigger (whose text becomes the first message) are parsed
 * whole. `onRecord` is given the line's record (skimmed or parsed; a malformed line has none) and
 * its aware timestamp.
 */
export function claudeLineFact(bytes: Buffer, start: number, end: number, next: number, stream: ClaudeStreamFacts, onRecord?: LineRecordSink): ClaudeLineFact {
  const plan = stream.cwd === null || stream.sessionId === null ? TURN_FIELDS : TURN_FIELDS_ONLY;
  const skimmed = skimLine(bytes, start, end, plan);
  if (skimmed === null || skimmed === BLANK) return claudeLineFactByParse(bytes, start, end, next, stream, onRecord);
  const record = skimmed.record;
  const cls = classifyClaudeRecord(record, skimmed.timestampMs);
  if (cls.isTrigger && cls.timestampMs !== null && !stream.firstMessageFound) return claudeLineFactByParse(bytes, start, end, next, stream, onRecord);
  onRecord?.(record, cls.timestampMs);
  stream.cwd ??= nonBlankString(record.cwd);
  stream.sessionId ??= nonBlankString(record.sessionId);
  const usage = claudeUsageFact(record);
  return { malformed: false, type: cls.type, isSidechain: cls.isSidechain, timestampMs: cls.timestampMs, isTrigger: cls.isTrigger, firstMessage: null, usage, listed: listedOfObject(bytes, start, end, next, record, usage) };
}

/**
 * {@link claudeLineFact} by `JSON.parse` of the decoded line: the reference, and the path of the
 * lines the skim leaves. Same arguments and result.
 */
export function claudeLineFactByParse(bytes: Buffer, start: number, end: number, next: number, stream: ClaudeStreamFacts, onRecord?: LineRecordSink): ClaudeLineFact {
  const record = parseJsonObject(bytes.toString("utf8", start, end));
  const listedRecord = listedRecordOf(bytes, start, end, next, record);
  const listed = listedRecord === undefined ? null : claudeUsageFact(listedRecord);
  if (record === null) return { malformed: true, type: null, isSidechain: false, timestampMs: null, isTrigger: false, firstMessage: null, usage: "invalid", listed };
  const cls = classifyClaudeRecord(record);
  onRecord?.(record, cls.timestampMs);
  stream.cwd ??= nonBlankString(record.cwd);
  stream.sessionId ??= nonBlankString(record.sessionId);
  let firstMessage: string | null = null;
  if (cls.isTrigger && cls.timestampMs !== null && !stream.firstMessageFound) {
    firstMessage = firstMessageText(record);
    stream.firstMessageFound = firstMessage !== null;
  }
  return { malformed: false, type: cls.type, isSidechain: cls.isSidechain, timestampMs: cls.timestampMs, isTrigger: cls.isTrigger, firstMessage, usage: claudeUsageFact(record), listed };
}

/**
 * The facts of a byte range in columns (typed arrays, so the copy between threads and the
 * garbage they leave stay small; issue 13). Read them back in order with {@link factColumnsReader}.
 */
export type ClaudeFactColumns = {
  count: number;
  /** Bit 0 malformed, bit 1 isSidechain, bit 2 isTrigger. */
  flags: Uint8Array;
  /** `timestampMs`, NaN for null. */
  timestamps: Float64Array;
  /** Index into `types` of each line's `type`. */
  typeIndex: Uint32Array;
  types: (string | null)[];
  /** Usage fact kinds: 0 skip, 1 invalid, 2 `[identity, tokens]` (identities in order in `usageIds`); listed also 3 for null. */
  usageKind: Uint8Array;
  usageTokens: Float64Array;
  usageIds: string[];
  listedKind: Uint8Array;
  listedTokens: Float64Array;
  listedIds: string[];
  /** `[line index in the range, text]` of every non-null `firstMessage`. */
  firstMessages: [number, string][];
};

/** What a worker returns for one byte range: its line facts, its line starts (absolute byte offsets) and stream facts. */
export type ClaudeRangeFacts = { columns: ClaudeFactColumns; starts: Float64Array; stream: ClaudeStreamFacts };

/**
 * The facts of every line in bytes `[range.startByte, range.endByte)` (line numbers are not
 * needed: the caller folds ranges in order). The worker task of `analyzeClaudeTranscript`.
 * @throws the fs error when the file cannot be read.
 */
export async function claudeRangeFacts(filePath: string, range: LineRange): Promise<ClaudeRangeFacts> {
  const stream = newStreamFacts();
  const columns = new FactColumnsWriter((range.endByte - range.startByte) / 2048);
  const starts = await readRangeLines(filePath, range, (bytes, start, end, next) => columns.push(claudeLineFact(bytes, start, end, next, stream)));
  return { columns: columns.finish(), starts, stream };
}

/** Reads {@link ClaudeFactColumns} back as facts, in order; the returned object is reused between calls. */
export function factColumnsReader(columns: ClaudeFactColumns): () => ClaudeLineFact {
  let i = 0;
  let usageId = 0;
  let listedId = 0;
  let firstAt = 0;
  const usagePair: [string, number] = ["", 0];
  const listedPair: [string, number] = ["", 0];
  const fact: ClaudeLineFact = { malformed: false, type: null, isSidechain: false, timestampMs: null, isTrigger: false, firstMessage: null, usage: "skip", listed: null };
  const decode = (kind: number, tokens: number, ids: string[], next: () => number, pair: [string, number]): ClaudeUsageFact | null => {
    if (kind === 0) return "skip";
    if (kind === 1) return "invalid";
    if (kind === 3) return null;
    pair[0] = ids[next()]!;
    pair[1] = tokens;
    return pair;
  };
  return () => {
    const flags = columns.flags[i]!;
    fact.malformed = (flags & 1) !== 0;
    fact.isSidechain = (flags & 2) !== 0;
    fact.isTrigger = (flags & 4) !== 0;
    const ts = columns.timestamps[i]!;
    fact.timestampMs = Number.isNaN(ts) ? null : ts;
    fact.type = columns.types[columns.typeIndex[i]!]!;
    const first = columns.firstMessages[firstAt];
    fact.firstMessage = first !== undefined && first[0] === i ? (firstAt++, first[1]) : null;
    fact.usage = decode(columns.usageKind[i]!, columns.usageTokens[i]!, columns.usageIds, () => usageId++, usagePair)!;
    fact.listed = decode(columns.listedKind[i]!, columns.listedTokens[i]!, columns.listedIds, () => listedId++, listedPair);
    i += 1;
    return fact;
  };
}

/** The per-line columns of {@link ClaudeFactColumns}. */
type FactRows = { flags: Uint8Array; timestamps: Float64Array; typeIndex: Uint32Array; usageKind: Uint8Array; usageTokens: Float64Array; listedKind: Uint8Array; listedTokens: Float64Array };
const FACT_ROWS = { flags: Uint8Array, timestamps: Float64Array, typeIndex: Uint32Array, usageKind: Uint8Array, usageTokens: Float64Array, listedKind: Uint8Array, listedTokens: Float64Array } as const;

class FactColumnsWriter {
  private readonly rows: Columns<FactRows>;
  private readonly types = new ValueTable<string | null>();
  private readonly usageIds: string[] = [];
  private readonly listedIds: string[] = [];
  private readonly firstMessages: [number, string][] = [];

  constructor(capacity: number) {
    this.rows = new Columns(FACT_ROWS, capacity);
  }

  push(fact: ClaudeLineFact): void {
    const i = this.rows.add();
    const c = this.rows.cols;
    c.flags[i] = (fact.malformed ? 1 : 0) | (fact.isSidechain ? 2 : 0) | (fact.isTrigger ? 4 : 0);
    c.timestamps[i] = fact.timestampMs ?? NaN;
    c.typeIndex[i] = this.types.id(fact.type);
    if (fact.firstMessage !== null) this.firstMessages.push([i, fact.firstMessage]);
    c.usageKind[i] = encode(fact.usage, c.usageTokens, this.usageIds, i);
    c.listedKind[i] = encode(fact.listed, c.listedTokens, this.listedIds, i);
  }

  finish(): ClaudeFactColumns {
    const count = this.rows.count;
    return { count, ...this.rows.take(), types: this.types.values, usageIds: this.usageIds, listedIds: this.listedIds, firstMessages: this.firstMessages };
  }
}

function encode(fact: ClaudeUsageFact | null, tokens: Float64Array, ids: string[], i: number): number {
  if (fact === null) return 3;
  if (fact === "skip") return 0;
  if (fact === "invalid") return 1;
  tokens[i] = fact[1];
  ids.push(fact[0]);
  return 2;
}

const ASSISTANT = Buffer.from('"assistant"');

/**
 * {@link listedRecordOf} for a line known to be a JSON object whose usage fact is `usage`, without
 * searching non-assistant lines: their fact is "skip" whether or not `getTurnUsage` observes them,
 * and "skip" and null (not observed) fold the same way.
 */
function listedOfObject(bytes: Buffer, start: number, end: number, next: number, record: JsonObject, usage: ClaudeUsageFact): ClaudeUsageFact | null {
  if (usage === "skip") return null;
  const listedRecord = listedRecordOf(bytes, start, end, next, record);
  return listedRecord === undefined ? null : listedRecord === record ? usage : claudeUsageFact(listedRecord);
}

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
