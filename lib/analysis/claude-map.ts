import { walkRecords } from "@/lib/analysis/record-walk";
import { PHANTOM_MARKERS, type PhantomMarker } from "@/lib/analysis/schema";
import type { LineRange } from "@/lib/jsonl/parallel";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { findWorkscopePattern, workscopeFromDateOutput } from "@/lib/workspace/workscope";

/**
 * The map half of the Claude Code analysis (seed 003, issue 10): what one byte range of a
 * transcript says, as order-independent facts with range-local line numbers (1 = the range's
 * first line). {@link reduceClaudeFacts} in scan-claude.ts replays them in file order through the
 * sequential state (reset detector, Read → result pairing, first/last use, Workscope ID), so a
 * file split into ranges read on several cores gives exactly the one-pass result.
 */

/** What a parsed user record contributes once its turn comes (see {@link ClaudeFacts}). */
export type UserOutcome = {
  /** The record's own text (string content or text blocks, records ≤ 64 KB) names a marker. */
  mention: boolean;
  /** Its tool_result blocks with a string tool_use_id, in order. */
  results: { id: string; isError: boolean; marker: PhantomMarker | null; date: string | null }[];
};

/** One assistant record (`type: "assistant"`). */
export type AssistantFact = {
  k: "a";
  line: number;
  /** `[cache_read, cache_creation, input, output]` of `message.usage`, or null without usage. */
  usage: [number, number, number, number] | null;
  /** `message.id` when a string (the Read batch key). */
  messageId: string | null;
  /**
   * Its distinct path-like tokens (text blocks, short tool input strings): indexes into
   * {@link ClaudeFacts.tokenRefs} `[tokensFrom, tokensTo)`, which index {@link ClaudeFacts.tokenNames}.
   */
  tokensFrom: number;
  tokensTo: number;
  /** Its tool_use blocks with a string id: `[id, name, file_path of a Read or null, isRead]`. */
  uses: [string, string, string | null, boolean][];
};

/** A user record parsed whatever the state: its outcome is applied as is. */
export type UserFact = { k: "u"; line: number; outcome: UserOutcome | "malformed" };

/**
 * A tool_result user record whose handling depends on the state (seed 003 scan): parsed for the
 * `date` Workscope fallback while no Workscope ID is known and it is ≤ 4 KB; else settled from its
 * bytes (`id`, `ok`: not a short record with `is_error: true`) when a Read awaits `id`; else parsed
 * (`outcome`) when the id is unknown or the result is an error.
 */
export type ResultFact = { k: "r"; line: number; id: string | null; ok: boolean; dateProbe: boolean; outcome: UserOutcome | "malformed" | null };

export type ClaudeFact = AssistantFact | UserFact | ResultFact;

/** The facts of one range. */
export type ClaudeFacts = {
  /** Local line after the range's last line (its physical line count + 1). */
  nextLine: number;
  /** Local line of its last record (0 when empty). */
  lastLine: number;
  facts: ClaudeFact[];
  /** Distinct path-like tokens of the range's assistant records. */
  tokenNames: string[];
  /** Token numbers of each assistant record (see {@link AssistantFact.tokensFrom}). */
  tokenRefs: Int32Array;
  /** First `Workscope ID: …` match in the range. */
  pattern: { line: number; id: string } | null;
  /** Marker mentions counted whatever the state (prompts, assistant records). */
  mentions: number;
  /** Unparsable lines counted whatever the state. */
  unparsable: number;
};

const B = (s: string) => Buffer.from(s);
const ASSISTANT = B('"assistant"');
/** The role of a message record is looked for in its first 2 KB (≤ 450 bytes in every corpus record). */
const ROLE_BYTES = 2 << 10;
/** A Read result larger than this carries the file: errors ("File does not exist", …) are short. */
const READ_ERROR_MAX_BYTES = 16 << 10;
/** A tool_result's content starts within this many bytes of its `"tool_result"` type (≤ 120 in the corpus). */
const CONTENT_START_BYTES = 512;
const TOOL_RESULT = B('"tool_result"');
const TOOL_USE_ID = B('"tool_use_id"');
const IS_ERROR = B('"is_error"');
/** Tool results above this size are taken to be successes carrying content (errors are short messages). */
const SMALL_RECORD_BYTES = 64 << 10;
/**
 * Records are classified from their first 4 KB: Claude Code writes the record's role
 * (`"role":"assistant"`) and the first tool_result's type, id and the start of its content
 * there (≤ 410 bytes in every corpus record).
 */
const HEAD_BYTES = 4 << 10;
const MARKER_PROBES = [B("persisted-output"), B("Old tool result content cleared")];
/** Lines at most this long are parsed while looking for the `date` Workscope fallback. */
const DATE_PROBE_MAX_BYTES = 4096;
/** Tool input strings longer than this are file contents, not references to a file. */
const USE_SCAN_MAX_CHARS = 4096;
/**
 * Path-like tokens in assistant text and tool inputs; matched by file basename. A token starts
 * only where the previous character cannot continue one (the lookbehind), so a long run of word
 * characters is tried once, not from each of its positions (that made the search quadratic).
 * No token holds `/` or `\`: a token is its own basename.
 */
