/** JSON text checked and walked by a SIMD WebAssembly kernel (string ends, numbers, the skim's tape). */
import { ADD, AND, BITMASK8, Body as AsmBody, CTZ, EQ, EQ8, EQZ, GE_U, GT_U, I32, leb, LOAD32, LOAD8, loadV128, LT_S, LT_U, LT_U8, MUL, name, NE, OR, section, SHL, SHR_U, sleb, SPLAT8, store32, STORE8, SUB, V128, V_OR, vec } from "@/lib/jsonl/wasm-asm";

/**
 * JSON text held in a `WebAssembly.Memory`, checked by a small WebAssembly module with 128-bit
 * SIMD: the end of a string (its content validated: no raw control byte, only the escapes
 * `\" \\ \/ \b \f \n \r \t \uXXXX`, RFC 8259 §7) and the end of any JSON value (its whole grammar
 * checked, nothing built). A JavaScript byte loop over string content runs at ~0.3–0.5 GB/s; the
 * module checks 16 bytes a step and handles escapes without returning to JavaScript, so validating
 * every byte of a transcript line costs little more than finding its quotes (issue 13: prepare's
 * exact malformed count, contract §1.8; issue 9: the forensics skim).
 *
 * The module is assembled here from its opcodes rather than shipped as a binary, so what runs is
 * what the source reads. Bytes `[0, STACK_BYTES)` of the memory are the value scanner's stack of
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
/** Where {@link JsonScanner.nextMember} reports (three words after the stack), then the tape cursor. */
const MEMBER_STATE = STACK_BYTES;
const TAPE_CURSOR = MEMBER_STATE + 12;
/**
 * A 256-byte table, written by the module at instantiation (its data segment): 1 at the bytes
 * that may follow a backslash as a one-byte JSON escape (`"` `\\` `/` `b` `f` `n` `r` `t`), else 0.
 */
const ESCAPES_AT = STACK_BYTES + 64;
const SIMPLE_ESCAPES = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];
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
  compiledModule ??= new WebAssembly.Module(assemble());
  return compiledModule;
}

// ---- the module (WebAssembly core + SIMD128 binary format) ----

/** A function body of this module: {@link Body} with the scanner's own steps. */
class Body extends AsmBody {
  /**
   * `p = ws(p, end); c = at(p, end)` with the common case inline: a byte that is not whitespace
   * (compact JSON) costs a compare, not two calls.
   */
  wsAt(c: number): this {
    this.get(P).get(END).op(...LT_U).if();
    this.get(P).op(...LOAD8).tee(c).i32(0x21).op(...LT_U).if();
    this.get(P).get(END).call(WS).tee(P).get(END).call(AT).set(c);
    this.end();
    this.else().i32(-1).set(c).end();
    return this;
  }
  /** Returns -1 when the i32 on the stack is non-zero. */
  failIf(): this {
    return this.if().i32(-1).ret().end();
  }
}

// Functions: 0 at(p, end), 1 ws(p, end), 2 hex(c), 3 str(p, end), 4 num(p, end), 5 key(p, end), 6 skip(p, end), 7 member(p, end, wanted, first),
// 8 emit(code, a, b), 9 obj(p, end, node), 10 arr(p, end, items).
const [AT, WS, HEX, STR, NUM, KEY, SKIP, MEMBER, EMIT, OBJ, ARR] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** i32.load8_u at `offset`; i32.xor. */
const load8 = (offset: number): number[] => [0x2d, 0, ...leb(offset)];
const XOR = [0x73];
/** i32.load align=2 at `offset`. */
const load32 = (offset = 0): number[] => [0x28, 2, ...leb(offset)];
const [P, END] = [0, 1];

/** at(p, end): the byte at p, or -1 at or past end. */
function atFn(): Body {
  return new Body().get(P).get(END).op(...LT_U).ifI32().get(P).op(...LOAD8).else().i32(-1).end();
}

/** ws(p, end): the first index ≥ p that is not JSON whitespace (or end). */
function wsFn(): Body {
  const C = 2;
  const b = new Body().block("out").loop("next");
  b.get(P).get(END).op(...GE_U).brIf("out");
  b.get(P).op(...LOAD8).tee(C).i32(0x20).op(...EQ).get(C).i32(0x0a).op(...EQ).op(...OR).get(C).i32(0x0d).op(...EQ).op(...OR).get(C).i32(0x09).op(...EQ).op(...OR).op(...EQZ).brIf("out");
  b.get(P).i32(1).op(...ADD).set(P).br("next");
  return b.end().end().get(P);
}

