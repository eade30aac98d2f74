/** JSON text checked and walked by a SIMD WebAssembly kernel (string ends, numbers, the skim's tape). */
import { JSON_SCAN_WASM } from "@/lib/jsonl/json-scan-wasm";

/**
 * JSON text held in a `WebAssembly.Memory`, checked by a small WebAssembly module with 128-bit
 * SIMD: the end of a string (its content validated: no raw control byte, only the escapes
 * `\" \\ \/ \b \f \n \r \t \uXXXX`, RFC 8259 §7) and the end of any JSON value (its whole grammar
 * checked, nothing built), 16 bytes a step with escapes handled inside, so validating every byte
 * of a line (prepare's malformed count, the skim) costs little more than finding its quotes.
 * The module is written in lib/jsonl/json-scan.wat and compiled by `npm run wasm` (wabt) into
 * json-scan-wasm.ts, whose bytes a test recompiles and compares; the addresses below are the
 * constants the .wat names in comments. Bytes `[0, STACK_BYTES)` of the memory are the value scanner's stack of
 * open containers, then come three words {@link JsonScanner.nextMember} reports through (see
 * {@link memberState}); text is loaded at {@link DATA_OFFSET}.
 */
export type JsonScanner = {
  /**
   * Index just past the closing quote of the string whose opening quote is at `open`, or -1 when
   * it does not close before `end` or its content is not valid JSON. Addresses are byte offsets
   * into the scanner's memory.
   */
  stringEnd(open: number, end: number): number;
  /**
   * Index just past the JSON value starting at `at` (whitespace before it skipped), or -1 when
   * it is not a valid value before `end` or nests deeper than {@link MAX_DEPTH} containers.
   */
  valueEnd(at: number, end: number): number;
  /**
   * Walks an object's members up to the next one whose key is `wanted`, checking everything it
   * steps over (as {@link valueEnd}): `first` 1 with `at` on the `{`, or 0 with `at` just past
   * the previous member's value. Keys are told apart by their raw byte length alone: a member
   * whose key is `n` bytes long (`n` < 32) is stopped at when bit `n` of `wanted` is set, and
   * any other member is stepped over. Returns the index of the stopped-at member's value (its
   * first byte; {@link memberState} then holds 1 and its key's quotes), or the index just past
   * the object's `}` (state 0); -1 when the object is not valid before `end`, -3 at a key
   * holding an escape (which could spell any name: the caller decides the line otherwise). One
   * call steps over every member a caller's plan skips (issue 13: prepare's skim).
   */
  nextMember(at: number, end: number, wanted: number, first: number): number;
  /**
   * Walks the object whose `{` is at `at` by the compiled object plan at `node` (see
   * {@link ScanRegions.plans}), checking every byte as {@link valueEnd} does, and appends to the
   * tape ({@link ScanRegions.tape}, from its cursor, `state[3]`) one entry of three words per
   * planned member met, in order: `[id, valueStart, valueEnd]` for a value built by the caller
   * (a leaf plan, or an object or array plan meeting another kind of value);
   * `[id | TAPE_OPEN, valueStart, 0]` … `[TAPE_CLOSE, after, 0]` around the members of a nested
   * planned object; `[id | TAPE_ARRAY, valueStart, 0]` … `[TAPE_CLOSE, after, 0]` around the
   * items of a planned array, each `[TAPE_ITEM, start, end]` or `[TAPE_ITEM | TAPE_OPEN, start, 0]`
   * … `[TAPE_CLOSE, after, 0]`. Members no plan names are checked and stepped over. Returns the
   * index just past the object's `}`; -1 when it is not valid before `end`, -3 at a key holding
   * an escape (as {@link nextMember}), -4 when the tape is full (the caller walks the line
   * otherwise). One call per line (issue 13: prepare's skim).
   */
  walkObject(at: number, end: number, node: number): number;
};

/** Tape entry flag: a planned object's members follow, up to a {@link TAPE_CLOSE} entry. */
export const TAPE_OPEN = 1 << 16;
/** Tape entry flag: a planned array's items follow, up to a {@link TAPE_CLOSE} entry. */
export const TAPE_ARRAY = 2 << 16;
/** Tape entry flag: an array item (no member id). */
export const TAPE_ITEM = 4 << 16;
/** Tape entry code: the object or array opened last ends (its second word: the index past it). */
export const TAPE_CLOSE = 8 << 16;
/** Plan node entry kinds (see {@link ScanRegions.plans}). */
export const PLAN_LEAF = 0;
export const PLAN_OBJECT = 1;
export const PLAN_ARRAY = 2;

/** The module instantiated over `memory` (whose first {@link DATA_OFFSET} bytes it owns). */
function scannerOver(memory: WebAssembly.Memory): JsonScanner {
  const exports = new WebAssembly.Instance(compiled(), { m: { mem: memory } }).exports as {
    str: (p: number, end: number) => number;
    skip: (p: number, end: number) => number;
    member: (p: number, end: number, wanted: number, first: number) => number;
    walk: (p: number, end: number, node: number) => number;
  };
  return { stringEnd: exports.str, valueEnd: exports.skip, nextMember: exports.member, walkObject: exports.walk };
}

/**
 * The words {@link JsonScanner.nextMember} reports through, in the memory whose buffer is
 * `buffer` (a scan memory's, or a {@link JsonScanMemory}'s `bytes.buffer`, re-read after the
 * memory grows): `[0]` 1 when the last call stopped at a member (0 when it passed the `}`),
 * `[1]` and `[2]` the indexes of that member key's opening and closing quotes.
 */
export function memberState(buffer: ArrayBufferLike): Int32Array {
  return scanRegions(buffer).state;
}

