import { ADD, BITMASK8, BLOCK, br, brIf, CTZ, END_OP, EQ, EQ8, get, GE_U, i32, I32, IF, LOAD8, loadV128, LOOP, LT_U, LT_U8, moduleOf, OR, RETURN, set, SHL, SPLAT8, tee, V128, V_OR } from "@/lib/jsonl/wasm-asm";

/**
 * Bytes of JSON text held in a `WebAssembly.Memory`, with a 128-bit SIMD search for the end of a
 * run of plain string content: the first `"`, `\` or control byte (below 0x20), the only bytes a
 * JSON string's content treats specially (RFC 8259 §7). A JavaScript byte loop over string
 * content runs at ~0.3–0.5 GB/s; this checks 32 bytes a step, so validating every string of a
 * transcript costs little more than finding its closing quote (issue 13: prepare's exact
 * malformed count, contract §1.8).
 */
export class JsonPlainScratch {
  private memory = new WebAssembly.Memory({ initial: 1 });
  private readonly scan: (p: number, end: number) => number;
  /** The memory as a Buffer (replaced when the memory grows). */
  bytes: Buffer;

  constructor() {
    const instance = new WebAssembly.Instance(compiled(), { m: { mem: this.memory } });
    this.scan = (instance.exports as { plain: (p: number, end: number) => number }).plain;
    this.bytes = Buffer.from(this.memory.buffer);
  }

  /** Copies `source[start, end)` to address 0 (growing the memory as needed); returns {@link bytes}. */
  load(source: Uint8Array, start: number, end: number): Buffer {
    const length = end - start;
    if (length > this.bytes.length) {
      this.memory.grow(Math.ceil((length - this.bytes.length) / PAGE));
      this.bytes = Buffer.from(this.memory.buffer);
    }
    this.bytes.set(source.subarray(start, end), 0);
    return this.bytes;
  }

  /**
   * The first address in `[from, end)` of {@link bytes} holding `"` (0x22), `\` (0x5c) or a byte
   * below 0x20, or `end` when there is none. `0 <= from`, `end <= bytes.length`.
   */
  plainEnd(from: number, end: number): number {
    return this.scan(from, end);
  }
}

const PAGE = 65536;

let compiledModule: WebAssembly.Module | null = null;
function compiled(): WebAssembly.Module {
  compiledModule ??= new WebAssembly.Module(assemble());
  return compiledModule;
}

// Locals: the 2 parameters, one i32, four v128.
const [P, END, M, Q, S, C, A] = [0, 1, 2, 3, 4, 5, 6] as const;

/** `plain(p, end) -> i32`, opcode by opcode (WebAssembly core + SIMD128 binary format). */
function assemble(): Uint8Array<ArrayBuffer> {
  /** Bitmask of the 16 lanes at p + offset that are `"`, `\` or below 0x20. */
  const stops = (offset: number) => [
    ...get(P), ...loadV128(offset), ...tee(A), ...get(Q), ...EQ8,
    ...get(A), ...get(S), ...EQ8, ...V_OR,
    ...get(A), ...get(C), ...LT_U8, ...V_OR,
    ...BITMASK8,
  ];
  const body = [
    ...i32(0x22), ...SPLAT8, ...set(Q),
    ...i32(0x5c), ...SPLAT8, ...set(S),
    ...i32(0x20), ...SPLAT8, ...set(C),
    // 32 bytes a step while p + 32 <= end.
    ...BLOCK, ...LOOP,
    ...get(P), ...i32(32), ...ADD, ...get(END), ...[0x4b] /* i32.gt_u */, ...brIf(1),
    ...stops(0), ...stops(16), ...i32(16), ...SHL, ...OR, ...tee(M),
    ...IF, ...get(P), ...get(M), ...CTZ, ...ADD, ...RETURN, ...END_OP,
    ...get(P), ...i32(32), ...ADD, ...set(P), ...br(0),
    ...END_OP, ...END_OP,
    // The last < 32 bytes one by one.
    ...BLOCK, ...LOOP,
    ...get(P), ...get(END), ...GE_U, ...brIf(1),
    ...get(P), ...LOAD8, ...tee(M), ...i32(0x22), ...EQ,
    ...get(M), ...i32(0x5c), ...EQ, ...OR,
    ...get(M), ...i32(0x20), ...LT_U, ...OR,
    ...IF, ...get(P), ...RETURN, ...END_OP,
    ...get(P), ...i32(1), ...ADD, ...set(P), ...br(0),
    ...END_OP, ...END_OP,
    ...get(END),
  ];
  return moduleOf("plain", 2, [[1, I32], [4, V128]], body);
}
