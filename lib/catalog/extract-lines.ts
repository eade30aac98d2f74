/** A whole session file's searchable lines (lib/catalog/extract's facts), read in a worker while the catalog writes the previous session. */
import fs from "node:fs/promises";

import { type LineFacts, type LineRole, lineFacts } from "@/lib/catalog/extract";
import { lineTokens } from "@/lib/catalog/trigram-tokens";
import { Columns } from "@/lib/columns/typed-columns";
import { RangePool } from "@/lib/jsonl/range-pool";
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";

/**
 * What the catalog indexes of one file read from byte `consumed` at start to `size`: one entry per
 * non-blank whole line with text to find (`lines` 1-based physical numbers, contract §1.6;
 * `starts` its first byte, `lens` its bytes without terminator, `ends` the byte offset after its
 * terminator; `words` its index words, every distinct trigram of its whole visible text
 * (lib/catalog/trigram-tokens); `roles` {@link ROLE_CODES}; `errors` 1 when it
 * records an error; `times` ms since the epoch, NaN when none; `tools`, `files` and `calls` the
 * tool names, file paths and call ids, "\n"-joined, "" when none), then `consumed` bytes and
 * `lastLine` after the last whole line (blank lines included), and `head` the file's first
 * `headBytes` bytes. A last line without its terminator is left out (it is still being written).
 */
export type ExtractedLines = {
  size: number;
  head: Uint8Array;
  lines: Uint32Array;
  starts: Float64Array;
  lens: Uint32Array;
  ends: Float64Array;
  roles: Uint8Array;
  errors: Uint8Array;
  times: Float64Array;
  words: string[];
  tools: string[];
  files: string[];
  calls: string[];
  consumed: number;
  lastLine: number;
};

/** How a document's lines are read: JSONL records (a transcript, a subagent's) or plain text (a persisted tool result). */
export type DocFormat = "jsonl" | "text";

/** A line's role as stored (`line_meta.role`): the index of its {@link LineRole}. */
export const ROLE_CODES: readonly LineRole[] = ["user", "assistant", "tool", "other"];

/** The tool calls seen so far in a document, by call id: their results are filed under the same tool and files. */
export type KnownCalls = Map<string, { name: string; files: string[] }>;

/**
 * Collects what the catalog indexes of a file's lines as they stream by (contract §1.6 lines from
 * lib/jsonl/stream-line-bytes): the one extraction of the worker's whole-file pass and of the
 * refresh's own streamed pass over a grown or large file. Starts after `lastLine` at byte
 * `consumed`, with the file's `head` when already read (null: taken from line 1) and the calls
 * already indexed (a grown file's results answer calls made before it grew).
 */
export class LineExtractor {
  private readonly rows = new Columns(LINE_COLUMNS, 64);
  private words: string[] = [];
  private tools: string[] = [];
  private files: string[] = [];
  private calls: string[] = [];

  constructor(
    public consumed: number,
    public lastLine: number,
    public head: Uint8Array | null,
    private readonly headBytes: number,
    private readonly size: number,
    private readonly format: DocFormat = "jsonl",
    private readonly known: KnownCalls = new Map(),
  ) {}

  /** Lines collected since the last {@link take}. */
  get count(): number {
    return this.rows.count;
  }

  /**
   * Takes one physical line (its number, buffer, start, end without terminator, next line's
   * start); false for a last line without its terminator, which is left for when it is whole.
   */
  push(line: number, bytes: Buffer, start: number, end: number, next: number): boolean {
    if (this.head === null) this.head = Uint8Array.from(bytes.subarray(start, start + Math.min(this.headBytes, this.size)));
    if (end === next) return false;
    const lineStart = this.consumed;
    this.lastLine = line;
    this.consumed += next - start;
    const text = bytes.toString("utf8", start, end);
    if (text.trim() === "") return true;
    const facts = this.format === "text" ? { ...PLAIN, text } : lineFacts(text);
    if (facts.text === "") return true;
    const tools = facts.calls.map((c) => c.name);
    const files = [...facts.files];
    for (const call of facts.calls) if (call.id !== "") this.known.set(call.id, { name: call.name, files: call.files });
    for (const id of facts.answers) {
      const call = this.known.get(id);
      if (!call) continue;
      tools.push(call.name);
      files.push(...call.files);
    }
    const i = this.rows.add();
    const c = this.rows.cols;
    c.lines[i] = line;
    c.starts[i] = lineStart;
    c.lens[i] = end - start;
    c.ends[i] = this.consumed;
    c.roles[i] = ROLE_CODES.indexOf(facts.role);
    c.errors[i] = facts.error ? 1 : 0;
    c.times[i] = facts.time;
    this.words.push(lineTokens(facts.text));
    this.tools.push([...new Set(tools)].join("\n"));
    this.files.push([...new Set(files)].join("\n"));
    this.calls.push(facts.calls.map((call) => call.id).filter((id) => id !== "").join("\n"));
    return true;
  }

