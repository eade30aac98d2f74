import type { CoreContext } from "@/lib/context";
import { forEachLineChunk } from "@/lib/forensics/line-chunks";
import { compileGrepPattern, type GrepPattern } from "@/lib/forensics/regex";
import type { ForensicsInvalid, GrepJsonlInput, GrepJsonlResult, GrepMatch } from "@/lib/forensics/schema";
import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";
import { findProject, loadWorkspace } from "@/lib/workspace/load";
import { getWorkspaceLineIndex, resolveSession, sessionFiles, type SessionFile } from "@/lib/workspace/sessions";

/** A returned `raw` line longer than this many characters is clipped (`raw_clipped: true`). */
export const MAX_RAW_CHARS = 16_384;

type Target = { sessionRef: string; file: SessionFile };

/**
 * `grep_jsonl` (seed 004, adapted): a server-side regex over the raw lines of one session's
 * files (main transcript, subagents, persisted tool results; `ledger` narrows to `main`,
 * `subagent:<agent_id>` or `tool_results`), or of every session of the project when
 * `session_ref` is absent. Returns `{session_ref, file, line_number, raw}` per matching
 * physical line — the viewer's line numbers (`grep -n`'s on `\n`-terminated JSONL) — paginated
 * by `limit`/`offset` over all matches in file order; `count` is the total number of matching
 * lines. Rows are added while the response stays within `max_bytes`; `raw` is clipped at
 * 16,384 characters. The regex engine is RE2 (re2js, linear time); a required literal is
 * searched first with `Buffer.indexOf`. Streaming: memory is one 1 MiB chunk (or the longest
 * line) plus each file's line index.
 * An invalid pattern, unknown project, session or ledger → `{status:"invalid"}` naming the field.
 * @throws the fs error when a file cannot be read.
 */
export async function grepJsonl(ctx: CoreContext, input: GrepJsonlInput): Promise<GrepJsonlResult | ForensicsInvalid> {
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
    offset: input.offset,
    returned: 0,
    truncated: false,
    files_searched: targets.length,
    entries: [],
  };
  let used = Buffer.byteLength(JSON.stringify({ ...result, count: Number.MAX_SAFE_INTEGER, returned: input.limit, truncated: true, files_searched: targets.length })) + 8;
  let seen = 0;
  for (const target of targets) {
    const index = await getWorkspaceLineIndex(ctx, target.file.path);
    await grepFile(target.file.path, index, compiled, (lineNumber, decode) => {
      const position = seen++;
      if (position < input.offset || result.entries.length >= input.limit || result.truncated) return;
      const text = decode();
      const clipped = text.length > MAX_RAW_CHARS;
      const entry: GrepMatch = { session_ref: target.sessionRef, file: target.file.relative, line_number: lineNumber, raw: clipped ? text.slice(0, MAX_RAW_CHARS) : text, raw_clipped: clipped };
      const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
      if (used + size > input.max_bytes) {
        result.truncated = true;
        return;
      }
      used += size;
      result.entries.push(entry);
    });
  }
  return { ...result, count: seen, returned: result.entries.length };
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
 * Calls `onMatch(lineNumber, decode)` for every physical line of `filePath` that `pattern`
 * matches, in order; `decode()` gives the line's text, only during the call (the chunk buffer is
 * reused), so counting a match costs no decoding. Reads whole-line chunks of up to 1 MiB through the line index; candidate
 * lines come from the needle (`Buffer.indexOf`) or from one RE2 search over the chunk, and each
 * candidate is confirmed by matching its own bytes (without the terminator), so a match never
 * spans lines.
 */
export async function grepFile(filePath: string, index: LineIndex, pattern: GrepPattern, onMatch: (lineNumber: number, decode: () => string) => void): Promise<void> {
  const { starts, lineCount, size } = index;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  await forEachLineChunk(filePath, index, (buf, base, first, last) => scanChunk(buf, base, first, last, starts, lineEnd, pattern, onMatch));
}

function scanChunk(
  buf: Buffer,
  base: number,
  first: number,
  last: number,
  starts: Float64Array,
  lineEnd: (i: number) => number,
  pattern: GrepPattern,
  onMatch: (lineNumber: number, decode: () => string) => void,
): void {
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  const matcher = pattern.needle === null ? pattern.chunkRe.matcher(bytes) : null;
  let pos = 0;
  let lo = first;
  while (pos < buf.length) {
    let hit: number;
    if (pattern.needle !== null) {
      hit = buf.indexOf(pattern.needle, pos);
      if (hit < 0) return;
    } else {
      if (!matcher!.find(pos)) return;
      hit = matcher!.start();
    }
    // The line holding byte `base + hit`: binary search in starts[lo..last].
    let a = lo;
    let b = last;
    while (a < b) {
      const mid = Math.floor((a + b + 1) / 2);
      if (starts[mid]! - base <= hit) a = mid;
      else b = mid - 1;
    }
    const start = starts[a]! - base;
    const end = Math.min(buf.length, lineEnd(a) - base);
    const contentEnd = end - terminatorBytes(bytes, start, end);
    if (hit < contentEnd || pattern.needle === null) {
      const lineBytes = bytes.subarray(start, contentEnd);
      if (pattern.exact || pattern.re.test(lineBytes)) onMatch(a + 1, () => buf.toString("utf8", start, contentEnd));
    }
    pos = end;
    lo = a + 1;
    if (lo > last) return;
  }
}
