/** Literal search over bytes in WebAssembly memory with 128-bit SIMD. */
import { SIMD_FIND_WASM } from "@/lib/forensics/simd-find-wasm";

/**
 * A literal (needle) search over bytes in a `WebAssembly.Memory`, with 128-bit SIMD: the
 * "generic SIMD" substring search (two needle bytes compared at 16 positions at once, every
 * candidate then verified byte by byte), optionally ASCII case-insensitive: faster than
 * `Buffer.indexOf` on transcript JSONL, and the bytes never leave the wasm memory they were read into.
 * The module (one exported function, `find`) is written in lib/forensics/simd-find.wat and
 * compiled by `npm run wasm` (wabt) into simd-find-wasm.ts, whose bytes a test recompiles and compares.
 */

/** Bytes before the first byte the caller may use: the needle at 0, its case masks at 256. */
export const NEEDLE_AREA_BYTES = 4096;
/** The longest needle searched; a longer literal is cut (any part of a required literal is required). */
export const MAX_NEEDLE_BYTES = 255;
/** Where the needle's case masks start (the `(; masks ;)` constant in simd-find.wat). */
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
  compiledModule ??= new WebAssembly.Module(Buffer.from(SIMD_FIND_WASM, "base64"));
  return compiledModule;
}