  /** The lines collected since the last call, with the position after every line seen so far. */
  take(): ExtractedLines {
    const out: ExtractedLines = { size: this.size, head: this.head ?? new Uint8Array(0), ...this.rows.take(), words: this.words, tools: this.tools, files: this.files, calls: this.calls, consumed: this.consumed, lastLine: this.lastLine };
    this.words = [];
    this.tools = [];
    this.files = [];
    this.calls = [];
    return out;
  }
}

/** The facts of a plain-text line (a persisted tool result): all of it is read as a tool's output. */
const PLAIN: LineFacts = { text: "", role: "tool", calls: [], answers: [], files: [], error: false, time: Number.NaN };

/**
 * The range-pool task (lib/jsonl/range-pool) behind {@link ExtractedLines}: reads bytes
 * `[0, range.endByte)` of `filePath` (the caller's stat of its size), `headBytes` the head kept.
 * @throws the fs error when the file cannot be read.
 */
export async function extractFileLines(filePath: string, range: LineRange, headBytes: number, format: DocFormat = "jsonl"): Promise<ExtractedLines> {
  const size = range.endByte;
  const lines = new LineExtractor(0, 0, null, headBytes, size, format);
  if (size === 0) return lines.take();
  const chunkBytes = Math.min(1 << 20, Math.max(1 << 16, size));
  await forEachLineBytes(filePath, { range: { startByte: 0, endByte: size, firstLine: 1 }, chunkBytes, headroomBytes: 1 << 16 }, (line, bytes, start, end, next) => lines.push(line, bytes, start, end, next));
  return lines.take();
}

/** The typed columns of {@link ExtractedLines}. */
const LINE_COLUMNS = { lines: Uint32Array, starts: Float64Array, lens: Uint32Array, ends: Float64Array, roles: Uint8Array, errors: Uint8Array, times: Float64Array } as const;

/** The byte size of `filePath` now, as the range {@link extractFileLines} reads. */
export async function wholeFileRange(filePath: string): Promise<LineRange> {
  const st = await fs.stat(filePath);
  return { firstLine: 1, lastLine: Number.MAX_SAFE_INTEGER, startByte: 0, endByte: st.size };
}

/** Files larger than this are indexed by the refresh itself, streamed (a result holds every line's text). */
const PREFETCH_MAX_BYTES = 32 << 20;

/**
 * Extraction of the next sessions' lines on worker threads (lib/jsonl/range-pool, one pool of one
 * worker each, files handed out in turn) while the catalog's thread writes the current one's rows:
 * extraction (JSON parsing, the trigram words) costs more than the writes, so two extract at once.
 * {@link want} queues a file (read from byte 0 to its size then); {@link take} hands its result
 * over (null when it failed or the file is too large: the caller reads it itself). A result is a
 * cache, never a source of truth: the caller checks the size it was read at. Call {@link close} when done.
 */
export class LinePrefetch {
  private readonly pools: RangePool<number, ExtractedLines>[];
  private readonly chains: Promise<unknown>[];
  private queued = 0;
  private readonly pending = new Map<string, Promise<ExtractedLines | null>>();

  /** @param workers extracting threads (each takes one of the process's worker slots). */
  constructor(
    private readonly headBytes: number,
    workers = PREFETCH_WORKERS,
  ) {
    this.pools = Array.from({ length: Math.max(1, workers) }, () => new RangePool<number, ExtractedLines>(() => startWorker(import.meta.url, "./extract-worker.ts"), 1, { workersOnly: true }));
    this.chains = this.pools.map(() => Promise.resolve());
  }

  /** Files to queue ahead of the one being written: two for each extracting thread. */
  get ahead(): number {
    return this.pools.length * 2;
  }

  /** Queues `filePath` (an absolute path already inside its project) on the next worker in turn. */
  want(filePath: string): void {
    if (this.pending.has(filePath)) return;
    const k = this.queued++ % this.pools.length;
    const job = this.chains[k]!.then(async () => {
      const range = await wholeFileRange(filePath);
      if (range.endByte > PREFETCH_MAX_BYTES) return null;
      let result: ExtractedLines | null = null;
      await this.pools[k]!.map(extractFileLines, filePath, [range], this.headBytes, (r) => {
        result = r;
      });
      return result;
    }).catch(() => null);
    this.chains[k] = job;
    this.pending.set(filePath, job);
  }

  /** The queued result of `filePath`, removed from the queue; undefined when it was not queued. */
  take(filePath: string): Promise<ExtractedLines | null> | undefined {
    const job = this.pending.get(filePath);
    this.pending.delete(filePath);
    return job;
  }

  /** Forgets `filePath`'s result (its session did not need it). */
  drop(filePath: string): void {
    this.pending.delete(filePath);
  }

  /** Waits for queued work and stops the workers. */
  async close(): Promise<void> {
    this.pending.clear();
    await Promise.all(this.chains);
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

/** Extracting threads of a {@link LinePrefetch}: the writer's thread needs about half a core beside them. */
const PREFETCH_WORKERS = 2;
