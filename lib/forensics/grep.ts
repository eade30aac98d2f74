/** `grep_jsonl` (seed 004): RE2 search over a session's raw lines, ledgers included. */
import type { CoreContext } from "@/lib/context";
import { ChunkArena, forEachLineChunk } from "@/lib/forensics/line-chunks";
import { compileGrepPattern, type GrepPattern } from "@/lib/forensics/regex";
import { simdFinder, type SimdFinder } from "@/lib/forensics/simd-find";
import type { ForensicsInvalid, GrepJsonlInput, GrepJsonlResult, GrepMatch } from "@/lib/forensics/schema";
import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";
import { findProject, loadWorkspace } from "@/lib/workspace/load";
import { getWorkspaceLineIndex, resolveSession, sessionFiles, type SessionFile } from "@/lib/workspace/sessions";

/** A returned `raw` line longer than this many characters is clipped (`raw_clipped: true`, see {@link clipRaw}). */
export const MAX_RAW_CHARS = 16_384;
/** Characters a clip around a match keeps before it. */
const CLIP_BEFORE_MATCH = 2_048;

type Target = { sessionRef: string; file: SessionFile };

/**
 * `grep_jsonl` (seed 004, adapted): a server-side regex over the raw lines of one session's
 * files (main transcript, subagents, persisted tool results; `ledger` narrows to `main`,
 * `subagent:<agent_id>` or `tool_results`), or of every session of the project when
 * `session_ref` is absent. Returns `{session_ref, file, line_number, raw}` per matching
 * physical line — the viewer's line numbers (`grep -n`'s on `\n`-terminated JSONL) — paginated
 * by `limit`/`offset` over all matches in file order. The scan stops at the first match past
 * the page (`offset + limit + 1` found, or one past a full response): `count` is then a lower
 * bound (`count_exact: false`) that still shows more follow; a scan that ran to the end has the
 * exact count. A scan past its time budget (10 s) answers `invalid` naming `pattern` and where it
 * stopped; it yields to the event loop every 20 ms. Rows are added while the response stays
 * within `max_bytes`; `raw` is clipped at
 * 16,384 characters, around the first match when it lies past them ({@link clipRaw}). The regex engine is RE2 (re2js, linear time); a required literal is
 * searched first over whole chunks with SIMD (see {@link grepFile}). Streaming: memory is one
 * 1 MiB chunk (or the longest line) plus each file's line index, whatever the file size.
 * An invalid pattern, unknown project, session or ledger → `{status:"invalid"}` naming the field.
 * @throws the fs error when a file cannot be read.
 */
export async function grepJsonl(ctx: CoreContext, input: GrepJsonlInput, budgetMs = GREP_TIME_BUDGET_MS): Promise<GrepJsonlResult | ForensicsInvalid> {
  const compiled = compileGrepPattern(input.pattern);
  if ("error" in compiled) {
    return { status: "invalid", errors: [{ field: "pattern", message: `pattern '${input.pattern}' is not a valid regular expression: ${compiled.error}`, hint: "use RE2 syntax (no backreferences or lookaround); escape special characters with \\" }] };
  }
  const targets = await collectTargets(ctx, input);
  if ("status" in targets) return targets;
  const result: GrepJsonlResult = {
    status: "ok",
    project_key: input.project_key,
    session_ref: input.session_ref ?? null,
    pattern: input.pattern,
    count: 0,
    count_exact: true,
    offset: input.offset,
    returned: 0,
    truncated: false,
    files_searched: targets.length,
    entries: [],
  };
  let used = Buffer.byteLength(JSON.stringify({ ...result, count: Number.MAX_SAFE_INTEGER, count_exact: false, returned: input.limit, truncated: true, files_searched: targets.length })) + 8;
  let seen = 0;
  let stopped = false;
  const scanner = grepScanner(compiled, budgetMs);
  for (const target of targets) {
    const index = await getWorkspaceLineIndex(ctx, target.file.path);
    try {
      await grepFile(target.file.path, index, compiled, (lineNumber, decode) => {
        const position = seen++;
        if (position < input.offset) return;
        // One match past the page: there is more (count > offset + returned), so stop.
        if (result.entries.length >= input.limit || result.truncated) throw new GrepStop();
        const text = decode();
        const clipped = text.length > MAX_RAW_CHARS;
        const entry: GrepMatch = { session_ref: target.sessionRef, file: target.file.relative, line_number: lineNumber, raw: clipped ? clipRaw(text, compiled) : text, raw_clipped: clipped };
        const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
        if (used + size > input.max_bytes) {
          result.truncated = true;
          throw new GrepStop(); // the response is full: more follow
        }
        used += size;
        result.entries.push(entry);
      }, scanner);
    } catch (error) {
      if (error instanceof GrepStop) {
        stopped = true;
        break;
      }
      if (error instanceof GrepTimeout) {
        return {
          status: "invalid",
          errors: [
            {
              field: "pattern",
              message: `grep of '${input.pattern}' ran out of its ${budgetMs / 1000} s budget at ${target.file.relative}:${error.line} (session ${target.sessionRef}) with ${seen} match(es) found`,
              hint: "use a more specific pattern (a literal it must contain helps most), fewer nested repetitions, or narrow the search with session_ref or ledger",
            },
          ],
        };
      }
      throw error;
    }
  }
  // Stopped early: other matches may follow, so `count` is a lower bound.
  return { ...result, count: seen, count_exact: !stopped, returned: result.entries.length };
}

