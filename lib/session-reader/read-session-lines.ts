/** `read_session_lines` (seed 000): physical lines of an indexed session, compact or full. */
import { sharedBuilds } from "@/lib/cache/stamped-cache";
import type { CoreContext, Logger } from "@/lib/context";
import { fileStamp } from "@/lib/fs/file-stamp";
import { shareValue } from "@/lib/json/shared-values";
import { readLineRange, readLineRangeBytes, type LineIndex } from "@/lib/jsonl/line-index";
import { buildCompactRecords, type PhysicalLine } from "@/lib/session-reader/compact";
import { CompactStore } from "@/lib/session-reader/compact-store";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import { readAgentLines } from "@/lib/sources/agent-transcripts";
import type { AgentLines } from "@/lib/sources/common/agent-source";
import {
  type CompactRecord,
  MAX_COMPACT_LINES,
  MAX_FULL_LINES,
  type FieldError,
  type FullRecord,
  type ReadMode,
  type ReadSessionLinesResult,
} from "@/lib/session-reader/schema";
import { sha256Hex } from "@/lib/session-reader/sha256";
import { getWorkspaceLineIndex, resolveSession, workspaceIndexDir } from "@/lib/workspace/sessions";

const RANGE_HINT = "request a 1-based line range contained by the session";

/**
 * `read_session_lines` (seed 000): reads physical lines `start_line..end_line` (1-based,
 * inclusive) of one indexed session, compact (≤ 2000 lines) or full (≤ 100 lines). Only the
 * bytes of the requested lines are read, through the persisted line index.
 * Returns `{status:"ok", project_key, session_ref, line_range, mode, records}` or
 * `{status:"invalid", errors:[{field, message, hint}]}` for every error case of seed 000
 * (first failing check wins, in the seed's order).
 * @throws AppError parse_error when the workspace itself is malformed (contract §1.10).
 */
export async function readSessionLines(ctx: CoreContext, input: unknown): Promise<ReadSessionLinesResult> {
  const parsed = parseInput(input);
  if ("errors" in parsed) return { status: "invalid", errors: parsed.errors };
  const { project_key, session_ref, start_line, end_line, mode } = parsed;
  const resolved = await resolveSession(ctx, project_key, session_ref);
  if (!resolved.ok) return invalid(resolved.failure);
  const { filePath, row } = resolved.session;
  const index = await getWorkspaceLineIndex(ctx, filePath);
  const rangeError = checkRange(start_line, end_line, index.lineCount, mode);
  if (rangeError) return invalid(rangeError);
  const records =
    mode === "compact"
      ? await readCompactRecords(filePath, index, start_line, end_line, row.source, workspaceIndexDir(ctx), ctx.log)
      : (await readLineRange(filePath, index, start_line, end_line)).map((l): FullRecord => toFullRecord(l.line, l.text));
  // The records are a pure function of the input and these bytes (the range with the lines around
  // it, which compact mode reads as context): the audit ledger may keep this reference (issue 26).
  const from = Math.max(1, start_line - 1);
  const to = Math.min(index.lineCount, end_line + 1);
  ctx.trace?.source?.({ path: filePath, start: index.starts[from - 1]!, end: to < index.lineCount ? index.starts[to]! : index.size });
  return { status: "ok", project_key, session_ref, line_range: { start: start_line, end: end_line }, mode, records };
}

/**
 * Compact records for lines `start..end`. Hits come from the in-memory record cache; with a
 * `storeDir` (the workspace's `.casefile/index`), misses are served from the persisted
 * {@link CompactStore} blocks covering the range, and a missing block is built once from one
 * read of its lines and persisted, so later windows (in any process) never re-read or re-parse
 * those lines. Without a store, misses are built from one read of the missing span. Either way
 * a span's neighbouring lines (one before, one after) are read as context so a Codex echo on its
 * edge is still marked (contract §4.3 step 1); records are identical on every path. An agent
 * session's records are built from the whole file's replay (lib/sources/agent-transcripts
 * `readAgentLines`: the agent's replay of the whole file, whose records are read only for the
 * lines built), so a line is marked by what later lines did to it (a rewind, a replacement). A corrupt stored block is set aside with a warning through `log` (issue 35) and
 * built again.
 */
