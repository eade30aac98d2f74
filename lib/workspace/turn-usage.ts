/** Per-turn token usage of a session, cached by file version. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import { stampedCache } from "@/lib/cache/stamped-cache";
import type { CoreContext, Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { fileStamp } from "@/lib/fs/file-stamp";
import { isJsonRecord, readDerivedJson } from "@/lib/fs/set-aside";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { sourceFormat } from "@/lib/sources/formats";
import { usageOfLines } from "@/lib/usage/session-usage";
import type { TurnUsage } from "@/lib/workspace/schema";
import type { IndexTurn } from "@/lib/sources/common/schema";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import type { ResolvedSession } from "@/lib/workspace/sessions";

/**
 * Bytes of turn usage kept in memory (issue 13 §4), counted as ~120 bytes a row plus two bytes a
 * character of the stamp: a session of 20,000 turns holds ~2.4 MB.
 */
export const TURN_USAGE_MEMORY_BYTES = 16 << 20;
const memory = stampedCache<TurnUsage[]>("workspace:turn-usage", TURN_USAGE_MEMORY_BYTES);
const usageBytes = (stamp: string, rows: readonly TurnUsage[]): number => 120 * rows.length + 2 * stamp.length;

/**
 * Token usage per indexed turn of a session, for the session list and viewer (issue 5), counted
 * by lib/usage (issue 28, one count of tokens): the requests of the main transcript whose counted
 * line lies in the turn's span. `input_tokens` is input not read from cache, `total_tokens` all
 * four kinds (input, output, cache creation, cache read); null when no request falls in the turn.
 * A session of an agent read through the source contract (lib/sources/agents) counts the usage on
 * the lines of the turn's span, as its reader puts it there (a run's total on the line that ends it).
 * Cached in memory and under `.casefile/usage/`, keyed by file size, mtime and the turn spans.
 * @throws AppError not_found | io_error when the session file cannot be read.
 */
export async function getTurnUsage(ctx: CoreContext, session: ResolvedSession): Promise<TurnUsage[]> {
  const st = await fs.stat(session.filePath);
  const stamp = usageStamp(st, session.row.turns);
  const hit = memory.get(session.filePath, stamp);
  if (hit) return hit;
  const cacheFile = usageCacheFile(ctx, session.filePath);
  const persisted = await readCache(cacheFile, stamp, ctx.log);
  const rows = persisted ?? (await computeUsage(ctx, session));
  // A cache its reader checks (stamp, JSON): no fsync.
  if (!persisted) await writeFileAtomic(cacheFile, JSON.stringify({ stamp, rows }), { durable: false }).catch(() => undefined);
  memory.set(session.filePath, stamp, rows, usageBytes(stamp, rows));
  return rows;
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
  // `u3`: agent sessions counted too (issue 38); `u2`: counted by lib/usage (issue 28); older cache files are ignored.
  return `u3:${fileStamp(st)}:${turns.length}:${digest}`;
}
const spanDigests = new WeakMap<readonly IndexTurn[], string>();

function usageCacheFile(ctx: CoreContext, filePath: string): string {
  return derivedPath(ctx.workspaceRoot, "usage", `${createHash("sha256").update(filePath).digest("hex")}.json`);
}

async function computeUsage(ctx: CoreContext, session: ResolvedSession): Promise<TurnUsage[]> {
  const turns = session.row.turns;
  // Every registered source is counted (lib/usage, its format's rule); any other source has no usage to count.
  const counted = sourceFormat(session.row.source) !== null;
  if (!counted) return turns.map((t) => ({ turn_ref: t.turn_ref, input_tokens: null, output_tokens: null, total_tokens: null }));
  const usage = await readSessionUsage(ctx, session);
  return turns.map((t) => {
    const u = usageOfLines(usage, t.turn_start_line, t.turn_end_line);
    return { turn_ref: t.turn_ref, input_tokens: u.input, output_tokens: u.output, total_tokens: u.total };
  });
}

/** The cached rows when stored for `stamp`; a corrupt cache file is set aside with a warning through `log` (issue 35). */
async function readCache(file: string, stamp: string, log: Logger): Promise<TurnUsage[] | null> {
  const value = (await readDerivedJson(file, log, (v) => isJsonRecord(v) && Array.isArray(v.rows))) as { stamp?: string; rows: TurnUsage[] } | null;
  return value?.stamp === stamp ? value.rows : null;
}
