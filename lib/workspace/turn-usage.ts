import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import type { CoreContext } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { streamPhysicalLines } from "@/lib/jsonl/stream-lines";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
import { codexTurnUsage } from "@/lib/sources/codex/turn-usage";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import type { IndexTurn, TurnUsage } from "@/lib/workspace/schema";
import { CASEFILE_DIR, type ResolvedSession } from "@/lib/workspace/sessions";

const memory = new Map<string, { stamp: string; rows: TurnUsage[] }>();

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
  const stamp = `${st.size}:${st.mtimeMs}:${JSON.stringify(session.row.turns)}`;
  const hit = memory.get(session.filePath);
  if (hit?.stamp === stamp) return hit.rows;
  const cacheFile = path.join(ctx.workspaceRoot, CASEFILE_DIR, "usage", `${createHash("sha256").update(session.filePath).digest("hex")}.json`);
  const persisted = await readCache(cacheFile, stamp);
  const rows = persisted ?? (await computeUsage(session.row.source, session.filePath, session.row.turns));
  if (!persisted) await writeFileAtomic(cacheFile, JSON.stringify({ stamp, rows })).catch(() => undefined);
  memory.set(session.filePath, { stamp, rows });
  return rows;
}

/** Sum of the known counts, or null when every turn is unknown. */
export function sumTokens(rows: TurnUsage[], key: "output_tokens" | "total_tokens"): number | null {
  const known = rows.map((r) => r[key]).filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

async function computeUsage(source: string, filePath: string, turns: IndexTurn[]): Promise<TurnUsage[]> {
  if (source === "codex") return codexTurnUsage(filePath, turns);
  const empty = turns.map((t) => ({ turn_ref: t.turn_ref, input_tokens: null, output_tokens: null, total_tokens: null }));
  if (source !== "claude-code" || turns.length === 0) return empty;
  const byStart = new Map(turns.map((t, i) => [t.turn_start_line, i]));
  const totals: (number | null)[] = turns.map(() => null);
  const usage = new ClaudeTurnUsage();
  let current = -1;
  const lastLine = Math.max(...turns.map((t) => t.turn_end_line));
  for await (const { line, text } of streamPhysicalLines(filePath)) {
    if (line > lastLine) break;
    const starting = byStart.get(line);
    if (starting !== undefined) {
      usage.reset();
      current = starting;
    }
    if (current < 0 || line > turns[current]!.turn_end_line) continue;
    usage.observe(parseJsonObject(text));
    if (line === turns[current]!.turn_end_line) totals[current] = usage.total();
  }
  return empty.map((row, i) => ({ ...row, output_tokens: totals[i] ?? null }));
}

async function readCache(file: string, stamp: string): Promise<TurnUsage[] | null> {
  try {
    const value = JSON.parse(await fs.readFile(file, "utf8")) as { stamp?: string; rows?: TurnUsage[] };
    return value.stamp === stamp && Array.isArray(value.rows) ? value.rows : null;
  } catch {
    return null;
  }
}