export async function readCompactRecords(filePath: string, index: LineIndex, start: number, end: number, source: string, storeDir: string | null = null, log?: Logger): Promise<CompactRecord[]> {
  const version = `${filePath}\u0000${fileStamp(index)}\u0000${source}`;
  const store = storeDir === null ? null : new CompactStore(storeDir, filePath, index, source, log);
  const out: CompactRecord[] = [];
  // Blocks being written while the next ones are built; all on disk before this returns.
  const writes: Promise<void>[] = [];
  // Read only when a record must be built (null for Claude Code and Codex, whose lines stand alone).
  let transcript: Promise<AgentLines | null> | null = null;
  // The lines whose records may be built: the window, widened to whole blocks when they are stored.
  const built = store === null ? { start, end } : { start: CompactStore.blockLines(CompactStore.blockOf(start), index.lineCount).start, end: CompactStore.blockLines(CompactStore.blockOf(end), index.lineCount).end };
  const replay = () => (transcript ??= readAgentLines(source, filePath, built, storeDir === null ? undefined : { cacheDir: storeDir, log }));
  let line = start;
  while (line <= end) {
    const hit = compactRecordCache.get(version, line);
    if (hit) {
      out.push(hit);
      line += 1;
      continue;
    }
    if (store) {
      const block = CompactStore.blockOf(line);
      const span = CompactStore.blockLines(block, index.lineCount);
      const records = await loadBlock(store, `${version}\u0000${block}`, filePath, index, span, source, writes, replay);
      const last = Math.min(end, span.end);
      for (let l = line; l <= last; l++) {
        const record = records[l - span.start]!;
        compactRecordCache.set(version, record);
        out.push(record);
      }
      line = last + 1;
      continue;
    }
    let missEnd = line;
    while (missEnd < end && !compactRecordCache.get(version, missEnd + 1)) missEnd += 1;
    for (const record of await buildSpan(filePath, index, line, missEnd, source, await replay())) {
      compactRecordCache.set(version, record);
      out.push(record);
    }
    line = missEnd + 1;
  }
  await Promise.all(writes);
  return out;
}

/** Blocks being built right now, so concurrent windows over one block build it once. */
const building = sharedBuilds<CompactRecord[]>("session-reader:blocks-building");

/** A block's records: stored, or built and handed to the store (the write joins `writes`, never rejects). */
async function loadBlock(store: CompactStore, key: string, filePath: string, index: LineIndex, span: { start: number; end: number }, source: string, writes: Promise<void>[], replay: () => Promise<AgentLines | null>): Promise<CompactRecord[]> {
  const stored = await store.read(CompactStore.blockOf(span.start));
  if (stored && stored.length === span.end - span.start + 1 && stored[0]?.line === span.start) return stored;
  return building.run(key, async () => {
    // Shared (deep-frozen, as the record cache would make them) before they are written, so the
    // block's text and the response reuse one serialization of each record.
    const records = (await buildSpan(filePath, index, span.start, span.end, source, await replay())).map((record) => shareValue(record));
    writes.push(store.write(CompactStore.blockOf(span.start), records));
    return records;
  });
}

/** Lines of a span decoded and built at a time: a span's texts are never all alive at once (issue 13). */
const BUILD_BATCH_LINES = 32;

