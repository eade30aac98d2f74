/** Literal search over bytes in WebAssembly memory with 128-bit SIMD. */
import { ADD, AND, BITMASK8, Body, CTZ, EQ, EQ8, GT_S, I32, LOAD8, loadV128, moduleOf, NE, OR, SHL, SPLAT8, SUB, V128, V_AND, V_OR } from "@/lib/jsonl/wasm-asm";

/**
 * A literal (needle) search over bytes in a `WebAssembly.Memory`, with 128-bit SIMD: the
 * "generic SIMD" substring search (two needle bytes compared at 16 positions at once, every
 * candidate then verified byte by byte), optionally ASCII case-insensitive. About 3× faster than
 * `Buffer.indexOf` on transcript JSONL (whose `"` and letters defeat Boyer–Moore–Horspool), and
 * the bytes never leave the wasm memory they were read into.
 *
 * The module (one exported function, `find`) is assembled here from its opcodes (named labels,
 * as lib/jsonl/json-scan's) rather than shipped as a binary, so what runs is what you read below.
 */

/** Bytes before the first byte the caller may use: the needle at 0, its case masks at 256. */
export const NEEDLE_AREA_BYTES = 4096;
/** The longest needle searched; a longer literal is cut (any part of a required literal is required). */
export const MAX_NEEDLE_BYTES = 255;
const MASK_OFFSET = 256;
const PAGE = 65536;

// NOTE: byte frequency classes in agent transcripts (round(2·log2(per-million + 1)), base 36),
// measured on the 959 MB real-shaped Claude Code session: the rarest two needle bytes are the
// ones compared by SIMD, so fewer candidates need the byte-by-byte check.
const BYTE_CLASSES =
  "0000000000h000000000000000000000yeunehfjnnqhrsrpqrqpppppposijnkdfmknnnljjniillllnhnoonkliijktkeqpvpttwrrrvmotsvvsluvvsppoqjmimf0g0e009p03007702855p8j03a0030d7042202005923000000000300092020000200b2000000000020000000000000000000p00000000000024000000000000000";

/**
 * A compiled needle bound to one memory. `find(from, end)` returns the address of the first
 * occurrence starting in `[from, end - needle.length]` and wholly inside `[from, end)`, or -1.
 * Addresses are byte offsets into `memory`; the caller owns everything from
 * {@link NEEDLE_AREA_BYTES} on and may grow the memory (the instance follows it).
 */
export type SimdFinder = { readonly length: number; find(from: number, end: number): number };

/**
 * Writes `needle` (at most {@link MAX_NEEDLE_BYTES} bytes, at least 1) into the needle area of
 * `memory` and returns its finder. `ignoreAsciiCase` makes ASCII letters match either case
 * (other bytes exactly). Each call instantiates the shared module once more (cheap).
 * @throws RangeError when the needle is empty or longer than {@link MAX_NEEDLE_BYTES}.
 */
export function simdFinder(memory: WebAssembly.Memory, needle: Uint8Array, ignoreAsciiCase = false): SimdFinder {
  const n = needle.length;
  if (n < 1 || n > MAX_NEEDLE_BYTES) throw new RangeError(`needle of ${n} bytes (1..${MAX_NEEDLE_BYTES})`);
  if (memory.buffer.byteLength < NEEDLE_AREA_BYTES) memory.grow(1);
  const bytes = new Uint8Array(memory.buffer);
  const cls = (c: number): number => parseInt(BYTE_CLASSES[c]!, 36);
  const rank: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = needle[i]!;
    const letter = ignoreAsciiCase && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a));
    bytes[i] = letter ? c | 0x20 : c;
    bytes[MASK_OFFSET + i] = letter ? 0x20 : 0;
    rank.push(letter ? Math.max(cls(c | 0x20), cls(c & ~0x20)) + 1 : cls(c));
  }
  // The two rarest positions (distinct when n > 1), compared at 16 offsets per step.
  const order = [...rank.keys()].sort((a, b) => rank[a]! - rank[b]! || b - a);
  const o1 = order[0]!;
  const o2 = order.find((i) => i !== o1 && bytes[i] !== bytes[o1]) ?? order[1] ?? o1;
  const { find } = new WebAssembly.Instance(compiled(), { m: { mem: memory } }).exports as { find: (p: number, end: number, n: number, o1: number, o2: number) => number };
  return { length: n, find: (from, end) => find(from, end, n, o1, o2) };
}

/**
 * A `WebAssembly.Memory` with at least `bytes` usable bytes after the needle area (reads into
 * wasm memory cost less kernel time than into a large Node Buffer; docs/performance.md).
 */