const PATHISH = /(?<![\w@+~-])[\w@+~-][\w.@+~-]*\.[A-Za-z0-9]{1,10}/g;
/** A role key and value (the value's `\s*:\s*"word"` must fit in 24 bytes, see {@link roleIn}). */
const ROLE_RE = /"role"(\s*:\s*"(\w+)")/;

/**
 * Maps one range of a Claude Code transcript to {@link ClaudeFacts} (the classification rules
 * of {@link import("@/lib/analysis/scan-claude").scanClaudeSession}). Records are classified from
 * their first bytes; parsed are assistant records, tool results that start with a marker string
 * or whose id is missing or that are short errors, and — until the range shows a Workscope ID —
 * tool results ≤ 4 KB (the `date` fallback).
 * @throws the fs error when the file cannot be read.
 */
export async function mapClaudeRange(filePath: string, range: LineRange): Promise<ClaudeFacts> {
  const facts: ClaudeFact[] = [];
  const tokenIds = new Map<string, number>();
  const tokenNames: string[] = [];
  let tokenRefs = new Int32Array(1 << 16);
  let refCount = 0;
  /** The assistant record a token number was last added for (dedupes within a record). */
  const lastRecordOf: number[] = [];
  let recordNo = 0;
  const addTokens = (text: string) => {
    for (const match of text.matchAll(PATHISH)) {
      const token = match[0];
      let id = tokenIds.get(token);
      if (id === undefined) {
        id = tokenNames.length;
        // A copy, so the map does not keep the whole text the match was sliced from.
        const flat = JSON.parse(JSON.stringify(token)) as string;
        tokenIds.set(flat, id);
        tokenNames.push(flat);
        lastRecordOf.push(0);
      }
      if (lastRecordOf[id] === recordNo) continue;
      lastRecordOf[id] = recordNo;
      if (refCount === tokenRefs.length) {
        const bigger = new Int32Array(tokenRefs.length * 2);
        bigger.set(tokenRefs);
        tokenRefs = bigger;
      }
      tokenRefs[refCount++] = id;
    }
  };
  let pattern: ClaudeFacts["pattern"] = null;
  /** True until this range shows a Workscope ID that holds whatever came before (see ResultFact). */
  let dateZone = true;
  let mentions = 0;
  let unparsable = 0;

  const userOutcome = (record: JsonObject, small: boolean, wantDate: boolean): UserOutcome => {
    const message = record.message;
    let mention = small && isJsonObject(message) && typeof message.content === "string" && mentionsMarker(message.content);
    const results: UserOutcome["results"] = [];
    for (const block of contentBlocks(record)) {
      if (small && block.type === "text" && typeof block.text === "string" && mentionsMarker(block.text)) mention = true;
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const text = leadingText(block.content);
      const trimmed = text.trimStart();
      const marker = (PHANTOM_MARKERS.find((m) => trimmed.startsWith(m)) ?? null) as PhantomMarker | null;
      results.push({ id: block.tool_use_id, isError: block.is_error === true, marker, date: wantDate ? workscopeFromDateOutput(text) : null });
    }
    return { mention, results };
  };

  /** A user record parsed whatever the state; a date in it settles the fallback (when none was known). */
  const parsedUser = (record: JsonObject, line: number, small: boolean) => {
    const outcome = userOutcome(record, small, pattern === null);
    if (outcome.results.some((r) => r.date !== null)) dateZone = false;
    facts.push({ k: "u", line, outcome });
  };

  const onAssistant = (record: JsonObject, line: number) => {
    const message = isJsonObject(record.message) ? record.message : {};
    const usage = isJsonObject(message.usage) ? message.usage : null;
    recordNo += 1;
    const tokensFrom = refCount;
    const uses: AssistantFact["uses"] = [];
    for (const block of contentBlocks(record)) {
      if (block.type === "text" && typeof block.text === "string") addTokens(block.text);
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      const name = typeof block.name === "string" ? block.name : "";
      const input = isJsonObject(block.input) ? block.input : {};
      // Paths, commands and patterns name files; file contents (Write, Edit) are not scanned.
      for (const v of Object.values(input)) if (typeof v === "string" && v.length <= USE_SCAN_MAX_CHARS) addTokens(v);
      const isRead = name === "Read";
      uses.push([block.id, name, isRead && typeof input.file_path === "string" ? input.file_path : null, isRead]);
    }
    facts.push({
      k: "a",
      line,
      usage: usage ? [count(usage.cache_read_input_tokens), count(usage.cache_creation_input_tokens), count(usage.input_tokens), count(usage.output_tokens)] : null,
      messageId: typeof message.id === "string" ? message.id : null,
      tokensFrom,
      tokensTo: refCount,
      uses,
    });
  };

  const end = await walkRecords(filePath, range.startByte, range.endByte, (bytes, line) => {
    if (pattern === null) {
      const id = findWorkscopePattern(bytes);
      if (id !== null) {
        pattern = { line, id };
        dateZone = false;
      }
    }
    const small = bytes.length <= SMALL_RECORD_BYTES;
    const head = bytes.length <= HEAD_BYTES ? bytes : bytes.subarray(0, HEAD_BYTES);
    const role = roleIn(bytes.length <= ROLE_BYTES ? bytes : bytes.subarray(0, ROLE_BYTES));
    if (role === "assistant" || (role === null && head.indexOf(ASSISTANT) !== -1)) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else if (record.type === "assistant") {
        if (small && hasMarkerText(bytes)) mentions += 1;
        onAssistant(record, line);
      } else if (record.type === "user") parsedUser(record, line, small);
      return;
    }
    const resultAt = role === "user" ? head.indexOf(TOOL_RESULT) : -1;
    if (resultAt === -1) {
      // A prompt: a marker string here is conversation text. Records without a role (progress,
      // system, snapshots) are not conversation and are not searched.
      if (role === "user" && small && hasMarkerText(bytes)) mentions += 1;
      if (bytes.length > 0 && bytes[0] !== 0x7b) unparsable += 1;
      return;
    }
    // A tool_result record. Its body (file contents) is not scanned: a real marker replaces the
    // content, so it sits at the content's start, in the head (seed 003 Q3–Q6); marker strings
    // further in are the file's own text, neither a marker nor a conversation mention.
    if (hasMarkerText(head.subarray(resultAt, resultAt + CONTENT_START_BYTES))) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else parsedUser(record, line, small);
      return;
    }
    const dateProbe = dateZone && bytes.length <= DATE_PROBE_MAX_BYTES;
    // The id precedes the content (2.0.x) or follows it (2.1.3x): search past the head only then.
    let at = head.indexOf(TOOL_USE_ID);
    if (at === -1 && head !== bytes) at = bytes.indexOf(TOOL_USE_ID, HEAD_BYTES - TOOL_USE_ID.length);
    const id = at === -1 ? null : idAfter(bytes, at);
    // Read errors are short messages: a result over 16 KB carries the file and is a success.
    const ok = id !== null && (bytes.length > READ_ERROR_MAX_BYTES || !hasErrorTrue(bytes));
    let outcome: ResultFact["outcome"] = null;
    if (dateProbe || !ok) {
      const record = parse(bytes);
      outcome = record === null ? "malformed" : userOutcome(record, small, pattern === null);
      if (dateProbe && outcome !== "malformed" && outcome.results.some((r) => r.date !== null)) dateZone = false;
    }
    facts.push({ k: "r", line, id, ok, dateProbe, outcome });
  });
  return { nextLine: end.nextLine, lastLine: end.lastLine, facts, tokenNames, tokenRefs: tokenRefs.slice(0, refCount), pattern, mentions, unparsable };
}