/** hex(c): 1 for an ASCII hex digit. */
function hexFn(): Body {
  const C = 0;
  const b = new Body();
  b.get(C).i32(0x30).op(...SUB).i32(10).op(...LT_U);
  b.get(C).i32(0x20).op(...OR).i32(0x61).op(...SUB).i32(6).op(...LT_U).op(...OR);
  return b;
}

/** str(p, end): p is an opening quote; index after the closing quote, or -1. */
function strFn(): Body {
  const [M, C, E, I, Q, S, K, A] = [2, 3, 4, 5, 6, 7, 8, 9];
  const b = new Body();
  b.i32(0x22).op(...SPLAT8).set(Q).i32(0x5c).op(...SPLAT8).set(S).i32(0x20).op(...SPLAT8).set(K);
  b.get(P).i32(1).op(...ADD).set(P);
  b.loop("next");
  // 16 bytes a step while they fit, up to the first quote, backslash or control byte.
  b.block("stop");
  // Two vectors a step while 32 bytes fit (long runs of plain text: tool output, file contents).
  b.block("single").loop("pair");
  b.get(P).i32(32).op(...ADD).get(END).op(...GT_U).brIf("single");
  b.get(P).op(...loadV128()).tee(A).get(Q).op(...EQ8).get(A).get(S).op(...EQ8).op(...V_OR).get(A).get(K).op(...LT_U8).op(...V_OR).op(...BITMASK8);
  b.get(P).op(...loadV128(16)).tee(A).get(Q).op(...EQ8).get(A).get(S).op(...EQ8).op(...V_OR).get(A).get(K).op(...LT_U8).op(...V_OR).op(...BITMASK8).i32(16).op(...SHL).op(...OR).set(M);
  // The stops of these 32 bytes in order, without reloading them: a quote ends the string, a
  // simple escape is stepped over (its bit and the escaped byte's cleared), anything else (a
  // control byte, `\u`, an escape reaching past the 32 bytes) goes to the byte step below.
  // Transcript strings stop every ~20 bytes (quoted code and tool output: `\n`, `\"`).
  b.loop("bits");
  b.get(M).op(...EQZ).if().get(P).i32(32).op(...ADD).set(P).br("pair").end();
  b.get(M).op(...CTZ).set(I);
  b.get(P).get(I).op(...ADD).op(...LOAD8).tee(C).i32(0x22).op(...EQ).if().get(P).get(I).op(...ADD).i32(1).op(...ADD).ret().end();
  b.get(C).i32(0x5c).op(...NE).get(I).i32(31).op(...EQ).op(...OR).if().get(P).get(I).op(...ADD).set(P).br("stop").end();
  b.get(P).get(I).op(...ADD).op(...load8(1)).op(...load8(ESCAPES_AT)).op(...EQZ).if().get(P).get(I).op(...ADD).set(P).br("stop").end();
  b.get(M).i32(3).get(I).op(...SHL).i32(-1).op(...XOR).op(...AND).set(M).br("bits");
  b.end();
  b.end().end();
  b.loop("simd");
  b.get(P).i32(16).op(...ADD).get(END).op(...GT_U).brIf("stop");
  b.get(P).op(...loadV128()).tee(A).get(Q).op(...EQ8).get(A).get(S).op(...EQ8).op(...V_OR).get(A).get(K).op(...LT_U8).op(...V_OR).op(...BITMASK8).tee(M);
  b.if().get(P).get(M).op(...CTZ).op(...ADD).set(P).br("stop").end();
  b.get(P).i32(16).op(...ADD).set(P).br("simd");
  b.end().end();
  // One byte: a stop found above, or the tail of fewer than 16 bytes.
  b.get(P).get(END).op(...GE_U).failIf();
  b.get(P).op(...LOAD8).tee(C).i32(0x22).op(...EQ).if().get(P).i32(1).op(...ADD).ret().end();
  b.get(C).i32(0x5c).op(...EQ).if();
  b.get(P).i32(1).op(...ADD).get(END).call(AT).tee(E).i32(0).op(...LT_S).failIf();
  b.get(E).op(...load8(ESCAPES_AT)).if().get(P).i32(2).op(...ADD).set(P).br("next").end();
  b.get(E).i32(0x75).op(...NE).failIf();
  b.get(P).i32(6).op(...ADD).get(END).op(...GT_U).failIf();
  for (let k = 2; k < 6; k++) b.get(P).i32(k).op(...ADD).op(...LOAD8).call(HEX).op(...EQZ).failIf();
  b.get(P).i32(6).op(...ADD).set(P).br("next");
  b.end();
  b.get(C).i32(0x20).op(...LT_U).failIf();
  b.get(P).i32(1).op(...ADD).set(P).br("next");
  b.end();
  return b.i32(-1);
}

