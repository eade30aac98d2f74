// Token accounting of one session from its records: the one place tokens and cost are counted.
import fs from "node:fs/promises";

import { lowerBound } from "@/lib/columns/typed-columns";
import { stampedCache } from "@/lib/cache/stamped-cache";
import { fileStamp } from "@/lib/fs/file-stamp";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { BLANK, objectPlan, skimLine, STAMP } from "@/lib/sources/common/skim";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import type { AgentTranscript } from "@/lib/sources/common/agent-source";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { parseObjectBytes, plainObject, type CountedRequest, type RecordCounter, type UsageRules } from "@/lib/sources/common/usage-rules";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import { loadPricing, priceOf, requestCost, type PricingTable } from "@/lib/usage/pricing";
import type { UsageTotals } from "@/lib/usage/schema";
import { TotalsBuilder } from "@/lib/usage/totals";

/** Width of the time buckets usage is kept in (ms): 15 minutes, so any UTC offset (…:30, …:45) groups exactly by local day. */
export const BUCKET_MS = 15 * 60 * 1000;

/** Usage of one model in one 15-minute bucket, from the main transcript or the subagents. */
export type UsageBucket = {
  model: string;
  kind: "main" | "subagent";
  /** Bucket start, epoch ms (UTC, a multiple of {@link BUCKET_MS}); NaN when the records had no timestamp. */
  startMs: number;
  input: number;
  output: number;
  cacheWrite: number;
  cacheWrite1h: number;
  cacheRead: number;
  /** Thinking tokens reported apart from output (billed as output); absent in buckets stored before issue 38. */
  reasoning?: number;
  requests: number;
  /** USD, null when the model has no price. */
  cost: number | null;
};

/**
 * What one session used: totals, the main transcript and subagents apart, in time buckets by
 * model (for day/week/month reports in any time zone), and per main-transcript line (so a
 * turn's usage is the sum over its line span). Claude Code: each assistant message counted once
 * by `message.id` + `requestId` (the id alone when a record has no `requestId`) with the usage of
 * its LAST line (the final streamed count; contract §2.5); a line without `message.id` is
 * counted on its own; `<synthetic>` messages (no API call) are not counted. Codex: the increase of
 * `token_count` `info.total_token_usage` (cumulative) between events, or `last_token_usage` when
 * no total is given, under the model of the latest `turn_context` (contract §1.7); input is
 * reported without its cached part, which is `cache_read`.
 */
export type SessionUsage = {
  source: string;
  totals: UsageTotals;
  main: UsageTotals;
  subagents: UsageTotals;
  buckets: UsageBucket[];
  /** Main-transcript physical lines that carry a counted request (ascending), with its tokens. */
  lines: { line: Uint32Array; input: Float64Array; output: Float64Array; cacheWrite: Float64Array; cacheRead: Float64Array; total: Float64Array };
  /**
   * The earliest and latest own timestamp (a record's top-level, timezone-aware `timestamp`; a
   * naive or unparseable one is left out) of any record of the session's transcripts, epoch ms,
   * null when none has one: the min and max, whatever order the records are in (issue 36 item 6).
   * lib/workspace/session-clock turns them into the session's start, end and duration.
   */
  firstMs: number | null;
  lastMs: number | null;
};

/** One counted request (lib/sources' rules make them); `recordedCost`: the USD the agent itself recorded for it (OpenCode, Aider), used instead of the price table's. */
type Request = CountedRequest;

const CACHE_BYTES = 8 << 20;
const cache = stampedCache<SessionUsage>("usage:session-usage", CACHE_BYTES);

/** A transcript of a session: the main one or a subagent's (persisted tool results carry no usage). */
export type UsageFile = { kind: "main" | "subagent"; path: string };

/**
 * Where a session's usage outlives the process (lib/workspace/session-usage: a file under the
 * workspace's derived `.casefile/usage/`): `load` answers the usage stored for `stamp` or null,
 * `save` stores it (best effort: a store that cannot be written is skipped).
 */
export type UsageStore = {
  load(stamp: string): Promise<SessionUsage | null>;
  save(stamp: string, usage: SessionUsage): Promise<void>;
};