/**
 * The regions of a scanned memory before its text, as views over `buffer` (a scan memory's, or
 * a {@link JsonScanMemory}'s `bytes.buffer`, re-read after the memory grows):
 * - `state`: `[0..2]` the member walk's report ({@link memberState}), `[3]` the tape cursor (a
 *   byte address; set it to {@link TAPE_AT} before {@link JsonScanner.walkObject});
 * - `plans`: {@link PLAN_BYTES} bytes at {@link PLAN_AT} where a caller installs compiled object
 *   plans; a node at address `a` is the words `[lengths mask, entry count]` then per entry
 *   `[key byte length, key bytes address, kind (PLAN_LEAF, PLAN_OBJECT, PLAN_ARRAY), child node
 *   address (an object's node, an array's items node or 0), member id]`;
 * - `tape`: the walk's entries, three words each ({@link TAPE_ENTRIES} of them);
 * - `installed`: free for the caller (which plans version it copied into `plans`).
 */
export type ScanRegions = { state: Int32Array; plans: Uint8Array; tape: Int32Array; installed: number };
export function scanRegions(buffer: ArrayBufferLike): ScanRegions {
  let regions = states.get(buffer);
  if (regions === undefined) {
    regions = { state: new Int32Array(buffer, MEMBER_STATE, 4), plans: new Uint8Array(buffer, PLAN_AT, PLAN_BYTES), tape: new Int32Array(buffer, TAPE_AT, TAPE_ENTRIES * 3), installed: -1 };
    states.set(buffer, regions);
  }
  return regions;
}
const states = new WeakMap<ArrayBufferLike, ScanRegions>();

/**
 * A growable scratch memory that text is copied into ({@link load}) and then scanned: for bytes
 * that were not read into a {@link scanMemoryBuffer}.
 */
export class JsonScanMemory implements JsonScanner {
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly scanner = scannerOver(this.memory);
  /** The memory as a Buffer (replaced when the memory grows). */
  bytes: Buffer = Buffer.from(this.memory.buffer);

  /**
   * Copies `source[start, end)` to {@link DATA_OFFSET} (growing the memory as needed, with room
   * after it) and returns {@link bytes}; the text then sits at `[DATA_OFFSET, DATA_OFFSET + end - start)`.
   */
  load(source: Uint8Array, start: number, end: number): Buffer {
    const need = DATA_OFFSET + (end - start) + SLACK;
    if (need > this.bytes.length) {
      this.memory.grow(Math.ceil((need - this.bytes.length) / PAGE));
      this.bytes = Buffer.from(this.memory.buffer);
    }
    this.bytes.set(source.subarray(start, end), DATA_OFFSET);
    return this.bytes;
  }

  stringEnd(open: number, end: number): number {
    return this.scanner.stringEnd(open, end);
  }

  valueEnd(at: number, end: number): number {
    return this.scanner.valueEnd(at, end);
  }

  nextMember(at: number, end: number, wanted: number, first: number): number {
    return this.scanner.nextMember(at, end, wanted, first);
  }

  walkObject(at: number, end: number, node: number): number {
    return this.scanner.walkObject(at, end, node);
  }
}

const scanners = new WeakMap<ArrayBufferLike, JsonScanner>();

/**
 * A `bytes`-long Buffer over a `WebAssembly.Memory` of its own (after the scanner's stack), so
 * that text read into it is scanned where it lies ({@link scannerOf}), without a copy (reads into
 * wasm memory also cost less kernel time; docs/performance.md). The memory never grows, so views
 * of it stay valid.
 */
export function scanMemoryBuffer(bytes: number): Buffer {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((DATA_OFFSET + bytes + SLACK) / PAGE) });
  scanners.set(memory.buffer, scannerOver(memory));
  return Buffer.from(memory.buffer, DATA_OFFSET, bytes);
}

/** The scanner of a Buffer made by {@link scanMemoryBuffer} (`buffer` is its `.buffer`), else undefined. */
export function scannerOf(buffer: ArrayBufferLike): JsonScanner | undefined {
  return scanners.get(buffer);
}

/** Containers open at once that {@link JsonScanner.valueEnd} follows (deeper: -1, the caller decides otherwise). */
export const MAX_DEPTH = 4096;
/** Bytes at the start of a scanned memory that hold the stack of open containers. */
export const STACK_BYTES = MAX_DEPTH;
/** Where {@link JsonScanner.nextMember} reports (three words after the stack), then the tape cursor (the word at +12). */
const MEMBER_STATE = STACK_BYTES;
/**
 * A 256-byte table, written by the module at instantiation (json-scan.wat's `$escapes` data): 1
 * at the bytes that may follow a backslash as a one-byte JSON escape (`"` `\\` `/` `b` `f` `n` `r` `t`), else 0.
 */
export const ESCAPES_AT = STACK_BYTES + 64;
/** Where compiled object plans are installed ({@link ScanRegions.plans}), and their room in bytes. */
export const PLAN_AT = ESCAPES_AT + 256;
export const PLAN_BYTES = 4096;
/** Where {@link JsonScanner.walkObject} writes its tape, and its room in entries of three words. */
export const TAPE_AT = PLAN_AT + PLAN_BYTES;
export const TAPE_ENTRIES = 1024;
const TAPE_END = TAPE_AT + TAPE_ENTRIES * 12;
/** Where {@link JsonScanMemory.load} and {@link scanMemoryBuffer} put text: after the stack, the member words, the plans and the tape. */
export const DATA_OFFSET = TAPE_END;
/** Bytes kept after loaded text, so no load at the text's end reads past the memory. */
const SLACK = 64;
const PAGE = 65536;

let compiledModule: WebAssembly.Module | null = null;
function compiled(): WebAssembly.Module {
  compiledModule ??= new WebAssembly.Module(Buffer.from(JSON_SCAN_WASM, "base64"));
  return compiledModule;
}