/**
 * The first `"role": "…"` value in `head` (a message record's role), or null: the first `"role"`
 * followed by `\s*:\s*"word"` within 24 bytes.
 */
function roleIn(head: Buffer): string | null {
  const m = ROLE_RE.exec(head.toString("latin1"));
  if (m === null) return null;
  if (m[1]!.length <= 24) return m[2]!;
  // A value spread over more than 24 bytes: the byte-window rule decides (never in practice).
  const text = head.toString("latin1");
  for (let at = text.indexOf('"role"'); at !== -1; at = text.indexOf('"role"', at + 6)) {
    const w = /^\s*:\s*"(\w+)"/.exec(text.slice(at + 6, at + 30));
    if (w) return w[1]!;
  }
  return null;
}

/** True when `bytes` holds either phantom-read marker string anywhere. */
function hasMarkerText(bytes: Buffer): boolean {
  return bytes.indexOf(MARKER_PROBES[0]!) !== -1 || bytes.indexOf(MARKER_PROBES[1]!) !== -1;
}

/** A conversation text names a phantom-read marker (a mention, not a marker). */
function mentionsMarker(text: string): boolean {
  return text.includes("persisted-output") || text.includes("Old tool result content cleared");
}

/** True when a `"is_error"` key in `bytes` is followed by `true` (compact or spaced JSON). */
function hasErrorTrue(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(IS_ERROR); at !== -1; at = bytes.indexOf(IS_ERROR, at + IS_ERROR.length)) {
    if (/^\s*:\s*true/.test(bytes.toString("latin1", at + IS_ERROR.length, at + IS_ERROR.length + 8))) return true;
  }
  return false;
}

function parse(bytes: Buffer): JsonObject | null {
  return parseJsonObject(bytes.toString("utf8"));
}

/** The tool_use_id string value after a `"tool_use_id"` key at `at` (compact or spaced JSON). */
function idAfter(bytes: Buffer, at: number): string | null {
  const head = bytes.toString("latin1", at + 13, at + 13 + 80);
  const m = /^\s*:\s*"([^"\\]+)"/.exec(head);
  return m ? m[1]! : null;
}

function contentBlocks(record: JsonObject): JsonObject[] {
  const message = record.message;
  if (!isJsonObject(message) || !Array.isArray(message.content)) return [];
  return message.content.filter(isJsonObject);
}

/** The text a tool_result starts with: its string content, or its first text block. */
function leadingText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  for (const part of content) if (isJsonObject(part) && typeof part.text === "string") return part.text;
  return "";
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