/**
 * The usage of one session's transcripts (`files`: main first, then subagents), read in one
 * streaming pass per file (memory: one read chunk plus one entry per distinct request) and
 * cached per process under `key` while every file keeps its size and mtime and the price
 * override file (`overrideFile`) is unchanged; concurrent callers for the same version share one
 * pass (the Analysis page's overview and analysis asked for a cold gigabyte session's usage at
 * once). With a `store`, a version counted by an earlier process is loaded from it instead of
 * read again, and a new count is saved there. lib/workspace/session-usage gives it a session's
 * files, the workspace's override path and its store.
 * @throws the fs error when a transcript cannot be read; AppError parse_error for a bad price override file.
 */
export async function readUsage(key: string, source: string, files: readonly UsageFile[], overrideFile: string, store?: UsageStore): Promise<SessionUsage> {
  const stamps = await Promise.all(files.map(async (f) => {
    const st = await fs.stat(f.path);
    return `${f.path}:${fileStamp(st)}`;
  }));
  const priceStamp = await fs.stat(overrideFile).then((s) => fileStamp(s), () => "-");
  const stamp = `${USAGE_VERSION}|${stamps.join("|")}#${priceStamp}`;
  return cache.getOrBuild(key, stamp, async () => {
    let usage = (await store?.load(stamp).catch(() => null)) ?? null;
    if (usage === null) {
      usage = await usageOfFiles(source, files, await loadPricing(overrideFile));
      await store?.save(stamp, usage).catch(() => undefined);
    }
    return { value: usage, bytes: 2000 + usage.buckets.length * 120 + usage.lines.line.length * 44 };
  });
}

/**
 * Bumped when the counting rules or the bundled prices change, so usage stored by an older
 * Casefile (a {@link UsageStore}) is counted again.
 */
const USAGE_VERSION = "u5";

/** A {@link SessionUsage} as plain JSON (its typed arrays as arrays), for a {@link UsageStore}. */
export function usageToJson(usage: SessionUsage): unknown {
  const l = usage.lines;
  return { ...usage, lines: { line: Array.from(l.line), input: Array.from(l.input), output: Array.from(l.output), cacheWrite: Array.from(l.cacheWrite), cacheRead: Array.from(l.cacheRead), total: Array.from(l.total) } };
}

/**
 * The {@link SessionUsage} {@link usageToJson} wrote, or null when `value` does not have its
 * shape (a damaged or foreign file: the caller counts again). `NaN` bucket starts, written as
 * null, come back as NaN.
 */
export function usageFromJson(value: unknown): SessionUsage | null {
  const v = obj(value);
  const l = obj(v?.lines);
  const arrays = ["line", "input", "output", "cacheWrite", "cacheRead", "total"] as const;
  if (!v || !l || typeof v.source !== "string" || !Array.isArray(v.buckets) || !obj(v.totals) || !obj(v.main) || !obj(v.subagents)) return null;
  if (!arrays.every((k) => Array.isArray(l[k]) && (l[k] as unknown[]).length === (l.line as unknown[]).length)) return null;
  const nums = (k: (typeof arrays)[number]) => (l[k] as unknown[]).map((n) => (typeof n === "number" ? n : 0));
  // Usage stored before issue 36 also has totals by model, which nothing read: left out.
  const { by_model: _byModel, ...stored } = v;
  return {
    ...(stored as unknown as SessionUsage),
    buckets: (v.buckets as UsageBucket[]).map((b) => ({ ...b, startMs: typeof b.startMs === "number" ? b.startMs : NaN })),
    lines: { line: Uint32Array.from(nums("line")), input: Float64Array.from(nums("input")), output: Float64Array.from(nums("output")), cacheWrite: Float64Array.from(nums("cacheWrite")), cacheRead: Float64Array.from(nums("cacheRead")), total: Float64Array.from(nums("total")) },
    firstMs: typeof v.firstMs === "number" ? v.firstMs : null,
    lastMs: typeof v.lastMs === "number" ? v.lastMs : null,
  };
}

/** Forgets every cached session usage (tests that stand for a new process). */
export function clearUsageCache(): void {
  cache.clear();
}

