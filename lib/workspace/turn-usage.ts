import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { derivedPath } from "@/lib/fs/workspace-layout";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
import { codexTurnUsage } from "@/lib/sources/codex/turn-usage";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import type { TurnUsage } from "@/lib/workspace/schema";
import type { IndexTurn } from "@/lib/sources/common/schema";
import { getWorkspaceLineIndex, type ResolvedSession } from "@/lib/workspace/sessions";

/**
 * Bytes of turn usage kept in memory (issue 13 §4), counted as ~120 bytes a row plus two bytes a
 * character of the stamp: a session of 20,000 turns holds ~2.4 MB.
 */
export const TURN_USAGE_MEMORY_BYTES = 16 << 20;
const memory = stampedCache<TurnUsage[]>("workspace:turn-usage", TURN_USAGE_MEMORY_BYTES);
const usageBytes = (stamp: string, rows: readonly TurnUsage[]): number => 120 * rows.length + 2 * stamp.length;

/**
 * Token usage per indexed turn of a session, for the session list and viewer (issue 5).
 * Codex: input/output/total from the cumulative `token_count` counters (contract §1.8 step 6).
 * Claude Code: output tokens only, summed over distinct assistant message ids (same section);
 * input and total are null. Other sources: all null. Counts are tokens; null means unknown.
 * Cached in memory and under `.casefile/usage/`, keyed by file size, mtime and the turn spans,
 * so a session is streamed once per change.
 * @throws AppError not_found | io_error when the session file cannot be read.
 */
export async function getTurnUsage(ctx: CoreContext, session: ResolvedSession): Promise<TurnUsage[]> {
  const st = await fs.stat(session.filePath);
  const stamp = usageStamp(st, session.row.turns);
  const hit = memory.get(session.filePath, stamp);
  if (hit) return hit;
  const cacheFile = usageCacheFile(ctx, session.filePath);
  const persisted = await readCache(cacheFile, stamp);
  const rows = persisted ?? (await computeUsage(ctx, session.row.source, session.filePath, session.row.turns));
  // A cache its reader checks (stamp, JSON): no fsync (issue 13: prepare primes one per session).
  if (!persisted) await writeFileAtomic(cacheFile, JSON.stringify({ stamp, rows }), { durable: false }).catch(() => undefined);
  memory.set(session.filePath, stamp, rows, usageBytes(stamp, rows));
  return rows;
}

/**
 * Stores the Claude Code turn usage prepare already counted in its analysis pass (issue 13:
 * per-turn usage in the same pass), so the first session list or viewer visit reads no
 * transcript. `outputTokens[i]` belongs to `session.row.turns[i]` and must equal what
 * {@link getTurnUsage} would count (`ClaudeAnalysis.listedOutputTokens`). Same cache and stamp
 * as `getTurnUsage`; best effort (a failed write only costs the later recount).
 */
export async function primeTurnUsage(ctx: CoreContext, session: PrimedSession, outputTokens: readonly (number | null)[]): Promise<void> {
  if (session.row.source !== "claude-code" || outputTokens.length !== session.row.turns.length) return;
  await storeUsage(ctx, session, session.row.turns.map((t, i) => ({ turn_ref: t.turn_ref, input_tokens: null, output_tokens: outputTokens[i] ?? null, total_tokens: null })));
}

/**
 * Stores the Codex turn usage prepare computed in its analysis pass (issue 13; `CodexUsageLog`),
 * so the first page view never streams a Codex transcript. `bySpan` holds the usage of each
 * analysed turn keyed by its start line; it must cover every turn of `session.row` (else
 * nothing is stored and {@link getTurnUsage} counts later) and equal what `codexTurnUsage`
 * counts. Same cache and stamp as `getTurnUsage`; best effort.
 */
export async function primeCodexTurnUsage(ctx: CoreContext, session: PrimedSession, bySpan: readonly { start: number; input: number | null; output: number | null; total: number | null }[]): Promise<void> {
  if (session.row.source !== "codex") return;
  const byStart = new Map(bySpan.map((u) => [u.start, u]));
  const rows: TurnUsage[] = [];
  for (const t of session.row.turns) {
    const u = byStart.get(t.turn_start_line);
    if (!u) return;
    rows.push({ turn_ref: t.turn_ref, input_tokens: u.input, output_tokens: u.output, total_tokens: u.total });
  }
  await storeUsage(ctx, session, rows);
}

/** What priming reads of a session: its index row and its copy's real path (as `resolveSession` gives it). */
export type PrimedSession = Pick<ResolvedSession, "row" | "filePath">;