/**
 * A matching line longer than {@link MAX_RAW_CHARS}, cut to that many characters: its start
 * when the first match ends within them, else from {@link CLIP_BEFORE_MATCH} characters before
 * that match (issue 36: a hit 30,000 characters into a tool result showed the line's first
 * 16,384, without the match, and the search page's snippet began at `{"parentUuid":…`).
 */
export function clipRaw(text: string, pattern: GrepPattern): string {
  const matcher = pattern.re.matcher(text);
  const found = matcher.find();
  if (!found || matcher.end() <= MAX_RAW_CHARS) return text.slice(0, MAX_RAW_CHARS);
  let start = Math.min(matcher.start() - CLIP_BEFORE_MATCH, text.length - MAX_RAW_CHARS);
  // Never start on the second half of a surrogate pair.
  if (/[\uDC00-\uDFFF]/.test(text[start] ?? "")) start += 1;
  return text.slice(start, start + MAX_RAW_CHARS);
}

async function collectTargets(ctx: CoreContext, input: GrepJsonlInput): Promise<Target[] | ForensicsInvalid> {
  const refs: string[] = [];
  if (input.session_ref !== undefined) refs.push(input.session_ref);
  else {
    const project = findProject(await loadWorkspace(ctx), input.project_key);
    if (!project) return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${input.project_key}'`, hint: "use the project_key from the prepared workspace" }] };
    refs.push(...project.rows.map((r) => r.session_ref));
  }
  const targets: Target[] = [];
  let ledgerFound = input.ledger === undefined;
  for (const ref of refs) {
    const resolved = await resolveSession(ctx, input.project_key, ref);
    if (!resolved.ok) {
      if (input.session_ref !== undefined) return { status: "invalid", errors: [resolved.failure] };
      continue; // a project-wide search skips a session whose file went missing
    }
    for (const file of await sessionFiles(resolved.session)) {
      if (!matchesLedger(file, input.ledger)) continue;
      ledgerFound = true;
      targets.push({ sessionRef: ref, file });
    }
  }
  if (!ledgerFound) return { status: "invalid", errors: [unknownLedger(input.ledger!)] };
  return targets;
}

/** True when a session file belongs to `ledger` (`main`, `subagent:<agent_id>`, `tool_results`; absent = every file). */
export function matchesLedger(file: SessionFile, ledger: string | undefined): boolean {
  if (ledger === undefined) return true;
  if (ledger === "main") return file.kind === "main";
  if (ledger === "tool_results") return file.kind === "tool_result";
  if (ledger.startsWith("subagent:")) return file.kind === "subagent" && file.id === ledger.slice("subagent:".length);
  return false;
}

/** The `invalid` error for a ledger name that names no file of the session. */
export function unknownLedger(ledger: string): { field: string; message: string; hint: string } {
  return { field: "ledger", message: `unknown ledger '${ledger}'`, hint: 'use "main", "subagent:<agent_id>" (an agent listed for the session) or "tool_results"' };
}

/**
 * One search's reusable state: the read arena and the needle finder bound to its memory, and its
 * time budget: `deadline` (a `performance.now()` time; past it the scan throws
 * {@link GrepTimeout}) and `sliceMs` (the longest the scan runs before giving the event loop a
 * turn, so a slow pattern never holds up other requests).
 */
export type GrepScanner = { arena: ChunkArena; finder: SimdFinder | null; deadline: number; sliceMs: number };

/** A scanner for `pattern` (1 MiB of wasm memory, more only for a longer line); reuse it for every file of one search. */
export function grepScanner(pattern: GrepPattern, budgetMs = Number.POSITIVE_INFINITY): GrepScanner {
  const arena = new ChunkArena();
  return { arena, finder: pattern.needle ? simdFinder(arena.memory, pattern.needle, pattern.ignoreCase) : null, deadline: performance.now() + budgetMs, sliceMs: GREP_SLICE_MS };
}