/** num(p, end): a JSON number at p; index after it, or -1. */
function numFn(): Body {
  const C = 2;
  const b = new Body();
  const digit = (): Body => b.get(C).i32(0x30).op(...SUB).i32(10).op(...LT_U);
  const next = (): Body => b.get(P).i32(1).op(...ADD).tee(P).get(END).call(AT).set(C);
  const run = (label: string): void => {
    b.block(label).loop(`${label}l`);
    digit().op(...EQZ).brIf(label);
    next();
    b.br(`${label}l`).end().end();
  };
  b.get(P).get(END).call(AT).tee(C).i32(0x2d).op(...EQ).if();
  next();
  b.end();
  b.get(C).i32(0x30).op(...EQ).if();
  next();
  b.else();
  b.get(C).i32(0x31).op(...SUB).i32(9).op(...LT_U).op(...EQZ).failIf();
  run("int");
  b.end();
  b.get(C).i32(0x2e).op(...EQ).if();
  next();
  digit().op(...EQZ).failIf();
  run("frac");
  b.end();
  b.get(C).i32(0x20).op(...OR).i32(0x65).op(...EQ).if();
  next();
  b.get(C).i32(0x2b).op(...EQ).get(C).i32(0x2d).op(...EQ).op(...OR).if();
  next();
  b.end();
  digit().op(...EQZ).failIf();
  run("exp");
  b.end();
  return b.get(P);
}

/** key(p, end): at p (after whitespace) a string then `:`; index after the colon, or -1. */
function keyFn(): Body {
  const C = 2;
  const b = new Body();
  b.wsAt(C).get(C).i32(0x22).op(...NE).failIf();
  b.get(P).get(END).call(STR).tee(P).i32(0).op(...LT_S).failIf();
  b.wsAt(C).get(C).i32(0x3a).op(...NE).failIf();
  return b.get(P).i32(1).op(...ADD);
}

