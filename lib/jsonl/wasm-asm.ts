/**
 * The few pieces of the WebAssembly binary format our hand-assembled SIMD kernels need
 * (lib/jsonl/json-scan, lib/forensics/simd-find): LEB128 integers, vectors, sections, the
 * opcodes they use, named, and {@link Body}, a function body whose branches name their target
 * label (one style for both kernels). The kernels are assembled from these at load time rather
 * than shipped as binaries, so what runs is what the source reads.
 */

/** Unsigned LEB128 of a 32-bit value. */
export const leb = (value: number): number[] => {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
};

/** Signed LEB128 of a 32-bit value. */
export const sleb = (value: number): number[] => {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
};

/** A vector: its length, then its items. */
export const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
/** A name (UTF-8 of ASCII text here). */
export const name = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));
/** A section: id, byte size, body. */
export const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];

export const I32 = 0x7f;
export const V128 = 0x7b;
/** i32.load8_u align=0 offset=0 */
export const LOAD8 = [0x2d, 0, 0];
/** v128.load align=0 at `offset`. */
export const loadV128 = (offset = 0): number[] => [0xfd, 0x00, 0, ...leb(offset)];
export const SPLAT8 = [0xfd, 0x0f];
export const EQ8 = [0xfd, 0x23];
export const LT_U8 = [0xfd, 0x26];
export const V_AND = [0xfd, 0x4e];
export const V_OR = [0xfd, 0x50];
export const BITMASK8 = [0xfd, 0x64];
export const [ADD, SUB, MUL, AND, OR, SHL, SHR_U, EQZ, EQ, NE, LT_S, LT_U, GT_S, GT_U, GE_U, CTZ] = [[0x6a], [0x6b], [0x6c], [0x71], [0x72], [0x74], [0x76], [0x45], [0x46], [0x47], [0x48], [0x49], [0x4a], [0x4b], [0x4f], [0x68]];
/** i32.load align=0 offset=0 (little-endian) */
export const LOAD32 = [0x28, 0, 0];
/** i32.store8 align=0 offset=0 */
export const STORE8 = [0x3a, 0, 0];
/** i32.store align=2 at `offset` (little-endian). */
export const store32 = (offset = 0): number[] => [0x36, 2, ...leb(offset)];
const END_OP = [0x0b];

/** A function body under construction; branches name their target label instead of counting depths. */
export class Body {
  readonly code: number[] = [];
  private readonly labels: string[] = [];
  op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }
  get(i: number): this {
    return this.op(0x20, i);
  }
  set(i: number): this {
    return this.op(0x21, i);
  }
  tee(i: number): this {
    return this.op(0x22, i);
  }
  i32(v: number): this {
    return this.op(0x41, ...sleb(v));
  }
  block(label: string): this {
    this.labels.push(label);
    return this.op(0x02, 0x40);
  }
  loop(label: string): this {
    this.labels.push(label);
    return this.op(0x03, 0x40);
  }
  /** `if` without a result (label "" unless named). */
  if(label = ""): this {
    this.labels.push(label);
    return this.op(0x04, 0x40);
  }
  /** `if` with an i32 result. */
  ifI32(): this {
    this.labels.push("");
    return this.op(0x04, I32);
  }
  else(): this {
    return this.op(0x05);
  }
  end(): this {
    this.labels.pop();
    return this.op(0x0b);
  }
  br(label: string): this {
    return this.op(0x0c, this.depth(label));
  }
  brIf(label: string): this {
    return this.op(0x0d, this.depth(label));
  }
  ret(): this {
    return this.op(0x0f);
  }
  call(fn: number): this {
    return this.op(0x10, fn);
  }
  private depth(label: string): number {
    const at = this.labels.lastIndexOf(label);
    if (at === -1) throw new Error(`no label ${label}`);
    return this.labels.length - 1 - at;
  }
}

/**
 * A module of one exported function `exportName` of `params` i32 parameters returning an i32,
 * with `locals` extra locals (`[count, type]` pairs) and `body` (without its final `end`), that
 * imports its memory as `m.mem`.
 */
export function moduleOf(exportName: string, params: number, locals: [number, number][], body: number[]): Uint8Array<ArrayBuffer> {
  const func = [...vec(locals.map(([n, t]) => [n, t])), ...body, ...END_OP];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec(Array.from({ length: params }, () => [I32])), ...vec([[I32]])]])), // type
    ...section(2, vec([[...name("m"), ...name("mem"), 0x02, 0x00, 0x01]])), // import memory (min 1 page)
    ...section(3, vec([[0]])), // function 0 has type 0
    ...section(7, vec([[...name(exportName), 0x00, 0]])), // export func 0
    ...section(10, vec([[...leb(func.length), ...func]])), // code: one sized body
  ]);
}
