/** The map half of the Claude Code analysis: one byte range of a transcript as order-independent facts. */
import { Columns } from "@/lib/columns/typed-columns";
import { walkRecords } from "@/lib/jsonl/record-walk";
import { PHANTOM_MARKERS, type PhantomMarker } from "@/lib/analysis/markers";
import type { LineRange } from "@/lib/jsonl/workers";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { findWorkscopePattern, workscopeFromDateOutput } from "@/lib/sources/common/workscope";

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

/** Kinds of the records in {@link ClaudeFacts.nums}. */
export const FACT_ASSISTANT = 0;
export const FACT_USER = 1;
export const FACT_RESULT = 2;

/**
 * The facts of one range, packed for a cheap trip between threads (no object per record).
 * `nums` (chunks of 64 Ki numbers, so the list grows without copies) holds one entry per
 * relevant record, in line order (local lines: 1 = the range's first line); a string number
 * indexes `strs` (−1 = null), an outcome number `outcomes` (−1 = none):
 * - `FACT_ASSISTANT, line, hasUsage, cache_read, cache_creation, input, output, messageId,
 *   tokensFrom, tokensTo, useCount` then per tool_use block with a string id `id, name,
 *   Read file_path, isRead` (`type: "assistant"`; usage from `message.usage`; `messageId` only
 *   when a Read is among its tool_uses (the Read batch key, else unused); tokens: its distinct
 *   path-like tokens, `tokenRefs[tokensFrom, tokensTo)` indexing `tokenNames`);
 * - `FACT_USER, line, outcome`: a user record parsed whatever the state, its outcome applied as is;
 * - `FACT_RESULT, line, id, ok, dateProbe, outcome`: a tool_result user record whose handling
 *   depends on the state (seed 003 scan): parsed (`outcome`) for the `date` Workscope fallback
 *   while no Workscope ID is known when `dateProbe` (≤ 4 KB); else settled from its bytes (`id`,
 *   `ok`: not a short record with `is_error: true`) when a Read awaits `id`; else its `outcome`
 *   (the id is missing or the result is an error).
 */
export type ClaudeFacts = {
  /** Local line after the range's last line (its physical line count + 1). */
  nextLine: number;
  /** Local line of its last record (0 when empty). */
  lastLine: number;
  /** Packed records in chunks (a record never spans two). */
  nums: Float64Array[];
  strs: string[];
  outcomes: (UserOutcome | "malformed")[];
  /** Distinct path-like tokens of the range's assistant records. */
  tokenNames: string[];
  /** Token numbers of each assistant record. */
  tokenRefs: Int32Array;
  /** First `Workscope ID: …` match in the range. */
  pattern: { line: number; id: string } | null;
  /** Marker mentions counted whatever the state (prompts, assistant records). */
  mentions: number;
  /** Unparsable lines counted whatever the state. */
  unparsable: number;
};

const B = (s: string) => Buffer.from(s);
/** The role of a message record is looked for in its first 2 KB (≤ 450 bytes in every corpus record). */
const ROLE_BYTES = 2 << 10;
/** A Read result larger than this carries the file: errors ("File does not exist", …) are short. */
const READ_ERROR_MAX_BYTES = 16 << 10;
/** A tool_result's content starts within this many bytes of its `"tool_result"` type (≤ 120 in the corpus). */
const CONTENT_START_BYTES = 512;
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
const MARKER_STRINGS = ["persisted-output", "Old tool result content cleared"] as const;
const MARKER_PROBES = MARKER_STRINGS.map(B);
/** Lines at most this long are parsed while looking for the `date` Workscope fallback. */
const DATE_PROBE_MAX_BYTES = 4096;
/** Tool input strings longer than this are file contents, not references to a file. */
const USE_SCAN_MAX_CHARS = 4096;
/**
 * Path-like tokens in assistant text and tool inputs; matched by file basename. A token starts
 * only where the previous character cannot continue one (the lookbehind), so a long run of word
 * characters is tried once, not from each of its positions (that made the search quadratic).
 * No token holds `/` or `\\`: a token is its own basename. {@link pathTokens} finds exactly its
 * matches without running it (the regex tries every position: ~0.5 s on the real-shaped session).
 */
export const PATHISH = /(?<![\w@+~-])[\w@+~-][\w.@+~-]*\.[A-Za-z0-9]{1,10}/g;

const DOT = 0x2e;
/** `[A-Za-z0-9]` */
function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
/** `[\w.@+~-]`: a character a token continues with. */
function isTokenChar(c: number): boolean {
  return isAlnum(c) || c === 0x5f || c === DOT || c === 0x40 || c === 0x2b || c === 0x7e || c === 0x2d;
}

/**
 * Calls `add` with every match of {@link PATHISH} in `text`, in order. A match lies in a maximal
 * run of `[\w.@+~-]` characters: it starts at the run's first character other than `.` (only
 * there does the lookbehind hold before a match is found) and the greedy `*` backtracks to the
 * run's last `.` followed by `[A-Za-z0-9]`, then takes up to 10 of those; a run holds at most one
 * match (a later start would need a later such `.`). Runs are found from the `.` characters.
 */