async function storeUsage(ctx: CoreContext, session: PrimedSession, rows: TurnUsage[]): Promise<void> {
  const st = await fs.stat(session.filePath);
  const stamp = usageStamp(st, session.row.turns);
  const file = usageCacheFile(ctx, session.filePath);
  const content = JSON.stringify({ stamp, rows });
  const current = await fs.readFile(file, "utf8").catch(() => null);
  if (current !== content) await writeFileAtomic(file, content, { durable: false }).catch(() => undefined);
  memory.set(session.filePath, stamp, rows, usageBytes(stamp, rows));
}

/**
 * What a session's turn usage depends on: the file's size and mtime and its turn spans, the
 * spans as the SHA-256 of their JSON. The JSON itself was the stamp until issue 13's last round:
 * for the 18,468 turns of the real-shaped session, 1.2 MB serialized on every call (each window
 * of visible turns asks), held in memory and parsed back from the cache file. The digest is
 * computed once per index row's turns (the workspace cache keeps a row while its index is unchanged).
 */
function usageStamp(st: { size: number; mtimeMs: number }, turns: readonly IndexTurn[]): string {
  let digest = spanDigests.get(turns);
  if (digest === undefined) {
    digest = createHash("sha256").update(JSON.stringify(turns)).digest("hex");
    spanDigests.set(turns, digest);
  }
  return `${st.size}:${st.mtimeMs}:${turns.length}:${digest}`;
}
const spanDigests = new WeakMap<readonly IndexTurn[], string>();

function usageCacheFile(ctx: CoreContext, filePath: string): string {
  return derivedPath(ctx.workspaceRoot, "usage", `${createHash("sha256").update(filePath).digest("hex")}.json`);
}

/** Sum of the known counts, or null when every turn is unknown. */
export function sumTokens(rows: TurnUsage[], key: "output_tokens" | "total_tokens"): number | null {
  const known = rows.map((r) => r[key]).filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

async function computeUsage(ctx: CoreContext, source: string, filePath: string, turns: IndexTurn[]): Promise<TurnUsage[]> {
  if (source === "codex") return codexTurnUsage(filePath, turns);
  const empty = turns.map((t) => ({ turn_ref: t.turn_ref, input_tokens: null, output_tokens: null, total_tokens: null }));
  if (source !== "claude-code" || turns.length === 0) return empty;
  const index = await getWorkspaceLineIndex(ctx, filePath);
  const totals: (number | null)[] = [];
  const usage = new ClaudeTurnUsage();
  const handle = await fs.open(filePath, "r");
  try {
    for (const turn of turns) {
      usage.reset();
      const last = Math.min(turn.turn_end_line, index.lineCount);
      for (let line = turn.turn_start_line; line <= last; ) {
        const batch = await readBatch(handle, index, line, last);
        for (const { text } of batch.lines) usage.observe(parseJsonObject(text));
        line = batch.next;
      }
      totals.push(usage.total());
    }
  } finally {
    await handle.close();
  }
  return empty.map((row, i) => ({ ...row, output_tokens: totals[i] ?? null }));
}

const BATCH_BYTES = 4 << 20;
const ASSISTANT = Buffer.from('"assistant"');

/**
 * Reads lines from `from` on, up to about 4 MiB (at least one line), and decodes only the lines
 * that can be assistant records. NOTE: decoding every tool result of a 1 GB session to strings
 * made the server's heap peak near 300 MB (issue 2 bench); usage only needs assistant lines,
 * so the others are never decoded (their malformedness therefore does not void a turn here).
 */
async function readBatch(handle: fs.FileHandle, index: LineIndex, from: number, last: number): Promise<{ lines: { text: string }[]; next: number }> {
  const end = (line: number) => (line < index.lineCount ? index.starts[line]! : index.size);
  const start = index.starts[from - 1]!;
  let to = from;
  while (to < last && end(to + 1) - start <= BATCH_BYTES) to += 1;
  const buf = Buffer.allocUnsafe(end(to) - start);
  await handle.read(buf, 0, buf.length, start);
  const lines: { text: string }[] = [];
  for (let line = from; line <= to; line += 1) {
    const slice = buf.subarray(index.starts[line - 1]! - start, end(line) - start);
    if (slice.indexOf(ASSISTANT) !== -1) lines.push({ text: slice.toString("utf8").trimEnd() });
  }
  return { lines, next: to + 1 };
}

async function readCache(file: string, stamp: string): Promise<TurnUsage[] | null> {
  try {
    const value = JSON.parse(await fs.readFile(file, "utf8")) as { stamp?: string; rows?: TurnUsage[] };
    return value.stamp === stamp && Array.isArray(value.rows) ? value.rows : null;
  } catch {
    return null;
  }
}