/** How long a grep runs before giving the event loop a turn (other requests go on meanwhile). */
export const GREP_SLICE_MS = 20;

/** The time budget of one `grep_jsonl` call. */
export const GREP_TIME_BUDGET_MS = 10_000;

/** Thrown by a scan past its scanner's deadline; `line` is the 1-based line it reached. */
export class GrepTimeout extends Error {
  constructor(readonly line: number) {
    super("grep time budget exceeded");
  }
}

/** Thrown inside a chunk when its time slice ran out: the scan goes on from line index `resume`. */
class SliceEnd {
  constructor(readonly resume: number) {}
}

/** Thrown by a match callback that has what it needs: the scan stops. */
export class GrepStop extends Error {
  constructor() {
    super("grep stopped: enough matches");
  }
}

/** The bytes one regex search covers at most (the no-needle path): a slow pattern yields between windows. */
const REGEX_WINDOW_BYTES = 64 * 1024;

/** Needle positions tried one by one in a line before one regex search covers the rest of it. */
const MAX_ANCHORED_TRIES = 16;

/**
 * Calls `onMatch(lineNumber, decode)` for every physical line of `filePath` that `pattern`
 * matches, in order; `decode()` gives the line's text, only during the call (the chunk buffer is
 * reused), so counting a match costs no decoding. Reads whole-line chunks of up to 1 MiB through
 * the line index into `scanner`'s wasm memory (reuse one scanner for every file of a search).
 * With a needle, the SIMD finder walks the whole chunk and each hit is mapped to its line by
 * binary search in the line index: a line without the needle costs nothing. A hit is confirmed
 * on the line's own bytes (without the terminator, so a match never spans lines): no regex for
 * an exact literal; an anchored match from the hit when every match starts with the needle
 * (else the next hit, in the same line or later); else the regex over the line. Without a
 * needle, one MULTILINE RE2 search over the chunk finds the candidate lines (`scanWithRegex`);
 * with `\A` or `\z` in the pattern, every line is tested alone.
 */
export async function grepFile(
  filePath: string,
  index: LineIndex,
  pattern: GrepPattern,
  onMatch: (lineNumber: number, decode: () => string) => void,
  scanner: GrepScanner = grepScanner(pattern),
): Promise<void> {
  const { starts, lineCount, size } = index;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  await forEachLineChunk(
    filePath,
    index,
    (buf, base, first, last) => {
      const sliceEnd = performance.now() + scanner.sliceMs;
      // Called before line index `next` is looked at (all lines before it are done).
      const tick = (next: number): void => {
        const now = performance.now();
        if (now > scanner.deadline) throw new GrepTimeout(next + 1);
        if (now > sliceEnd && next > first) throw new SliceEnd(next);
      };
      try {
        scanChunk(buf, base, first, last, starts, lineEnd, pattern, scanner.finder, onMatch, tick);
      } catch (error) {
        if (error instanceof SliceEnd) return error.resume;
        throw error;
      }
      return undefined;
    },
    scanner.arena,
  );
}

/** One chunk of whole lines: `bytes` (= `buf`) holds lines `first..last`, starting at file offset `base`. */
type Chunk = { buf: Buffer; bytes: Uint8Array; base: number; first: number; last: number; starts: Float64Array; lineEnd: (i: number) => number; tick: (next: number) => void };
type OnMatch = (lineNumber: number, decode: () => string) => void;

function scanChunk(
  buf: Buffer,
  base: number,
  first: number,
  last: number,
  starts: Float64Array,
  lineEnd: (i: number) => number,
  pattern: GrepPattern,
  finder: SimdFinder | null,
  onMatch: OnMatch,
  tick: (next: number) => void,
): void {
  const chunk: Chunk = { buf, bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.length), base, first, last, starts, lineEnd, tick };
  if (finder !== null) scanWithNeedle(chunk, pattern, finder, onMatch);
  else if (pattern.textAnchors) {
    for (let i = first; i <= last; i++) {
      tick(i);
      testLine(chunk, i, pattern, onMatch);
    }
  }
  else scanWithRegex(chunk, pattern, onMatch);
}

/** Line `i`'s content `[start, contentEnd)` and its end with the terminator, as chunk offsets. */
function lineBounds(c: Chunk, i: number): { start: number; end: number; contentEnd: number } {
  const start = c.starts[i]! - c.base;
  const end = Math.min(c.buf.length, c.lineEnd(i) - c.base);
  return { start, end, contentEnd: end - terminatorBytes(c.bytes, start, end) };
}

