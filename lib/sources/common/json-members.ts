/**
 * The top-level members an agent's turns-only replay reads of a JSONL line (issue 38 speed:
 * Gemini's and Copilot's prepare-turns), found by the SIMD scan kernel (lib/jsonl/json-scan)
 * without `JSON.parse` of the line: every byte is checked, only the wanted values are read.
 */
import { DATA_OFFSET, JsonScanMemory, memberState } from "@/lib/jsonl/json-scan";

/** A line's wanted members: `[valueStart, valueEnd)` of each key met (the last one, as `JSON.parse` keeps). */
export type Members<K extends string> = Partial<Record<K, [number, number]>>;

/** The scan memory of this thread, kept up to {@link KEEP_MEMORY_BYTES} (a larger text gets one of its own). */
let shared: JsonScanMemory | null = null;
const KEEP_MEMORY_BYTES = 64 << 20;

/**
 * A JSONL text loaded into the scan kernel's memory, whose lines' members named `keys` are read
 * by {@link MemberLines.members}; `text(span)` and `json(span)` decode a value.
 */
export class MemberLines<K extends string> {
  /** The kernel's memory: the text is at `[start, end)`. */
  readonly b: Buffer;
  readonly start = DATA_OFFSET;
  readonly end: number;
  private readonly memory: JsonScanMemory;
  private readonly state: Int32Array;
  private readonly keyBytes: Buffer[];
  /** `nextMember`'s mask: bit n for a key of n bytes. */
  private readonly wanted: number;

  /** Loads `data` (UTF-8 JSONL) for reading the members `keys` (each under 32 bytes, no escapes) of its lines. */
  constructor(
    data: Buffer,
    private readonly keys: readonly K[],
  ) {
    this.memory = data.length > KEEP_MEMORY_BYTES ? new JsonScanMemory() : (shared ??= new JsonScanMemory());
    this.b = this.memory.load(data, 0, data.length);
    this.state = memberState(this.b.buffer);
    this.end = DATA_OFFSET + data.length;
    this.keyBytes = keys.map((k) => Buffer.from(`"${k}"`));
    this.wanted = keys.reduce((mask, k) => mask | (1 << k.length), 0);
  }

  /**
   * The wanted members of the object that is the whole of `[start, end)` (JSON whitespace around
   * it allowed), every byte checked by the kernel; null when the line is not one valid object or
   * a top-level key holds an escape.
   */
  members(start: number, end: number): Members<K> | null {
    const { b, state } = this;
    let p = skipSpace(b, start, end);
    if (p >= end || b[p] !== 0x7b) return null;
    const members: Members<K> = {};
    let first = 1;
    for (;;) {
      const at = this.memory.nextMember(p, end, this.wanted, first);
      if (at < 0) return null;
      if (state[0] === 0) {
        p = at;
        break;
      }
      const valueEnd = this.memory.valueEnd(at, end);
      if (valueEnd < 0) return null;
      const keyStart = state[1]!;
      const keyEnd = state[2]! + 1;
      const k = this.keyBytes.findIndex((key) => key.length === keyEnd - keyStart && b.compare(key, 0, key.length, keyStart, keyEnd) === 0);
      if (k >= 0) members[this.keys[k]!] = [at, valueEnd];
      p = valueEnd;
      first = 0;
    }
    return skipSpace(b, p, end) === end ? members : null;
  }

  /**
   * The items of the array at `span` (a value {@link members} gave: its bytes were checked), each
   * `[start, end)` without the whitespace around it; null when the value is not an array.
   */
  items(span: [number, number] | undefined): [number, number][] | null {
    if (span === undefined || this.b[span[0]] !== 0x5b) return null;
    const { b } = this;
    const end = span[1];
    const out: [number, number][] = [];
    let p = skipSpace(b, span[0] + 1, end);
    if (b[p] === 0x5d) return out;
    for (;;) {
      const start = skipSpace(b, p, end);
      const itemEnd = this.memory.valueEnd(start, end);
      if (itemEnd < 0) return null;
      out.push([start, itemEnd]);
      p = skipSpace(b, itemEnd, end);
      if (b[p] !== 0x2c) return out;
      p++;
    }
  }

  /** The text of `[span[0], span[1])`. */
  text(span: [number, number]): string {
    return this.b.toString("utf8", span[0], span[1]);
  }

  /** The value at `span` parsed (it is valid JSON: the kernel checked it), or undefined without one. */
  json(span: [number, number] | undefined): unknown {
    return span === undefined ? undefined : JSON.parse(this.text(span));
  }

  /** Whether the value at `span` is a string. */
  isString(span: [number, number] | undefined): span is [number, number] {
    return span !== undefined && this.b[span[0]] === 0x22;
  }

  /** Whether the value at `span` is an object. */
  isObject(span: [number, number] | undefined): span is [number, number] {
    return span !== undefined && this.b[span[0]] === 0x7b;
  }
}

/** Past JSON whitespace (space, tab, CR; a line holds no LF, an item of a line's array none either). */
function skipSpace(b: Buffer, p: number, end: number): number {
  while (p < end && (b[p] === 0x20 || b[p] === 0x09 || b[p] === 0x0d)) p++;
  return p;
}