export function wasmMemory(bytes: number): WebAssembly.Memory {
  return new WebAssembly.Memory({ initial: Math.ceil((NEEDLE_AREA_BYTES + bytes) / PAGE) });
}

/** Grows `memory` so it holds at least `bytes` bytes in total (detaches its old views). */
export function ensureMemory(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
}

let compiledModule: WebAssembly.Module | null = null;

function compiled(): WebAssembly.Module {
  compiledModule ??= new WebAssembly.Module(assemble());
  return compiledModule;
}

// ---- the module (WebAssembly core + SIMD128 binary format; lib/jsonl/wasm-asm's Body: branches name their labels) ----

// Locals: the 5 parameters, then 4 i32 and 4 v128.
const [P, END, N, O1, O2, LAST, M, C, K, V1, V2, F1, F2] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;

/** Returns C when the needle occurs at C: every byte, OR its case mask, equals the needle's. */
function verifyAtC(b: Body): Body {
  b.i32(0).set(K);
  b.block("mismatch").loop("byte");
  b.get(K).get(N).op(...EQ).if().get(C).ret().end();
  b.get(C).get(K).op(...ADD, ...LOAD8).i32(MASK_OFFSET).get(K).op(...ADD, ...LOAD8, ...OR);
  b.get(K).op(...LOAD8, ...NE).brIf("mismatch");
  b.get(K).i32(1).op(...ADD).set(K).br("byte");
  return b.end().end();
}

/** `v = splat(memory[offset + at])`. */
function splatAt(b: Body, offset: number, at: number, into: number): Body {
  return b.i32(offset).get(at).op(...ADD, ...LOAD8, ...SPLAT8).set(into);
}

/** The 16 lanes at p + skip + o: bytes OR case mask, compared with the needle byte. */
function lanes(b: Body, o: number, f: number, v: number, skip = 0): Body {
  return b.get(P).get(o).op(...ADD, ...loadV128(skip)).get(f).op(...V_OR).get(v).op(...EQ8);
}

/** Verifies every candidate start the bit mask M (tee'd on the stack) marks, from p: returns the first hit. */
function verifyMask(b: Body): Body {
  b.if().block("hits").loop("hit");
  b.get(P).get(M).op(...CTZ, ...ADD).set(C);
  verifyAtC(b);
  b.get(M).get(M).i32(1).op(...SUB, ...AND).tee(M).brIf("hit");
  return b.end().end().end();
}

/** `find(p, end, n, o1, o2) -> i32`: the needle (n bytes at address 0) in [p, end), or -1. */
function assemble(): Uint8Array<ArrayBuffer> {
  const b = new Body();
  b.get(END).get(N).op(...SUB).set(LAST); // last possible start
  splatAt(b, 0, O1, V1);
  splatAt(b, 0, O2, V2);
  splatAt(b, MASK_OFFSET, O1, F1);
  splatAt(b, MASK_OFFSET, O2, F2);
  // 32 starts per step (two 16-lane masks in one i32) while p + 31 <= last.
  b.block("by32").loop("step32");
  b.get(P).i32(31).op(...ADD).get(LAST).op(...GT_S).brIf("by32");
  lanes(b, O1, F1, V1, 0);
  lanes(b, O2, F2, V2, 0).op(...V_AND, ...BITMASK8);
  lanes(b, O1, F1, V1, 16);
  lanes(b, O2, F2, V2, 16).op(...V_AND, ...BITMASK8).i32(16).op(...SHL, ...OR).tee(M);
  verifyMask(b);
  b.get(P).i32(32).op(...ADD).set(P).br("step32");
  b.end().end();
  // Then 16 per step while every load stays in [p, end): p + 15 <= last.
  b.block("by16").loop("step16");
  b.get(P).i32(15).op(...ADD).get(LAST).op(...GT_S).brIf("by16");
  lanes(b, O1, F1, V1);
  lanes(b, O2, F2, V2).op(...V_AND, ...BITMASK8).tee(M);
  verifyMask(b);
  b.get(P).i32(16).op(...ADD).set(P).br("step16");
  b.end().end();
  // The last < 16 starts one by one.
  b.block("by1").loop("step1");
  b.get(P).get(LAST).op(...GT_S).brIf("by1");
  b.get(P).set(C);
  verifyAtC(b);
  b.get(P).i32(1).op(...ADD).set(P).br("step1");
  b.end().end();
  b.i32(-1);
  return moduleOf("find", 5, [[4, I32], [4, V128]], b.code);
}