/** The line (index in `lo..c.last`) holding chunk offset `at`: binary search in the line starts. */
function lineAt(c: Chunk, lo: number, at: number): number {
  let a = lo;
  let b = c.last;
  while (a < b) {
    const mid = Math.floor((a + b + 1) / 2);
    if (c.starts[mid]! - c.base <= at) a = mid;
    else b = mid - 1;
  }
  return a;
}

function testLine(c: Chunk, i: number, pattern: GrepPattern, onMatch: OnMatch): void {
  const { start, contentEnd } = lineBounds(c, i);
  if (pattern.re.test(c.bytes.subarray(start, contentEnd))) onMatch(i + 1, () => c.buf.toString("utf8", start, contentEnd));
}

/**
 * The needle path: the SIMD finder walks the chunk; a hit is mapped to its line and confirmed on
 * that line's bytes (never across a line break).
 */
function scanWithNeedle(c: Chunk, pattern: GrepPattern, finder: SimdFinder, onMatch: OnMatch): void {
  const { buf, bytes } = c;
  const address = buf.byteOffset;
  let pos = 0;
  let lo = c.first;
  let triedLine = -1;
  let tries = 0;
  while (pos < buf.length) {
    c.tick(lo);
    let hit = finder.find(address + pos, address + buf.length);
    if (hit < 0) return;
    hit -= address;
    const a = lineAt(c, lo, hit);
    const { start, end, contentEnd } = lineBounds(c, a);
    const report = () => onMatch(a + 1, () => buf.toString("utf8", start, contentEnd));
    if (hit + finder.length > contentEnd) {
      // The needle runs into the line break: not in this line; look further.
      pos = hit + 1;
      lo = a;
      continue;
    }
    if (pattern.startsWithNeedle && !pattern.exact) {
      if (a !== triedLine) {
        triedLine = a;
        tries = 0;
      }
      if (++tries <= MAX_ANCHORED_TRIES) {
        // NOTE: lookingAt stops where the match can no longer go on; a `^(?:…)` test() would
        // run re2js's unanchored DFA to the end of the line (it has no early exit there).
        if (!pattern.re.matcher(bytes.subarray(hit, contentEnd)).lookingAt()) {
          pos = hit + 1;
          lo = a;
          continue;
        }
        report();
      } else if (pattern.re.test(bytes.subarray(hit, contentEnd))) report(); // every match starts at a needle at or after `hit`
    } else if (pattern.exact || pattern.re.test(bytes.subarray(start, contentEnd))) report();
    pos = end;
    lo = a + 1;
    if (lo > c.last) return;
  }
}

/**
 * The no-needle path: one MULTILINE RE2 search over the chunk finds candidate lines (re2js
 * skips ahead on the pattern's own literal prefix), each confirmed alone. RE2's MULTILINE `^`
 * and `$` know only `\n`: with `lineAnchors`, a line next to another break (`\r`, U+2028…) is
 * tested alone instead, in line order.
 */
function scanWithRegex(c: Chunk, pattern: GrepPattern, onMatch: OnMatch): void {
  const { bytes } = c;
  // Lines RE2 would anchor wrongly: after, or before, a terminator other than a lone `\n`.
  const odd: number[] = [];
  if (pattern.lineAnchors) {
    for (let i = c.first; i <= c.last; i++) {
      const { start, end } = lineBounds(c, i);
      const t = terminatorBytes(bytes, start, end);
      if (t === 0 || (t === 1 && bytes[end - 1] === 0x0a)) continue;
      if (odd[odd.length - 1] !== i) odd.push(i);
      if (i < c.last) odd.push(i + 1);
    }
  }
  let next = 0; // odd[next] is the first odd line not yet tested
  const testOddBefore = (line: number) => {
    while (next < odd.length && odd[next]! < line) testLine(c, odd[next++]!, pattern, onMatch);
  };
  // Windows of whole lines of at most REGEX_WINDOW_BYTES: one search never runs long past a tick.
  for (let lo = c.first; lo <= c.last; ) {
    const wStart = lineBounds(c, lo).start;
    let hi = lo;
    while (hi < c.last && c.lineEnd(hi + 1) - c.base - wStart <= REGEX_WINDOW_BYTES) hi++;
    const matcher = pattern.chunkRe.matcher(bytes.subarray(wStart, lineBounds(c, hi).end));
    let pos = 0;
    while (lo <= hi && (c.tick(Math.min(lo, odd[next] ?? lo)), matcher.find(pos))) {
      const a = lineAt(c, lo, wStart + matcher.start());
      testOddBefore(a);
      if (odd[next] !== a) testLine(c, a, pattern, onMatch); // an odd line is tested in its turn
      pos = lineBounds(c, a).end - wStart;
      lo = a + 1;
    }
    lo = hi + 1;
  }
  testOddBefore(c.last + 1);
}
