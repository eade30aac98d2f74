/**
 * How a JSONL transcript's tokens are counted (issue 28, docs/usage.md): each source's rule turns
 * the lines that carry usage into requests; lib/usage prices and totals them.
 */

/** Tokens of one request: fresh input (cache reads and writes apart), output, cache writes (of which 1-hour ones), cache reads. */
export type RequestTokenCounts = { input: number; output: number; cacheWrite: number; cacheWrite1h: number; cacheRead: number };

/**
 * One counted request on a transcript line: its tokens, model, file kind, own time (epoch ms, NaN
 * when none) and physical line; `recordedCost` the USD the agent itself recorded for it (OpenCode,
 * Aider), `reasoning` thinking tokens reported apart (billed as output).
 */
export type CountedRequest = RequestTokenCounts & { model: string; kind: "main" | "subagent"; ts: number; line: number; recordedCost?: number | null; reasoning?: number };

/** Counts one file's wanted records, in file order: a record, its own time (epoch ms, NaN when none) and its physical line. */
export type RecordCounter = (record: Record<string, unknown>, ts: number, line: number) => void;

/**
 * A JSONL source's counting rule: which lines may carry usage (a byte test, no parse), how such a
 * line is built, and the counting of a session's files into `out`.
 */
export type UsageRules = {
  /** Whether a line's bytes may carry a counted usage (lines that fail are never built). */
  wanted(view: Buffer): boolean;
  /** The record of a wanted line `bytes[start, end)` (skimmed or parsed), null when it cannot be read. */
  build(bytes: Buffer, start: number, end: number): Record<string, unknown> | null;
  /** Whether a record built by another pass (with at least {@link build}'s fields) is one the rule counts: the record-level half of {@link wanted}. */
  counts(record: Record<string, unknown>): boolean;
  /**
   * The counting of one session's files into `out`: `file(kind)` is the counter of the next file
   * (main first, then subagents), fed its wanted records in order. State shared across files (a
   * message counted once whichever file repeats it) lives in the session.
   */
  session(out: CountedRequest[]): { file(kind: "main" | "subagent"): RecordCounter };
  /** The source records cache writes; false: a token chart leaves that series out (null), never draws it as 0 (Codex). */
  recordsCacheWrites: boolean;
};

/** A positive finite count, else 0. */
export function tokenCount(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0;
}

/** `v` as a plain object, else null. */
export function plainObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** The JSON object on `bytes[start, end)`, null when the line is not one. */
export function parseObjectBytes(bytes: Buffer, start: number, end: number): Record<string, unknown> | null {
  try {
    return plainObject(JSON.parse(bytes.toString("utf8", start, end)));
  } catch {
    return null;
  }
}