/** skip(p, end): a JSON value at p (whitespace before it skipped); index after it, or -1. */
function skipFn(): Body {
  const [C, DEPTH, TOP, D] = [2, 3, 4, 5];
  const b = new Body();
  const failIfNegative = (): Body => b.get(P).i32(0).op(...LT_S).failIf();
  b.i32(0).set(DEPTH);
  b.loop("value");
  b.wsAt(C);
  b.block("scalar");
  // A string.
  b.get(C).i32(0x22).op(...EQ).if().get(P).get(END).call(STR).set(P).br("scalar").end();
  // A container: empty, or opened (pushed) with the value loop going on inside it.
  b.get(C).i32(0x7b).op(...EQ).get(C).i32(0x5b).op(...EQ).op(...OR).if();
  b.get(C).i32(0x7b).op(...EQ).set(TOP);
  b.get(P).i32(1).op(...ADD).set(P).wsAt(D).get(D).get(C).i32(2).op(...ADD).op(...EQ);
  b.if().get(P).i32(1).op(...ADD).set(P).br("scalar").end();
  b.get(DEPTH).i32(MAX_DEPTH).op(...GE_U).failIf();
  b.get(DEPTH).get(TOP).op(...STORE8);
  b.get(DEPTH).i32(1).op(...ADD).set(DEPTH);
  b.get(TOP).if().get(P).get(END).call(KEY).set(P).end();
  failIfNegative();
  b.br("value");
  b.end();
  // true, false, null.
  b.get(C).i32(0x74).op(...EQ).if();
  b.get(P).i32(4).op(...ADD).get(END).op(...GT_U).failIf();
  b.get(P).op(...LOAD32).i32(0x65757274).op(...NE).failIf();
  b.get(P).i32(4).op(...ADD).set(P).br("scalar").end();
  b.get(C).i32(0x6e).op(...EQ).if();
  b.get(P).i32(4).op(...ADD).get(END).op(...GT_U).failIf();
  b.get(P).op(...LOAD32).i32(0x6c6c756e).op(...NE).failIf();
  b.get(P).i32(4).op(...ADD).set(P).br("scalar").end();
  b.get(C).i32(0x66).op(...EQ).if();
  b.get(P).i32(5).op(...ADD).get(END).op(...GT_U).failIf();
  b.get(P).i32(1).op(...ADD).op(...LOAD32).i32(0x65736c61).op(...NE).failIf();
  b.get(P).i32(5).op(...ADD).set(P).br("scalar").end();
  // A number (anything else fails in num).
  b.get(P).get(END).call(NUM).set(P);
  b.end();
  failIfNegative();
  // After a value: close containers, or a comma and the next value (its key first in an object).
  b.loop("after");
  b.get(DEPTH).op(...EQZ).if().get(P).ret().end();
  b.wsAt(C);
  b.get(DEPTH).i32(1).op(...SUB).op(...LOAD8).set(TOP);
  b.get(C).i32(0x2c).op(...EQ).if();
  b.get(P).i32(1).op(...ADD).set(P);
  b.get(TOP).if().get(P).get(END).call(KEY).set(P).end();
  failIfNegative();
  b.br("value");
  b.end();
  // `}` closes an object, `]` an array: the opener + 2.
  b.get(C).i32(0x5b).get(TOP).i32(0x20).op(...MUL).op(...ADD).i32(2).op(...ADD).op(...NE).failIf();
  b.get(DEPTH).i32(1).op(...SUB).set(DEPTH);
  b.get(P).i32(1).op(...ADD).set(P);
  b.br("after");
  b.end();
  b.end();
  return b.i32(-1);
}

/** member(p, end, wanted, first): see {@link JsonScanner.nextMember}. */
function memberFn(): Body {
  const [WANTED, FIRST, C, K, KC, V, J] = [2, 3, 4, 5, 6, 7, 8];
  const b = new Body();
  const closed = (): Body => b.i32(MEMBER_STATE).i32(0).op(...store32()).get(P).i32(1).op(...ADD).ret();
  b.get(FIRST).if();
  b.get(P).get(END).call(AT).i32(0x7b).op(...NE).failIf();
  b.get(P).i32(1).op(...ADD).set(P).wsAt(C).get(C).i32(0x7d).op(...EQ).if();
  closed();
  b.end();
  b.else();
  b.wsAt(C).get(C).i32(0x7d).op(...EQ).if();
  closed();
  b.end();
  b.get(C).i32(0x2c).op(...NE).failIf();
  b.get(P).i32(1).op(...ADD).get(END).call(WS).set(P);
  b.end();
  b.loop("member");
  // The key, then `:`; a key holding an escape stops the walk (-3).
  b.get(P).get(END).call(AT).i32(0x22).op(...NE).failIf();
  b.get(P).set(K);
  b.get(P).get(END).call(STR).tee(P).i32(0).op(...LT_S).failIf();
  b.get(P).i32(1).op(...SUB).set(KC);
  b.get(K).i32(1).op(...ADD).set(J);
  b.block("plain").loop("scan");
  b.get(J).get(KC).op(...GE_U).brIf("plain");
  b.get(J).op(...LOAD8).i32(0x5c).op(...EQ).if().i32(-3).ret().end();
  b.get(J).i32(1).op(...ADD).set(J).br("scan");
  b.end().end();
  b.wsAt(C).get(C).i32(0x3a).op(...NE).failIf();
  b.get(P).i32(1).op(...ADD).get(END).call(WS).set(V);
  // A wanted key length: report the member and stop at its value.
  b.get(KC).get(K).op(...SUB).i32(1).op(...SUB).tee(J).i32(32).op(...LT_U);
  b.if();
  b.get(WANTED).get(J).op(...SHR_U).i32(1).op(...AND).if();
  b.i32(MEMBER_STATE).i32(1).op(...store32(0));
  b.i32(MEMBER_STATE).get(K).op(...store32(4));
  b.i32(MEMBER_STATE).get(KC).op(...store32(8));
  b.get(V).ret();
  b.end();
  b.end();
  // Any other: its value checked and stepped over, then `,` and the next key, or `}`.
  b.get(V).get(END).call(SKIP).tee(P).i32(0).op(...LT_S).failIf();
  b.wsAt(C).get(C).i32(0x2c).op(...EQ).if();
  b.get(P).i32(1).op(...ADD).get(END).call(WS).set(P).br("member");
  b.end();
  b.get(C).i32(0x7d).op(...NE).failIf();
  closed();
  b.end();
  return b.i32(-1);
}

