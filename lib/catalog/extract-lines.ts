/** A whole session file's searchable lines (lib/catalog/extract's facts), read in a worker while the catalog writes the previous session. */
import { readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";

import { agentLinesFacts, type LineFacts, type LineRole, lineFacts } from "@/lib/catalog/extract";
import { type PackedWords, WordPacker } from "@/lib/catalog/trigram-tokens";
import { stampedCache } from "@/lib/cache/stamped-cache";
import { Columns } from "@/lib/columns/typed-columns";
import { fileStamp } from "@/lib/fs/file-stamp";
import { RangePool } from "@/lib/jsonl/range-pool";
import { forEachLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";
import { agentSource } from "@/lib/sources/agents";
import type { AgentSource, AgentSourceName } from "@/lib/sources/common/agent-source";

/**
 * What the catalog indexes of one file read from byte `consumed` at start to `size`: one entry per
 * non-blank whole line with text to find (`lines` 1-based physical numbers, contract §1.6;
 * `starts` its first byte, `lens` its bytes without terminator, `ends` the byte offset after its
 * terminator; `words` its index words, every distinct trigram of its whole visible text
 * (lib/catalog/trigram-tokens), packed in one buffer; `roles` {@link ROLE_CODES}; `errors` 1 when it
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
  words: PackedWords;
  tools: string[];
  files: string[];
  calls: string[];
  consumed: number;
  lastLine: number;
};

/**
 * How a document's lines are read: Claude Code or Codex JSONL records (a transcript, a
 * subagent's), plain text (a persisted tool result), or an agent session's lines read by that
 * agent's reader (lib/sources/agents; its name, as the session row's `source`).
 */
export type DocFormat = "jsonl" | "text" | AgentSourceName;

/**
 * The format of a session's document: a persisted tool result is text; any other document of a
 * session whose `source` is an agent behind the source contract is read by that agent's reader;
 * the rest (Claude Code, Codex) are JSONL records.
 */
export function docFormat(source: string, kind: "main" | "subagent" | "tool_result"): DocFormat {
  if (kind === "tool_result") return "text";
  return agentSource(source)?.name ?? "jsonl";
}

/** The agent whose reader reads `format`, null for JSONL records and text. */
function formatAgent(format: DocFormat): AgentSource | null {
  return format === "jsonl" || format === "text" ? null : agentSource(format);
}

/**
 * Whether a document of `format` that only grew can be indexed from where it stopped: a JSONL
 * record's or text line's facts are its own; an agent's line may change with lines after it (a
 * Gemini message replaced later gives up its calls), so its document is read again whole.
 */
export function resumableFormat(format: DocFormat): boolean {
  return formatAgent(format) === null;
}

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
  private readonly words = new WordPacker();
  private tools: string[] = [];
  private files: string[] = [];
  private calls: string[] = [];

  constructor(
    public consumed: number,
    public lastLine: number,
    public head: Uint8Array | null,
    protected readonly headBytes: number,
    protected readonly size: number,
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
    this.addLine(line, lineStart, end - start, this.consumed, facts, NO_TOOLS);
    return true;
  }

  /**
   * Adds one line's row: its number, first byte, bytes without terminator, the byte offset after
   * its terminator, facts (`text` not empty), and the tools its results name besides those its
   * answered call ids give.
   */
  protected addLine(line: number, lineStart: number, len: number, after: number, facts: LineFacts, resultTools: readonly string[]): void {
    const tools = facts.calls.map((c) => c.name);
    for (const name of resultTools) tools.push(name);
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
    c.lens[i] = len;
    c.ends[i] = after;
    c.roles[i] = ROLE_CODES.indexOf(facts.role);
    c.errors[i] = facts.error ? 1 : 0;
    c.times[i] = facts.time;
    this.words.add(facts.text);
    this.tools.push([...new Set(tools)].join("\n"));
    this.files.push([...new Set(files)].join("\n"));
    this.calls.push(facts.calls.map((call) => call.id).filter((id) => id !== "").join("\n"));
  }

  /** The lines collected since the last call, with the position after every line seen so far. */
  take(): ExtractedLines {
    const out: ExtractedLines = { size: this.size, head: this.head ?? new Uint8Array(0), ...this.rows.take(), words: this.words.take(), tools: this.tools, files: this.files, calls: this.calls, consumed: this.consumed, lastLine: this.lastLine };
    this.tools = [];
    this.files = [];
    this.calls = [];
    return out;
  }
}

/** No tools named by a line's results beyond its answered calls (every JSONL and text line). */
const NO_TOOLS: readonly string[] = [];

/**
 * {@link LineExtractor} of an agent session's document: collects every physical line (the
 * unterminated last one too, as context) and reads them all with the agent's reader when the lines
 * are taken ({@link agentLinesFacts}), since a line's facts may depend on the lines after it. Reads
 * from the start only ({@link resumableFormat}); takes once, at the end of the file.
 */
class AgentLineExtractor extends LineExtractor {
  private texts: string[] = [];
  /** First byte, bytes and byte offset after, of each whole line, three numbers a line. */
  private spans: number[] = [];

  constructor(
    head: Uint8Array | null,
    headBytes: number,
    size: number,
    private readonly agent: AgentSource,
  ) {
    super(0, 0, head, headBytes, size);
  }

  override push(line: number, bytes: Buffer, start: number, end: number, next: number): boolean {
    if (this.head === null) this.head = Uint8Array.from(bytes.subarray(start, start + Math.min(this.headBytes, this.size)));
    this.texts.push(bytes.toString("utf8", start, end));
    if (end === next) return false;
    this.spans.push(this.consumed, end - start, this.consumed + next - start);
    this.lastLine = line;
    this.consumed += next - start;
    return true;
  }

  override take(): ExtractedLines {
    if (this.texts.length > 0) {
      const facts = agentLinesFacts(this.agent, this.texts);
      for (let k = 0; k < this.spans.length / 3; k++) {
        const f = facts[k]!;
        if (f.text !== "") this.addLine(k + 1, this.spans[3 * k]!, this.spans[3 * k + 1]!, this.spans[3 * k + 2]!, f, f.resultTools);
      }
      this.texts = [];
      this.spans = [];
    }
    return super.take();
  }
}

/**
 * The {@link LineExtractor} of a document of `format` read from byte `consumed` after line
 * `lastLine` (an agent's document: from the start only, both 0; see {@link resumableFormat}).
 */
export function lineExtractor(consumed: number, lastLine: number, head: Uint8Array | null, headBytes: number, size: number, format: DocFormat = "jsonl", known?: KnownCalls): LineExtractor {
  const agent = formatAgent(format);
  if (agent === null) return new LineExtractor(consumed, lastLine, head, headBytes, size, format, known);
  if (consumed !== 0 || lastLine !== 0) throw new Error(`lineExtractor: a ${format} document is read from its start`);
  return new AgentLineExtractor(head, headBytes, size, agent);
}

/**
 * Bytes of agent documents' line texts kept for the search's check ({@link agentLineTexts}): the
 * texts of 2,000 Copilot CLI sessions (39 MB of events) count 37.5 MB, so 32 MiB kept none of a
 * search over them for the next one (an LRU scanned in order), and each search parsed every
 * candidate session again (issue 38: `agent:copilot-cli` searches 0.9-2.8 s -> 60-340 ms once read).
 */
const AGENT_TEXTS_BYTES = 96 << 20;

/**
 * The visible text of every physical line of an agent session's document as the index reads it
 * (the same {@link agentLinesFacts} over the same physical lines), `[i]` for line `i + 1`: what
 * the search checks a candidate line of such a document on. Read synchronously (the search's
 * check holds an open statement), cached per file version. Null when `format` is not an agent's.
 * @throws the fs error when the file cannot be read.
 */
export function agentLineTexts(format: DocFormat, filePath: string): readonly string[] | null {
  const agent = formatAgent(format);
  if (agent === null) return null;
  const cache = stampedCache<readonly string[]>("catalog:agent-line-texts", AGENT_TEXTS_BYTES);
  const stamp = `${agent.name}:${fileStamp(statSync(filePath))}`;
  const hit = cache.get(filePath, stamp);
  if (hit !== undefined) return hit;
  const texts = agentLinesFacts(agent, physicalLines(readFileSync(filePath, "utf8"))).map((f) => f.text);
  cache.set(filePath, stamp, texts, texts.reduce((n, t) => n + 2 * t.length + 40, 64));
  return texts;
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
  const lines = lineExtractor(0, 0, null, headBytes, size, format);
  if (size === 0) return lines.take();
  const chunkBytes = Math.min(1 << 20, Math.max(1 << 16, size));
  await forEachLineBytes(filePath, { range: { startByte: 0, endByte: size, firstLine: 1 }, chunkBytes, headroomBytes: 1 << 16 }, (line, bytes, start, end, next) => lines.push(line, bytes, start, end, next));
  return lines.take();
}

/** The typed columns of {@link ExtractedLines}. */
const LINE_COLUMNS = { lines: Uint32Array, starts: Float64Array, lens: Uint32Array, ends: Float64Array, roles: Uint8Array, errors: Uint8Array, times: Float64Array } as const;

/** What a worker's {@link extractDocLines} is given with each file: the head bytes kept and the document's format. */
export type ExtractArgs = { headBytes: number; format: DocFormat };

/** {@link extractFileLines} as a range-pool task (lib/catalog/extract-worker). */
export function extractDocLines(filePath: string, range: LineRange, args: ExtractArgs): Promise<ExtractedLines> {
  return extractFileLines(filePath, range, args.headBytes, args.format);
}

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
  private readonly pools: RangePool<ExtractArgs, ExtractedLines>[];
  private readonly chains: Promise<unknown>[];
  private queued = 0;
  private readonly pending = new Map<string, Promise<ExtractedLines | null>>();

  /** @param workers extracting threads (each takes one of the process's worker slots). */
  constructor(
    private readonly headBytes: number,
    workers = PREFETCH_WORKERS,
  ) {
    this.pools = Array.from({ length: Math.max(1, workers) }, () => new RangePool<ExtractArgs, ExtractedLines>(() => startWorker(import.meta.url, "./extract-worker.ts"), 1, { workersOnly: true }));
    this.chains = this.pools.map(() => Promise.resolve());
  }

  /** Files to queue ahead of the one being written: two for each extracting thread. */
  get ahead(): number {
    return this.pools.length * 2;
  }

  /** Queues `filePath` (an absolute path already inside its project; its lines read as `format`) on the next worker in turn. */
  want(filePath: string, format: DocFormat = "jsonl"): void {
    if (this.pending.has(filePath)) return;
    const k = this.queued++ % this.pools.length;
    const job = this.chains[k]!.then(async () => {
      // Stat'ed synchronously: the job is handed to the worker in the same turn the previous one's
      // result arrives. An awaited stat waited for this thread's next turn, which a writer busy
      // with the previous file's rows gives only when done: extraction and writing took turns.
      const size = statSync(filePath).size;
      const range: LineRange = { firstLine: 1, lastLine: Number.MAX_SAFE_INTEGER, startByte: 0, endByte: size };
      if (range.endByte > PREFETCH_MAX_BYTES) return null;
      let result: ExtractedLines | null = null;
      await this.pools[k]!.map(extractDocLines, filePath, [range], { headBytes: this.headBytes, format }, (r) => {
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