/**
 * {@link SessionUsage} of transcript files (main first, then subagents), priced with `pricing`:
 * the per-session function the catalog calls (issue 25) and {@link readUsage} caches.
 * @throws the fs error when a file cannot be read.
 */
export async function usageOfFiles(source: string, files: readonly UsageFile[], pricing: PricingTable): Promise<SessionUsage> {
  const requests: Request[] = [];
  const span = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
  const agent = files[0] ? await readAgentTranscript(source, files[0].path) : null;
  const rules = transcriptFormat(source)?.usage;
  if (agent !== null) countAgentRecords(agent, requests, span);
  else if (rules !== undefined) {
    const session = rules.session(requests);
    for (const f of files) await forEachWantedRecord(f.path, rules.wanted, rules.build, span, session.file(f.kind));
  }
  return summarize(source, requests, pricing, span);
}

const TIMESTAMP_NEEDLE = Buffer.from('"timestamp"');

const obj = plainObject;
const parse = parseObjectBytes;

/** A record's own time: its aware top-level `timestamp` (as every other reader takes it; a naive one has none), epoch ms, NaN when none. */
function timeOf(record: Record<string, unknown>): number {
  return parseAwareTimestamp(record.timestamp) ?? NaN;
}

/** The skim plan of a line read only for its time: its top-level `timestamp`, nothing built. */
const OWN_TIME = objectPlan({ timestamp: STAMP });

/**
 * A line's own time, the aware top-level `timestamp` ({@link timeOf}), epoch ms, NaN when none (a
 * line without the key costs one byte search). Skimmed, not peeked at: the first `"timestamp"` of
 * a line can be a nested one (a file-history-snapshot's `snapshot.timestamp`, a progress
 * record's mirrored subagent message), which would move the session's start or end.
 */
function ownTime(bytes: Buffer, start: number, end: number): number {
  if (bytes.subarray(start, end).indexOf(TIMESTAMP_NEEDLE) === -1) return NaN;
  const skimmed = skimLine(bytes, start, end, OWN_TIME);
  if (skimmed === BLANK) return NaN;
  if (skimmed !== null) return skimmed.timestampMs ?? NaN;
  const record = parse(bytes, start, end);
  return record === null ? NaN : timeOf(record);
}

function widen(span: { first: number; last: number }, ts: number): void {
  if (ts !== ts) return;
  if (ts < span.first) span.first = ts;
  if (ts > span.last) span.last = ts;
}

/**
 * Calls `onRecord` with each line of `filePath` that `wanted` accepts (a byte test, no parse),
 * built by `build`, with its time and line number; every line's own time widens `span` (a line
 * not wanted by {@link ownTime}). Lines `build` cannot read are skipped.
 * `onIndex` is given the file's line index (its size and mtime as read) when the pass ends.
 */
async function forEachWantedRecord(
  filePath: string,
  wanted: (view: Buffer) => boolean,
  build: (bytes: Buffer, start: number, end: number) => Record<string, unknown> | null,
  span: { first: number; last: number },
  onRecord: RecordCounter,
  onIndex?: (index: LineIndex) => void,
): Promise<void> {
  await forEachLineBytes(filePath, { onIndex }, (line, bytes, start, end) => {
    if (!wanted(bytes.subarray(start, end))) {
      widen(span, ownTime(bytes, start, end));
      return;
    }
    const record = build(bytes, start, end);
    if (record === null) return;
    const ts = timeOf(record);
    widen(span, ts);
    onRecord(record, ts, line);
  });
}

/**
 * An agent's session (lib/sources/agents): every usage entry its reader put on a line is one
 * request on that line at the line's time, counted the agent's way (docs/sources/<agent>.md):
 * reasoning tokens reported apart stay apart (billed as output, in the total, as ccusage's Gemini
 * report counts thoughts); a cost the agent recorded is taken as it is. Every record's time widens the span.
 */
