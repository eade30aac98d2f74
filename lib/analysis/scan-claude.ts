import { ResetDetector } from "@/lib/analysis/context-resets";
import { streamRecordLines } from "@/lib/analysis/record-lines";
import { PHANTOM_MARKERS, type FileRead, type MarkerHit, type PhantomMarker, type TokenPoint } from "@/lib/analysis/schema";
import { findWorkscopePattern, workscopeFromDateOutput } from "@/lib/analysis/workscope";
import { isJsonObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";

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

const B = (s: string) => Buffer.from(s);
const ASSISTANT = B('"assistant"');
const ROLE = B('"role"');
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
 */
const PATHISH = /(?<![\w@+~-])[\w@+~-][\w.@+~-]*\.[A-Za-z0-9]{1,10}/g;

/**
 * Scans one Claude Code transcript in a single streamed pass (seed 003, issue 10):
 * - token points and context resets from every `type: "assistant"` record's `message.usage`;
 * - every `Read` tool_use (batch = its `message.id`), its tool_result line and success
 *   (`is_error`), its first use (next assistant record) and last use (last assistant record
 *   naming the file's basename);
 * - phantom-read markers only when a tool_result's content *starts* with one; the strings
 *   elsewhere in conversation text (prompts, assistant text and tool inputs) are
 *   counted as mentions, never as markers (the seed's caveat); inside a tool_result's content
 *   (a file that discusses them) they are neither;
 * - the Workscope ID (first `Workscope ID: …`, else the first bare `date` output tool result).
 * Throughput: records are classified from their first bytes (the role within 2 KB, for tool
 * results the `"tool_result"` type and the start of the first result's content within 4 KB;
 * ≤ 450 bytes in every corpus record). Claude Code writes one tool_result per user record, so a
 * tool_result record is looked into only while a Read awaits its result: its id (searched past
 * the head only in the 2.1.3x layout, where the id follows the content) and, for records
 * ≤ 16 KB, `is_error: true` (larger ones carry the file and are successes: Read errors are
 * short messages). Parsed are: assistant records, tool results that answer an awaited Read
 * with an error or start with a marker string, and the first short tool results while no
 * Workscope ID is known (the `date` fallback). Mentions are looked for in message records
 * (prompts, assistant records) ≤ 64 KB; records without a role (progress, system, snapshots)
 * are not conversation.
 * @throws the fs error when the file cannot be read.
 */
export async function scanClaudeSession(filePath: string, threshold: number): Promise<ClaudeScan> {
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
  let patternId: string | null = null;
  let dateId: string | null = null;
  let unparsable = 0;
  let lineCount = 0;

  /** A user record: its tool_results (markers at the content start, Read results) and its own text (mentions). */
  const onUserRecord = (record: JsonObject, line: number, small: boolean) => {
    let mention = small && isJsonObject(record.message) && typeof record.message.content === "string" && mentionsMarker(record.message.content);
    for (const block of contentBlocks(record)) {
      if (small && block.type === "text" && typeof block.text === "string" && mentionsMarker(block.text)) mention = true;
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const id = block.tool_use_id;
      const text = leadingText(block.content);
      const marker = PHANTOM_MARKERS.find((m) => text.trimStart().startsWith(m));
      if (marker) markers.push({ line, tool_use_id: id, marker: marker as PhantomMarker });
      if (dateId === null && patternId === null) dateId = workscopeFromDateOutput(text);
      settleRead(id, line, block.is_error === true);
    }
    if (mention) markerMentions += 1;
  };

  const settleRead = (id: string, line: number, isError: boolean) => {
    if (!pendingResult.delete(id)) return;
    const read = readsById.get(id)!;
    read.result_line = line;
    read.success = !isError;
    awaitingFirstUse.push(read);
  };

  const onAssistant = (record: JsonObject, line: number, lineHasMarker: boolean) => {
    if (lineHasMarker) markerMentions += 1;
    const message = isJsonObject(record.message) ? record.message : {};
    const usage = isJsonObject(message.usage) ? message.usage : null;
    if (usage) {
      const point: TokenPoint = {
        line,
        cache_read: tokens(usage.cache_read_input_tokens),
        cache_creation: tokens(usage.cache_creation_input_tokens),
        input: tokens(usage.input_tokens),
        output: tokens(usage.output_tokens),
      };
      points.push(point);
      detector.observe(point);
    }
    for (const read of awaitingFirstUse) read.first_use_line = line;
    awaitingFirstUse.length = 0;
    const batchKey = typeof message.id === "string" ? message.id : `line:${line}`;
    const newReads: FileRead[] = [];
    for (const block of contentBlocks(record)) {
      if (block.type === "text" && typeof block.text === "string") markUses(block.text, line);
      if (block.type !== "tool_use" || typeof block.id !== "string") continue;
      const name = typeof block.name === "string" ? block.name : "";
      toolNames.set(block.id, name);
      const input = isJsonObject(block.input) ? block.input : {};
      // Paths, commands and patterns name files; file contents (Write, Edit) are not scanned.
      for (const v of Object.values(input)) if (typeof v === "string" && v.length <= USE_SCAN_MAX_CHARS) markUses(v, line);
      if (name !== "Read") continue;
      let batch = batchOf.get(batchKey);
      if (batch === undefined) batchOf.set(batchKey, (batch = batchOf.size + 1));
      const read: FileRead = {
        sequence: reads.length + 1,
        line,
        tool_use_id: block.id,
        file_path: typeof input.file_path === "string" ? input.file_path : null,
        batch,
        result_line: null,
        success: null,
        persisted: false,
        first_use_line: null,
        last_use_line: null,
        reset_before_use_line: null,
      };
      reads.push(read);
      readsById.set(block.id, read);
      pendingResult.add(block.id);
      newReads.push(read);
    }
    for (const read of newReads) if (read.file_path) latestByBase.set(basename(read.file_path), read);
  };

  const markUses = (text: string, line: number) => {
    if (latestByBase.size === 0) return;
    for (const token of text.matchAll(PATHISH)) {
      const read = latestByBase.get(basename(token[0]));
      if (read && read.line < line) read.last_use_line = line;
    }
  };

  for await (const { line, bytes } of streamRecordLines(filePath)) {
    lineCount = line;
    if (patternId === null) patternId = findWorkscopePattern(bytes);
    const small = bytes.length <= SMALL_RECORD_BYTES;
    const head = bytes.length <= HEAD_BYTES ? bytes : bytes.subarray(0, HEAD_BYTES);
    const role = roleIn(bytes.length <= ROLE_BYTES ? bytes : bytes.subarray(0, ROLE_BYTES));
    if (role === "assistant" || (role === null && head.indexOf(ASSISTANT) !== -1)) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else if (record.type === "assistant") onAssistant(record, line, small && hasMarkerText(bytes));
      else if (record.type === "user") onUserRecord(record, line, small);
      continue;
    }
    const resultAt = role === "user" ? head.indexOf(TOOL_RESULT) : -1;
    if (resultAt === -1) {
      // A prompt: a marker string here is conversation text. Records without a role (progress,
      // system, snapshots) are not conversation and are not searched.
      if (role === "user" && small && hasMarkerText(bytes)) markerMentions += 1;
      if (bytes.length > 0 && bytes[0] !== 0x7b) unparsable += 1;
      continue;
    }
    // A tool_result record. Its body (file contents) is not scanned: a real marker replaces the
    // content, so it sits at the content's start, in the head (seed 003 Q3–Q6); marker strings
    // further in are the file's own text, neither a marker nor a conversation mention.
    const wantsDate = patternId === null && dateId === null && bytes.length <= DATE_PROBE_MAX_BYTES;
    if (!hasMarkerText(head.subarray(resultAt, resultAt + CONTENT_START_BYTES)) && !wantsDate) {
      if (pendingResult.size === 0) continue; // no Read awaits a result
      // The id precedes the content (2.0.x) or follows it (2.1.3x): search past the head only then.
      let at = head.indexOf(TOOL_USE_ID);
      if (at === -1 && head !== bytes) at = bytes.indexOf(TOOL_USE_ID, HEAD_BYTES - TOOL_USE_ID.length);
      const id = at === -1 ? null : idAfter(bytes, at);
      if (id !== null && !pendingResult.has(id)) continue;
      // Read errors are short messages: a result over 16 KB carries the file and is a success.
      if (id !== null && (bytes.length > READ_ERROR_MAX_BYTES || !hasErrorTrue(bytes))) {
        settleRead(id, line, false);
        continue;
      }
    }
    const record = parse(bytes);
    if (record === null) unparsable += 1;
    else onUserRecord(record, line, small);
  }

  return {
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
  };
}

/** The first `"role": "…"` value in `head` (a message record's role), or null. */
function roleIn(head: Buffer): string | null {
  for (let at = head.indexOf(ROLE); at !== -1; at = head.indexOf(ROLE, at + ROLE.length)) {
    const m = /^\s*:\s*"(\w+)"/.exec(head.toString("latin1", at + ROLE.length, at + ROLE.length + 24));
    if (m) return m[1]!;
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

function tokens(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function basename(p: string): string {
  const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return i === -1 ? p : p.slice(i + 1);
}