export function pathTokens(text: string, add: (token: string) => void): void {
  const n = text.length;
  let from = 0;
  for (let dot = text.indexOf(".", from); dot !== -1; dot = text.indexOf(".", from)) {
    if (!isAlnum(text.charCodeAt(dot + 1))) {
      from = dot + 1;
      continue;
    }
    let runStart = dot;
    while (runStart > 0 && isTokenChar(text.charCodeAt(runStart - 1))) runStart--;
    let runEnd = dot + 2;
    while (runEnd < n && isTokenChar(text.charCodeAt(runEnd))) runEnd++;
    let start = runStart;
    while (text.charCodeAt(start) === DOT) start++;
    let last = runEnd - 2;
    while (last > start && !(text.charCodeAt(last) === DOT && isAlnum(text.charCodeAt(last + 1)))) last--;
    if (last > start) {
      let end = last + 1;
      while (end < runEnd && end - last <= 10 && isAlnum(text.charCodeAt(end))) end++;
      add(text.slice(start, end));
    }
    from = runEnd;
  }
}

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
  // Records in chunks of 64 Ki numbers: never copied as the list grows; a record never spans two.
  const nums = new Columns({ nums: Float64Array }, 1 << 16);
  const sealed: Float64Array[] = [];
  /** Makes room for `n` numbers in the current chunk, sealing it when they do not fit. */
  const reserve = (n: number): void => {
    if (nums.count > 0 && nums.count + n > nums.capacity) sealed.push(nums.take().nums);
  };
  const strs: string[] = [];
  const outcomes: ClaudeFacts["outcomes"] = [];
  const str = (value: string | null): number => (value === null ? -1 : strs.push(value) - 1);
  const names = new Map<string, number>();
  const nameStr = (name: string): number => {
    let at = names.get(name);
    if (at === undefined) names.set(name, (at = str(name)));
    return at;
  };
  const tokenIds = new Map<string, number>();
  const tokenNames: string[] = [];
  const tokenRefs = new Columns({ refs: Int32Array }, 1 << 16);
  /** The assistant record a token number was last added for (dedupes within a record). */
  const lastRecordOf: number[] = [];
  let recordNo = 0;
  const addToken = (token: string) => {
      let id = tokenIds.get(token);
      if (id === undefined) {
        id = tokenNames.length;
        // A copy, so the map does not keep the whole text the match was sliced from.
        const flat = JSON.parse(JSON.stringify(token)) as string;
        tokenIds.set(flat, id);
        tokenNames.push(flat);
        lastRecordOf.push(0);
      }
      if (lastRecordOf[id] === recordNo) return;
      lastRecordOf[id] = recordNo;
      const at = tokenRefs.add();
      tokenRefs.cols.refs[at] = id;
  };
  const addTokens = (text: string) => pathTokens(text, addToken);
  let pattern: ClaudeFacts["pattern"] = null;
  /** True until this range shows a Workscope ID that holds whatever came before (see FACT_RESULT). */
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
    reserve(3);
    put(nums, FACT_USER, line, outcomes.push(outcome) - 1);
  };

  const onAssistant = (record: JsonObject, line: number) => {
    const message = isJsonObject(record.message) ? record.message : {};
    const usage = isJsonObject(message.usage) ? message.usage : null;
    recordNo += 1;
    const tokensFrom = tokenRefs.count;
    const blocks = contentBlocks(record);
    let useCount = 0;
    let hasRead = false;
    for (const block of blocks) {
      if (block.type === "text" && typeof block.text === "string") addTokens(block.text);
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      useCount += 1;
      if (block.name === "Read") hasRead = true;
      const input = isJsonObject(block.input) ? block.input : {};
      // Paths, commands and patterns name files; file contents (Write, Edit) are not scanned.
      for (const v of Object.values(input)) if (typeof v === "string" && v.length <= USE_SCAN_MAX_CHARS) addTokens(v);
    }
    reserve(11 + 4 * useCount);
    if (usage) put(nums, FACT_ASSISTANT, line, 1, count(usage.cache_read_input_tokens), count(usage.cache_creation_input_tokens), count(usage.input_tokens), 6);
    else put(nums, FACT_ASSISTANT, line, 0, 0, 0, 0, 6);
    put(nums, usage ? count(usage.output_tokens) : 0, str(hasRead && typeof message.id === "string" ? message.id : null), tokensFrom, tokenRefs.count, useCount, NaN, 5);
    for (const block of blocks) {
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      const name = typeof block.name === "string" ? block.name : "";
      const isRead = name === "Read";
      const input = isJsonObject(block.input) ? block.input : {};
      put(nums, str(block.id), nameStr(name), str(isRead && typeof input.file_path === "string" ? input.file_path : null), isRead ? 1 : 0, NaN, NaN, 4);
    }
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
    // Classification searches run on a latin1 copy of the record's first bytes (byte for byte):
    // a string search costs a fraction of a Buffer#indexOf call.
    const first = bytes.toString("latin1", 0, Math.min(bytes.length, ROLE_BYTES));
    const role = roleIn(first);
    const head = role === "assistant" || bytes.length <= ROLE_BYTES ? first : bytes.toString("latin1", 0, Math.min(bytes.length, HEAD_BYTES));
    /** `head` is the whole record. */
    const whole = head.length === bytes.length;
    if (role === "assistant" || (role === null && head.includes('"assistant"'))) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else if (record.type === "assistant") {
        if (small && (whole ? hasMarkerString(head) : hasMarkerText(bytes))) mentions += 1;
        onAssistant(record, line);
      } else if (record.type === "user") parsedUser(record, line, small);
      return;
    }
    const resultAt = role === "user" ? head.indexOf('"tool_result"') : -1;
    if (resultAt === -1) {
      // A prompt: a marker string here is conversation text. Records without a role (progress,
      // system, snapshots) are not conversation and are not searched.
      if (role === "user" && small && (whole ? hasMarkerString(head) : hasMarkerText(bytes))) mentions += 1;
      if (bytes.length > 0 && bytes[0] !== 0x7b) unparsable += 1;
      return;
    }
    // A tool_result record. Its body (file contents) is not scanned: a real marker replaces the
    // content, so it sits at the content's start, in the head (seed 003 Q3–Q6); marker strings
    // further in are the file's own text, neither a marker nor a conversation mention.
    if (hasMarkerString(head, resultAt, resultAt + CONTENT_START_BYTES)) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else parsedUser(record, line, small);
      return;
    }
    const dateProbe = dateZone && bytes.length <= DATE_PROBE_MAX_BYTES;
    // The id precedes the content (2.0.x) or follows it (2.1.3x): search past the head only then.
    let at = head.indexOf('"tool_use_id"');
    if (at === -1 && !whole) at = bytes.indexOf(TOOL_USE_ID, HEAD_BYTES - TOOL_USE_ID.length);
    const id = at === -1 ? null : idAfter(bytes, at);
    // Read errors are short messages: a result over 16 KB carries the file and is a success.
    const ok = id !== null && (bytes.length > READ_ERROR_MAX_BYTES || !(whole ? hasErrorTrueString(head) : hasErrorTrue(bytes)));
    let outcome = -1;
    if (dateProbe || !ok) {
      const record = parse(bytes);
      const parsed = record === null ? "malformed" : userOutcome(record, small, pattern === null);
      if (dateProbe && parsed !== "malformed" && parsed.results.some((r) => r.date !== null)) dateZone = false;
      outcome = outcomes.push(parsed) - 1;
    }
    reserve(6);
    put(nums, FACT_RESULT, line, str(id), ok ? 1 : 0, dateProbe ? 1 : 0, outcome, 6);
  });
  return { nextLine: end.nextLine, lastLine: end.lastLine, nums: [...sealed, nums.take().nums], strs, outcomes, tokenNames, tokenRefs: tokenRefs.take().refs, pattern, mentions, unparsable };
}