function countAgentRecords(transcript: AgentTranscript, out: Request[], span: { first: number; last: number }): void {
  for (const record of transcript.records) {
    const ts = record.time === null ? NaN : Date.parse(record.time);
    widen(span, ts);
    for (const u of record.usage) {
      out.push({ model: u.model ?? "unknown", kind: "main", ts, line: record.line, input: u.input, output: u.output, reasoning: u.reasoning, cacheWrite: u.cacheWrite, cacheWrite1h: 0, cacheRead: u.cacheRead, recordedCost: u.costUsd });
    }
  }
}

/** What the catalog keeps of a session's usage: its totals, time buckets and first and last record time (no per-line arrays). */
export type UsageTally = Pick<SessionUsage, "totals" | "buckets" | "firstMs" | "lastMs">;

/**
 * The usage of one JSONL session counted from records another pass has already built (prepare's
 * analysis reads every line of a transcript it copies, issue 25), by the same rule as
 * {@link usageOfFiles} (the source's, lib/sources/formats): fed each main-transcript line's record
 * in file order through {@link line}, then the subagents through {@link readSubagent}, it
 * tallies what usageOfFiles would of those files.
 */
export class UsageCounter {
  private readonly requests: Request[] = [];
  private readonly rules: UsageRules;
  private readonly session: ReturnType<UsageRules["session"]>;
  private readonly main: RecordCounter;
  private readonly span = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };

  /** @throws Error when `source` has no JSONL counting rule (an agent behind the source contract, an unknown name). */
  constructor(source: string) {
    const rules = transcriptFormat(source)?.usage;
    if (rules === undefined) throw new Error(`no JSONL usage rule for source ${source}`);
    this.rules = rules;
    this.session = rules.session(this.requests);
    this.main = this.session.file("main");
  }

  /**
   * Counts line `line` (bytes `bytes[start, end)`) of the main transcript: its record (with at
   * least the fields the rule's `build` reads, or parsed whole) and its aware top-level timestamp
   * (`undefined`: read it from the record; null: none). Only a line {@link usageOfFiles} would
   * build is counted; every line's time widens the first and last record time.
   */
  line(line: number, record: Record<string, unknown>, timestampMs: number | null | undefined, bytes: Buffer, start: number, end: number): void {
    const ts = timestampMs === undefined ? timeOf(record) : (timestampMs ?? NaN);
    widen(this.span, ts);
    if (!this.rules.counts(record) || !this.rules.wanted(bytes.subarray(start, end))) return;
    this.main(record, ts, line);
  }

  /**
   * Counts a subagent transcript of the session (after the main one; subagents in the order the
   * session lists them), read in one pass as {@link usageOfFiles} reads it. Returns the bytes read
   * (the file's size when opened).
   * @throws the fs error when it cannot be read.
   */
  async readSubagent(filePath: string): Promise<number> {
    let size = 0;
    await forEachWantedRecord(filePath, this.rules.wanted, this.rules.build, this.span, this.session.file("subagent"), (index) => (size = index.size));
    return size;
  }

  /** The totals, buckets and first and last record time of the lines fed so far, priced with `pricing`. */
  tally(pricing: PricingTable): UsageTally {
    return { ...tallyOf(this.requests, pricing), ...spanTimes(this.span) };
  }
}

/**
 * The totals and time buckets of `requests`, each priced with `pricing`; `more` is given each
 * request with its count and cost (for the breakdowns {@link summarize} adds).
 */