/** emit(code, a, b): appends a tape entry; 0, or -4 when the tape is full. */
function emitFn(): Body {
  const [CODE, A, B, T] = [0, 1, 2, 3];
  const b = new Body();
  b.i32(TAPE_CURSOR).op(...load32()).tee(T).i32(TAPE_END).op(...GE_U).if().i32(-4).ret().end();
  b.get(T).get(CODE).op(...store32(0));
  b.get(T).get(A).op(...store32(4));
  b.get(T).get(B).op(...store32(8));
  b.i32(TAPE_CURSOR).get(T).i32(12).op(...ADD).op(...store32());
  return b.i32(0);
}

/** obj(p, end, node): see {@link JsonScanner.walkObject}. */
function objFn(): Body {
  const NODE = 2;
  const [MASK, COUNT, FIRST, V, K, LEN, E, I, HIT, J, KA, C, KIND] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
  const b = new Body();
  const emitted = (): Body => b.call(EMIT).i32(0).op(...LT_S).if().i32(-4).ret().end();
  b.get(NODE).op(...load32()).set(MASK);
  b.get(NODE).op(...load32(4)).set(COUNT);
  b.i32(1).set(FIRST);
  b.loop("member");
  b.get(P).get(END).get(MASK).get(FIRST).call(MEMBER).tee(V).i32(0).op(...LT_S).if().get(V).ret().end();
  b.i32(0).set(FIRST);
  b.i32(MEMBER_STATE).op(...load32()).op(...EQZ).if().get(V).ret().end();
  b.i32(MEMBER_STATE).op(...load32(4)).set(K);
  b.i32(MEMBER_STATE).op(...load32(8)).get(K).op(...SUB).i32(1).op(...SUB).set(LEN);
  // The plan's entry for this key: same length, same bytes.
  b.i32(0).set(HIT).get(NODE).i32(8).op(...ADD).set(E).i32(0).set(I);
  b.block("found").loop("entries");
  b.get(I).get(COUNT).op(...GE_U).brIf("found");
  b.get(E).op(...load32()).get(LEN).op(...EQ).if();
  b.get(E).op(...load32(4)).set(KA).i32(0).set(J);
  b.block("differ").loop("cmp");
  b.get(J).get(LEN).op(...GE_U).if().get(E).set(HIT).br("found").end();
  b.get(KA).get(J).op(...ADD).op(...LOAD8).get(K).i32(1).op(...ADD).get(J).op(...ADD).op(...LOAD8).op(...NE).brIf("differ");
  b.get(J).i32(1).op(...ADD).set(J).br("cmp");
  b.end().end();
  b.end();
  b.get(E).i32(20).op(...ADD).set(E).get(I).i32(1).op(...ADD).set(I).br("entries");
  b.end().end();
  // Not planned: checked and stepped over.
  b.get(HIT).op(...EQZ).if();
  b.get(V).get(END).call(SKIP).tee(P).i32(0).op(...LT_S).failIf();
  b.br("member");
  b.end();
  b.get(V).get(END).call(AT).set(C);
  b.get(HIT).op(...load32(8)).set(KIND);
  // A planned object meeting an object (its members between OPEN and CLOSE), a planned array
  // meeting an array (its items between ARRAY and CLOSE).
  for (const [kind, opener, flag, walk] of [
    [PLAN_OBJECT, 0x7b, TAPE_OPEN, OBJ],
    [PLAN_ARRAY, 0x5b, TAPE_ARRAY, ARR],
  ] as const) {
    b.get(KIND).i32(kind).op(...EQ).get(C).i32(opener).op(...EQ).op(...AND).if();
    b.get(HIT).op(...load32(16)).i32(flag).op(...OR).get(V).i32(0);
    emitted();
    b.get(V).get(END).get(HIT).op(...load32(12)).call(walk).tee(P).i32(0).op(...LT_S).if().get(P).ret().end();
    b.i32(TAPE_CLOSE).get(P).i32(0);
    emitted();
    b.br("member");
    b.end();
  }
  // Anything else: checked, and its extent given to the caller to build.
  b.get(V).get(END).call(SKIP).tee(P).i32(0).op(...LT_S).failIf();
  b.get(HIT).op(...load32(16)).get(V).get(P);
  emitted();
  b.br("member");
  b.end();
  return b.i32(-1);
}