async function buildSpan(filePath: string, index: LineIndex, start: number, end: number, source: string, transcript: AgentLines | null): Promise<CompactRecord[]> {
  const from = Math.max(1, start - 1);
  const to = Math.min(index.lineCount, end + 1);
  const all = await readLineRangeBytes(filePath, index, from, to);
  // Decoded as readLineRange decodes (Buffer#toString: WHATWG replacement, BOM kept). An agent
  // session's records are read off its replay: a line is decoded only if its record is not there.
  const physical = (at: number): PhysicalLine | null => {
    const l = all[at];
    if (l === undefined) return null;
    if (transcript === null) return { line: l.line, text: l.bytes.toString("utf8"), bytes: l.bytes };
    let text: string | undefined;
    return {
      line: l.line,
      get text() {
        return (text ??= l.bytes.toString("utf8"));
      },
      bytes: l.bytes,
    };
  };
  // Each batch is built with the lines just outside it as context, as the whole span would be:
  // a Codex echo is judged against the line before or after it only. Every line is decoded
  // once: a batch's last line is the next one's `before`, its `after` the next one's first.
  const first = start - from;
  const last = first + (end - start);
  const out: CompactRecord[] = [];
  let before = physical(first - 1);
  let head = physical(first)!;
  for (let at = first; at <= last; at += BUILD_BATCH_LINES) {
    const stop = Math.min(last, at + BUILD_BATCH_LINES - 1);
    const lines: PhysicalLine[] = [head];
    for (let k = at + 1; k <= stop; k++) lines.push(physical(k)!);
    const after = physical(stop + 1);
    for (const record of buildCompactRecords(lines, source, { before, after }, transcript)) out.push(record);
    before = lines[lines.length - 1]!;
    if (after !== null) head = after;
  }
  return out;
}

/** A full-mode record: the verbatim line plus its UTF-8 length and SHA-256 (seed 000). */
export function toFullRecord(line: number, text: string): FullRecord {
  const bytes = Buffer.from(text, "utf8");
  return { line, raw_line: text, raw_bytes: bytes.length, raw_sha256: sha256Hex(bytes) };
}

/**
 * The range checks of seed 000 in order: start < 1, end < start, start past the last line,
 * end past the last line, range too broad for the mode. Returns the first failure or null.
 */
export function checkRange(start: number, end: number, lastLine: number, mode: ReadMode): FieldError | null {
  if (start < 1) return { field: "start_line", message: `start_line ${start} must be a positive 1-based line number`, hint: RANGE_HINT };
  if (end < start) return { field: "end_line", message: `end_line ${end} must be >= start_line ${start}`, hint: RANGE_HINT };
  if (start > lastLine) return { field: "start_line", message: `start_line ${start} is past the session's last line ${lastLine}`, hint: RANGE_HINT };
  if (end > lastLine) return { field: "end_line", message: `end_line ${end} is past the session's last line ${lastLine}`, hint: RANGE_HINT };
  const max = mode === "compact" ? MAX_COMPACT_LINES : MAX_FULL_LINES;
  const count = end - start + 1;
  if (count > max) {
    return {
      field: "end_line",
      message: `range ${start}-${end} spans ${count} lines; ${mode} mode reads at most ${max} lines per call`,
      hint: mode === "full" ? `request at most ${max} lines in full mode, or use compact mode` : `request at most ${max} lines per call`,
    };
  }
  return null;
}

type ParsedInput = { project_key: string; session_ref: string; start_line: number; end_line: number; mode: ReadMode };

function parseInput(input: unknown): ParsedInput | { errors: FieldError[] } {
  const value = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const key of ["project_key", "session_ref"] as const) {
    if (typeof value[key] !== "string" || value[key] === "") {
      errors.push({ field: key, message: `${key} must be a non-empty string`, hint: key === "project_key" ? "use the project_key from the prepared workspace" : "use a session_ref listed in sessions.index.jsonl" });
    }
  }
  for (const key of ["start_line", "end_line"] as const) {
    if (!Number.isInteger(value[key])) errors.push({ field: key, message: `${key} must be an integer`, hint: RANGE_HINT });
  }
  const mode = value.mode ?? "compact";
  if (mode !== "compact" && mode !== "full") {
    errors.push({ field: "mode", message: `mode must be "compact" or "full"`, hint: 'use mode "compact" (default) or "full" for a narrow range' });
  }
  if (errors.length > 0) return { errors };
  return {
    project_key: value.project_key as string,
    session_ref: value.session_ref as string,
    start_line: value.start_line as number,
    end_line: value.end_line as number,
    mode: mode as ReadMode,
  };
}

function invalid(error: FieldError): ReadSessionLinesResult {
  return { status: "invalid", errors: [{ field: error.field, message: error.message, hint: error.hint }] };
}