function tallyOf(requests: readonly Request[], pricing: PricingTable, more?: (r: Request, counted: Request & { requests: number }, cost: number | null) => void): Pick<UsageTally, "totals" | "buckets"> {
  const all = new TotalsBuilder();
  const buckets = new Map<string, UsageBucket>();
  for (const r of requests) {
    const price = r.recordedCost != null ? null : priceOf(pricing, r.model);
    // Reasoning reported apart is billed as output.
    const cost = r.recordedCost != null ? r.recordedCost : price === null ? null : requestCost(price, r.reasoning ? { ...r, output: r.output + r.reasoning } : r, pricing.tierThreshold);
    const counted = { ...r, requests: 1 };
    all.add(r.model, counted, cost);
    const startMs = r.ts === r.ts ? Math.floor(r.ts / BUCKET_MS) * BUCKET_MS : NaN;
    const key = `${r.model}\u0000${r.kind}\u0000${startMs}`;
    let b = buckets.get(key);
    if (!b) buckets.set(key, (b = { model: r.model, kind: r.kind, startMs, input: 0, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, reasoning: 0, requests: 0, cost: 0 }));
    b.input += r.input;
    b.output += r.output;
    b.cacheWrite += r.cacheWrite;
    b.cacheWrite1h += r.cacheWrite1h;
    b.cacheRead += r.cacheRead;
    b.reasoning = (b.reasoning ?? 0) + (r.reasoning ?? 0);
    b.requests += 1;
    b.cost = cost === null || b.cost === null ? null : b.cost + cost;
    more?.(r, counted, cost);
  }
  return {
    totals: all.build(),
    buckets: [...buckets.values()].sort((a, b) => (a.startMs - b.startMs) || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0) || (a.kind < b.kind ? -1 : 1)),
  };
}

function summarize(source: string, requests: Request[], pricing: PricingTable, span: { first: number; last: number }): SessionUsage {
  const main = new TotalsBuilder();
  const sub = new TotalsBuilder();
  const mainLines: Request[] = [];
  const { totals, buckets } = tallyOf(requests, pricing, (r, counted, cost) => {
    (r.kind === "main" ? main : sub).add(r.model, counted, cost);
    if (r.kind === "main") mainLines.push(r);
  });
  mainLines.sort((a, b) => a.line - b.line);
  const n = mainLines.length;
  const lines = { line: new Uint32Array(n), input: new Float64Array(n), output: new Float64Array(n), cacheWrite: new Float64Array(n), cacheRead: new Float64Array(n), total: new Float64Array(n) };
  mainLines.forEach((r, i) => {
    lines.line[i] = r.line;
    lines.input[i] = r.input;
    lines.output[i] = r.output;
    lines.cacheWrite[i] = r.cacheWrite;
    lines.cacheRead[i] = r.cacheRead;
    lines.total[i] = r.input + r.output + (r.reasoning ?? 0) + r.cacheWrite + r.cacheRead;
  });
  return {
    source,
    totals,
    main: main.build(),
    subagents: sub.build(),
    buckets,
    lines,
    ...spanTimes(span),
  };
}

/** A widened span as `firstMs`/`lastMs`, null when no time widened it. */
function spanTimes(span: { first: number; last: number }): Pick<SessionUsage, "firstMs" | "lastMs"> {
  return { firstMs: span.first === Number.POSITIVE_INFINITY ? null : span.first, lastMs: span.last === Number.NEGATIVE_INFINITY ? null : span.last };
}

/**
 * The usage of the main-transcript lines `[fromLine, toLine]` (a turn's span): input, output and
 * total tokens (total: all four kinds), each null when no counted request falls in the span.
 */
export function usageOfLines(usage: SessionUsage, fromLine: number, toLine: number): { input: number | null; output: number | null; total: number | null } {
  const { line } = usage.lines;
  const lo = lowerBound(line, fromLine);
  let input = 0;
  let output = 0;
  let total = 0;
  let n = 0;
  for (let i = lo; i < line.length && line[i]! <= toLine; i++) {
    input += usage.lines.input[i]!;
    output += usage.lines.output[i]!;
    total += usage.lines.total[i]!;
    n += 1;
  }
  return n === 0 ? { input: null, output: null, total: null } : { input, output, total };
}

/**
 * The token progression of the main transcript, one point per counted request at its counted
 * (last) line, with its final usage: what the Analysis tab's token chart draws. `cache_creation`
 * is null for Codex (its records have none).
 */
export function tokenPointsOf(usage: SessionUsage): { line: number; cache_read: number; cache_creation: number | null; input: number; output: number }[] {
  const { line, input, output, cacheWrite, cacheRead } = usage.lines;
  const writes = transcriptFormat(usage.source)?.usage.recordsCacheWrites !== false;
  return Array.from(line, (l, i) => ({ line: l, cache_read: cacheRead[i]!, cache_creation: writes ? cacheWrite[i]! : null, input: input[i]!, output: output[i]! }));
}