/** arr(p, end, items): the array at p (`[`), its object items walked by the node `items` (0: none); index after its `]`, or < 0. */
function arrFn(): Body {
  const ITEMS = 2;
  const [C, Q] = [3, 4];
  const b = new Body();
  const emitted = (): Body => b.call(EMIT).i32(0).op(...LT_S).if().i32(-4).ret().end();
  b.get(P).i32(1).op(...ADD).get(END).call(WS).set(P);
  b.get(P).get(END).call(AT).i32(0x5d).op(...EQ).if().get(P).i32(1).op(...ADD).ret().end();
  b.loop("item");
  b.get(P).get(END).call(AT).set(C);
  b.get(ITEMS).i32(0).op(...NE).get(C).i32(0x7b).op(...EQ).op(...AND).if();
  b.i32(TAPE_ITEM | TAPE_OPEN).get(P).i32(0);
  emitted();
  b.get(P).get(END).get(ITEMS).call(OBJ).tee(Q).i32(0).op(...LT_S).if().get(Q).ret().end();
  b.i32(TAPE_CLOSE).get(Q).i32(0);
  emitted();
  b.else();
  b.get(P).get(END).call(SKIP).tee(Q).i32(0).op(...LT_S).failIf();
  b.i32(TAPE_ITEM).get(P).get(Q);
  emitted();
  b.end();
  b.get(Q).get(END).call(WS).tee(P).get(END).call(AT).tee(C).i32(0x2c).op(...EQ).if();
  b.get(P).i32(1).op(...ADD).get(END).call(WS).set(P).br("item");
  b.end();
  b.get(C).i32(0x5d).op(...NE).failIf();
  b.get(P).i32(1).op(...ADD).ret();
  b.end();
  return b.i32(-1);
}

function assemble(): Uint8Array<ArrayBuffer> {
  // [params, locals (count, type) pairs, body] per function, in index order.
  const fns: [number, [number, number][], Body][] = [
    [2, [], atFn()],
    [2, [[1, I32]], wsFn()],
    [1, [], hexFn()],
    [2, [[4, I32], [4, V128]], strFn()],
    [2, [[1, I32]], numFn()],
    [2, [[1, I32]], keyFn()],
    [2, [[4, I32]], skipFn()],
    [4, [[5, I32]], memberFn()],
    [3, [[1, I32]], emitFn()],
    [3, [[13, I32]], objFn()],
    [3, [[2, I32]], arrFn()],
  ];
  const types = [[0x60, ...vec([[I32], [I32]]), ...vec([[I32]])], [0x60, ...vec([[I32]]), ...vec([[I32]])], [0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([[I32]])], [0x60, ...vec([[I32], [I32], [I32]]), ...vec([[I32]])]];
  const typeOf = (params: number) => (params === 2 ? 0 : params === 1 ? 1 : params === 4 ? 2 : 3);
  const bodies = fns.map(([, locals, body]) => {
    const code = [...vec(locals.map(([n, t]) => [n, t])), ...body.code, 0x0b];
    return [...leb(code.length), ...code];
  });
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(2, vec([[...name("m"), ...name("mem"), 0x02, 0x00, 0x01]])),
    ...section(3, vec(fns.map(([params]) => [typeOf(params)]))),
    ...section(7, vec([[...name("str"), 0x00, STR], [...name("skip"), 0x00, SKIP], [...name("member"), 0x00, MEMBER], [...name("walk"), 0x00, OBJ]])),
    ...section(10, vec(bodies)),
    // Data: the escape table, active in memory 0 at ESCAPES_AT.
    ...section(11, vec([[0x00, 0x41, ...sleb(ESCAPES_AT), 0x0b, ...vec(Array.from({ length: 256 }, (_, c) => [SIMPLE_ESCAPES.includes(c) ? 1 : 0]))]])),
  ]);
}