/**
 * The first `"role": "…"` value in `head` (the latin1 text of a record's first 2 KB: a message
 * record's role), or null: the first `"role"` followed by `\s*:\s*"word"` within 24 bytes.
 */
function roleIn(head: string): string | null {
  const m = ROLE_RE.exec(head);
  if (m === null) return null;
  if (m[1]!.length <= 24) return m[2]!;
  // A value spread over more than 24 bytes: the byte-window rule decides (never in practice).
  for (let at = head.indexOf('"role"'); at !== -1; at = head.indexOf('"role"', at + 6)) {
    const w = /^\s*:\s*"(\w+)"/.exec(head.slice(at + 6, at + 30));
    if (w) return w[1]!;
  }
  return null;
}

/** True when `text[from, to)` (latin1 of a record's bytes) holds either marker string whole. */
function hasMarkerString(text: string, from = 0, to = text.length): boolean {
  for (const probe of MARKER_STRINGS) {
    const at = text.indexOf(probe, from);
    if (at !== -1 && at + probe.length <= to) return true;
  }
  return false;
}

/** {@link hasErrorTrue} on the latin1 text of a whole record. */
function hasErrorTrueString(text: string): boolean {
  for (let at = text.indexOf('"is_error"'); at !== -1; at = text.indexOf('"is_error"', at + 10)) {
    if (/^\s*:\s*true/.test(text.slice(at + 10, at + 18))) return true;
  }
  return false;
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

/** Appends `n` (3 to 6) numbers to `list` after a `reserve` (fixed arity: no array per call). */
function put(list: Columns<{ nums: Float64Array }>, a: number, b: number, c: number, d = NaN, e = NaN, f = NaN, n = 3): void {
  let at = list.add(n);
  const data = list.cols.nums;
  data[at++] = a;
  data[at++] = b;
  data[at++] = c;
  if (n > 3) data[at++] = d;
  if (n > 4) data[at++] = e;
  if (n > 5) data[at] = f;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
