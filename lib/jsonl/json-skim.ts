import type { JsonObject } from "@/lib/sources/common/json-object";

/**
 * Which strings a skim materializes. Every string directly inside the top-level object, every
 * string directly inside a top-level member named in `fullChildrenOf`, and every string whose
 * member name is in `keepKeys` (at any depth) is decoded; any other string is validated and
 * replaced by {@link SKIPPED_STRING}. Objects, arrays, numbers, booleans and null are always
 * materialized.
 */
export type SkimOptions = { fullChildrenOf: ReadonlySet<string>; keepKeys: ReadonlySet<string> };

/** The value a skim puts in place of a string it did not decode. */
export const SKIPPED_STRING = "";

/** Nesting past which a skim gives up (the caller then parses the line in full). */
const MAX_DEPTH = 512;

const FAIL = Symbol("invalid");
const GIVE_UP = Symbol("give-up");
type Result = unknown;

/**
 * Parses the JSON object in UTF-8 `bytes[start..end)` without decoding the strings nobody
 * reads (issue 13: decide from bytes, parse only what the index needs). The grammar check is
 * JSON.parse's, byte for byte: a line that `JSON.parse` (after UTF-8 decoding with
 * replacement) rejects or that is not an object gives `null`, exactly like
 * `parseJsonObject(text)`. ASCII bytes survive replacement decoding unchanged, so checking the
 * structure on bytes is exact; non-ASCII bytes are legal only inside strings, as after decoding.
 * Duplicate members keep the last value, as JSON.parse does.
 * @returns the object (skipped strings as {@link SKIPPED_STRING}), `null` when the bytes are not
 *   a JSON object, or `undefined` when the skim gave up (nesting deeper than 512): parse the
 *   line in full then.
 */
export function skimJsonObject(bytes: Uint8Array, start: number, end: number, options: SkimOptions): JsonObject | null | undefined {
  const skim = new Skim(bytes, end, options);
  skim.pos = start;
  skim.ws();
  if (skim.pos >= end || bytes[skim.pos] !== 0x7b) return null;
  const value = skim.value(0, 2);
  if (value === GIVE_UP) return undefined;
  if (value === FAIL) return null;
  skim.ws();
  return skim.pos === end ? (value as JsonObject) : null;
}

/** String modes: 0 = skip unless kept key, 2 = decode every direct string child (top level), 1 = decode (this container is a full child). */
class Skim {
  pos = 0;
  private readonly decoder = new TextDecoder("utf-8", { ignoreBOM: true });

  constructor(
    private readonly b: Uint8Array,
    private readonly end: number,
    private readonly options: SkimOptions,
  ) {}

  ws(): void {
    const { b, end } = this;
    let p = this.pos;
    while (p < end) {
      const c = b[p]!;
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) p++;
      else break;
    }
    this.pos = p;
  }

  /**
   * Parses the value at `pos`. `mode` tells how strings directly inside this value's children
   * are treated: 2 for the top-level object, 1 for a full child, 0 otherwise.
   */
  value(depth: number, mode: number, decode = true): Result {
    if (depth > MAX_DEPTH) return GIVE_UP;
    const c = this.b[this.pos];
    if (c === 0x7b) return this.object(depth, mode);
    if (c === 0x5b) return this.array(depth);
    if (c === 0x22) return this.string(decode);
    if (c === 0x74) return this.literal("true", true);
    if (c === 0x66) return this.literal("false", false);
    if (c === 0x6e) return this.literal("null", null);
    if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return this.number();
    return FAIL;
  }

  private object(depth: number, mode: number): Result {
    const out: JsonObject = {};
    this.pos++;
    this.ws();
    if (this.b[this.pos] === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (this.b[this.pos] !== 0x22) return FAIL;
      const key = this.string(true);
      if (key === FAIL) return FAIL;
      const name = key as string;
      this.ws();
      if (this.b[this.pos] !== 0x3a) return FAIL;
      this.pos++;
      this.ws();
      const decode = mode > 0 || this.options.keepKeys.has(name);
      const childMode = mode === 2 && this.options.fullChildrenOf.has(name) ? 1 : 0;
      const value = this.value(depth + 1, childMode, decode);
      if (value === FAIL || value === GIVE_UP) return value;
      if (name === "__proto__") Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      else out[name] = value;
      this.ws();
      const next = this.b[this.pos];
      if (next === 0x2c) {
        this.pos++;
        this.ws();
        continue;
      }
      if (next === 0x7d) {
        this.pos++;
        return out;
      }
      return FAIL;
    }
  }

  private array(depth: number): Result {
    const out: unknown[] = [];
    this.pos++;
    this.ws();
    if (this.b[this.pos] === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      const value = this.value(depth + 1, 0, false);
      if (value === FAIL || value === GIVE_UP) return value;
      out.push(value);
      this.ws();
      const next = this.b[this.pos];
      if (next === 0x2c) {
        this.pos++;
        this.ws();
        continue;
      }
      if (next === 0x5d) {
        this.pos++;
        return out;
      }
      return FAIL;
    }
  }

  /** A string at `pos` (on its opening quote): validated always, decoded when `decode`. */
  private string(decode: boolean): Result {
    const { b, end } = this;
    const open = this.pos;
    let p = open + 1;
    let escaped = false;
    for (;;) {
      if (p >= end) return FAIL;
      const c = b[p]!;
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        const e = b[p + 1];
        if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) p += 2;
        else if (e === 0x75 && isHex(b[p + 2]) && isHex(b[p + 3]) && isHex(b[p + 4]) && isHex(b[p + 5])) p += 6;
        else return FAIL;
        continue;
      }
      if (c < 0x20) return FAIL;
      p++;
    }
    this.pos = p + 1;
    if (!decode) return SKIPPED_STRING;
    if (!escaped) return this.decoder.decode(b.subarray(open + 1, p));
    return JSON.parse(this.decoder.decode(b.subarray(open, p + 1))) as string;
  }

  private literal(word: string, value: boolean | null): Result {
    const { b } = this;
    for (let i = 0; i < word.length; i++) if (b[this.pos + i] !== word.charCodeAt(i) || this.pos + i >= this.end) return FAIL;
    this.pos += word.length;
    return value;
  }

  private number(): Result {
    const { b, end } = this;
    const from = this.pos;
    let p = from;
    if (b[p] === 0x2d) p++;
    if (p >= end) return FAIL;
    if (b[p] === 0x30) p++;
    else if (isDigit(b[p])) while (p < end && isDigit(b[p])) p++;
    else return FAIL;
    if (p < end && b[p] === 0x2e) {
      p++;
      if (!(p < end && isDigit(b[p]))) return FAIL;
      while (p < end && isDigit(b[p])) p++;
    }
    if (p < end && (b[p] === 0x65 || b[p] === 0x45)) {
      p++;
      if (p < end && (b[p] === 0x2b || b[p] === 0x2d)) p++;
      if (!(p < end && isDigit(b[p]))) return FAIL;
      while (p < end && isDigit(b[p])) p++;
    }
    this.pos = p;
    let text = "";
    for (let i = from; i < p; i++) text += String.fromCharCode(b[i]!);
    return Number(text);
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}
