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
const TOOL_RESULT = B('"tool_result"');
const TOOL_USE_ID = B('"tool_use_id"');
const IS_ERROR_TRUE = B('"is_error":true');
const IS_ERROR_TRUE_SPACED = B('"is_error": true');
const USER = B('"user"');
/** Records above this size are classified from their first {@link HEAD_BYTES} bytes. */
const SMALL_RECORD_BYTES = 64 << 10;
const HEAD_BYTES = 4 << 10;
const MARKER_PROBES = [B("persisted-output"), B("Old tool result content cleared")];
/** Lines at most this long are parsed while looking for the `date` Workscope fallback. */
const DATE_PROBE_MAX_BYTES = 4096;
/** Tool input strings longer than this are file contents, not references to a file. */
const USE_SCAN_MAX_CHARS = 4096;
/** Path-like tokens in assistant text and tool inputs; matched by file basename. */
const PATHISH = /[\w@+~-][\w.@+~-]*\.[A-Za-z0-9]{1,10}/g;

/**
 * Scans one Claude Code transcript in a single streamed pass (seed 003, issue 10):
 * - token points and context resets from every `type: "assistant"` record's `message.usage`;
 * - every `Read` tool_use (batch = its `message.id`), its tool_result line and success
 *   (`is_error`), its first use (next assistant record) and last use (last assistant record
 *   naming the file's basename);
 * - phantom-read markers only when a tool_result's content *starts* with one (the seed warns
 *   that the strings also occur in conversation text: those are counted as mentions);
 * - the Workscope ID (first `Workscope ID: …`, else the first bare `date` output tool result).
 * Byte probes decide which records are parsed: tool_result records are parsed only when they
 * answer an awaited Read with `is_error: true`, carry several results, or (records ≤ 64 KB)
 * contain a marker string. Records over 64 KB are classified from their first 4 KB and taken
 * to hold one tool_result, as Claude Code writes them; marker strings inside them are not
 * counted as mentions (a real marker replaces the content, so its record is small).
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

  const onToolResults = (record: JsonObject, line: number, lineHasMarker: boolean) => {
    let hit = false;
    for (const block of contentBlocks(record)) {
      if (block.type !== "tool_result" || typeof block.tool_use_id !== "string") continue;
      const id = block.tool_use_id;
      const text = leadingText(block.content);
      const marker = PHANTOM_MARKERS.find((m) => text.trimStart().startsWith(m));
      if (marker) {
        markers.push({ line, tool_use_id: id, marker: marker as PhantomMarker });
        hit = true;
      }
      if (dateId === null && patternId === null) dateId = workscopeFromDateOutput(text);
      settleRead(id, line, block.is_error === true);
    }
    if (lineHasMarker && !hit) markerMentions += 1;
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
    // Big records are tool results carrying file contents: classify them from their head
    // (type, role and the first tool_use_id come before the content) instead of scanning them.
    const small = bytes.length <= SMALL_RECORD_BYTES;
    const head = small ? bytes : bytes.subarray(0, HEAD_BYTES);
    // A real marker replaces the content, so its record is small (seed 003 Q3–Q6).
    const hasMarker = small && MARKER_PROBES.some((p) => bytes.indexOf(p) !== -1);
    let assistant = head.indexOf(ASSISTANT) !== -1;
    if (!assistant && !small && head.indexOf(USER) === -1) assistant = bytes.indexOf(ASSISTANT) !== -1;
    if (assistant) {
      const record = parse(bytes);
      if (record === null) unparsable += 1;
      else if (record.type === "assistant") onAssistant(record, line, hasMarker);
      else if (record.type === "user") onToolResults(record, line, hasMarker);
      continue;
    }
    let firstId = head.indexOf(TOOL_USE_ID);
    if (firstId === -1 && !small) firstId = bytes.indexOf(TOOL_USE_ID);
    if (firstId === -1 || (head.indexOf(TOOL_RESULT) === -1 && bytes.indexOf(TOOL_RESULT) === -1)) {
      if (hasMarker) markerMentions += 1;
      if (bytes.length > 0 && bytes[0] !== 0x7b) unparsable += 1;
      continue;
    }
    const wantsDate = patternId === null && dateId === null && bytes.length <= DATE_PROBE_MAX_BYTES;
    if (!hasMarker && !wantsDate) {
      const id = idAfter(bytes, firstId);
      const single = !small || bytes.indexOf(TOOL_USE_ID, firstId + 1) === -1;
      // Not an awaited Read result: nothing to learn (a big record carries one tool_result).
      if (id !== null && single && !pendingResult.has(id)) continue;
      if (id !== null && single && bytes.indexOf(IS_ERROR_TRUE) === -1 && bytes.indexOf(IS_ERROR_TRUE_SPACED) === -1) {
        settleRead(id, line, false);
        continue;
      }
    }
    const record = parse(bytes);
    if (record === null) unparsable += 1;
    else onToolResults(record, line, hasMarker);
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
