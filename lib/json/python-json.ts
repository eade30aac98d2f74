/** Python `json` parity: one `dumps` (ensure_ascii, separators, sort_keys), the code-point key order, one escape table, and a `json.loads` that keeps ints and floats apart. */

/*
 * Users: prompt-diary's compact records (`ensure_ascii=False`, sorted), Codex fork fingerprints
 * (contract §1.8 step 5: `ensure_ascii=True`, sorted) and Control Plane v2 entry hashes
 * (source-formats.md §3.2: `ensure_ascii=False`, sorted, Python float `repr`; the ledger lines
 * themselves unsorted). JavaScript numbers from `JSON.parse` cannot tell `1.0` from `1`; values
 * read by {@link parsePyJson} can ({@link PyInt}, {@link PyFloat}).
 */

/** A Python `int` read by {@link parsePyJson}: its exact lexeme. */
export class PyInt {
  readonly kind = "int";
  constructor(readonly text: string) {}
}

/** A Python `float` read by {@link parsePyJson}. */
export class PyFloat {
  readonly kind = "float";
  constructor(readonly value: number) {}
}

/** A number as Python holds it after `json.loads`: an `int` (exact lexeme) or a `float`. */
export type PyNumber = PyInt | PyFloat;

/** A JSON value as Python holds it. Objects are Maps so that any key (`__proto__`) is kept. */
export type PyValue = null | boolean | string | PyNumber | PyValue[] | Map<string, PyValue>;

/** Thrown by {@link parsePyJson} on malformed text; `position` is the UTF-16 offset. */
export class PyJsonError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/**
 * Parses one JSON document like Python's `json.loads` (strict): numbers with `.`/`e`/`E` are
 * floats, others ints; `NaN`, `Infinity`, `-Infinity` are accepted as floats; duplicate keys keep
 * the last value. Surrounding whitespace is allowed.
 * @throws PyJsonError on malformed input or trailing data.
 */
export function parsePyJson(text: string): PyValue {
  const parser = new Parser(text);
  parser.skipSpace();
  const value = parser.value();
  parser.skipSpace();
  if (parser.pos !== text.length) throw new PyJsonError("extra data", parser.pos);
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const SHORT: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  skipSpace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos]!)) this.pos += 1;
  }

  value(): PyValue {
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of WORDS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return v;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) throw new PyJsonError("expecting value", this.pos);
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return new PyInt(m[0]);
    return new PyFloat(Number(m[0]));
  }

  object(): Map<string, PyValue> {
    const out = new Map<string, PyValue>();
    this.pos += 1;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos += 1;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') throw new PyJsonError("expecting property name", this.pos);
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") throw new PyJsonError("expecting ':'", this.pos);
      this.pos += 1;
      this.skipSpace();
      out.set(key, this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === "}") return out;
      if (c !== ",") throw new PyJsonError("expecting ',' or '}'", this.pos - 1);
    }
  }

  array(): PyValue[] {
    const out: PyValue[] = [];
    this.pos += 1;
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos += 1;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value());
      this.skipSpace();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === "]") return out;
      if (c !== ",") throw new PyJsonError("expecting ',' or ']'", this.pos - 1);
    }
  }

  string(): string {
    this.pos += 1;
    let out = "";
    for (;;) {
      STRING_RUN.lastIndex = this.pos;
      const run = STRING_RUN.exec(this.text)![0];
      out += run;
      this.pos += run.length;
      const c = this.text[this.pos];
      if (c === '"') {
        this.pos += 1;
        return out;
      }
      if (c !== "\\") throw new PyJsonError(c === undefined ? "unterminated string" : "invalid control character", this.pos);
      const e = this.text[this.pos + 1];
      if (e === "u") {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PyJsonError("invalid \\uXXXX escape", this.pos);
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else if (e !== undefined && SHORT[e] !== undefined) {
        out += SHORT[e];
        this.pos += 2;
      } else {
        throw new PyJsonError("invalid escape", this.pos);
      }
    }
  }
}

const WORDS: [string, PyValue][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(NaN)],
  ["Infinity", new PyFloat(Infinity)],
  ["-Infinity", new PyFloat(-Infinity)],
];

/** `json.dumps` keyword arguments, with Python's defaults. */
export type PyDumpsOptions = {
  /** Escape every character outside printable ASCII as `\uXXXX` per UTF-16 unit (default true). */
  ensureAscii?: boolean;
  /** Item and key separators (default `", "` and `": "`). */
  separators?: readonly [string, string];
  /** Sort object keys by code point (default false: the object's own order). */
  sortKeys?: boolean;
};

/**
 * Python `json.dumps(value, **options)`. Objects and Maps are dicts; JavaScript numbers are
 * written as `JSON.stringify` does (so `1.0` comes out `1`, and non-finite numbers `null`), a
 * {@link PyInt} as written (`-0` as `0`) and a {@link PyFloat} as Python's `repr`; `undefined`
 * and anything else not JSON is `null`. Pure; never throws.
 */
export function pyDumps(value: unknown, options: PyDumpsOptions = {}): string {
  const ascii = options.ensureAscii ?? true;
  const [item, key] = options.separators ?? [", ", ": "];
  const sort = options.sortKeys ?? false;
  const quote = ascii ? quoteAscii : quoteRaw;
  const write = (v: unknown): string => {
    if (v === null || v === undefined) return "null";
    if (typeof v === "string") return quote(v);
    if (typeof v === "number") return JSON.stringify(v);
    if (typeof v === "boolean") return v ? "true" : "false";
    if (typeof v !== "object") return "null";
    if (Array.isArray(v)) return `[${v.map(write).join(item)}]`;
    if (v instanceof PyInt) return v.text === "-0" ? "0" : v.text;
    if (v instanceof PyFloat) return pyFloatRepr(v.value);
    if (v instanceof Map) {
      const keys = [...(v as Map<string, unknown>).keys()];
      if (sort) keys.sort(compareCodePoints);
      return `{${keys.map((k) => `${quote(k)}${key}${write(v.get(k))}`).join(item)}}`;
    }
    const record = v as Record<string, unknown>;
    const keys = Object.keys(record);
    if (sort) keys.sort(compareCodePoints);
    return `{${keys.map((k) => `${quote(k)}${key}${write(record[k])}`).join(item)}}`;
  };
  return write(value);
}

/** The escapes both quotings share (Python `json.encoder.ESCAPE_DCT`); other characters are `\uXXXX`. */
const ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const escape = (c: string): string => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

// Most strings need no escaping: a test first (fork fingerprints re-serialize every Codex line).
const ASCII_ESCAPED = /[\\"]|[^ -~]/;
const ASCII_ESCAPED_ALL = /[\\"]|[^ -~]/g;
const RAW_ESCAPED = /["\\\u0000-\u001f]/;
const RAW_ESCAPED_ALL = /["\\\u0000-\u001f]/g;

/** `ensure_ascii=True` quoting: the escapes above, and everything outside printable ASCII. */
function quoteAscii(text: string): string {
  return ASCII_ESCAPED.test(text) ? `"${text.replace(ASCII_ESCAPED_ALL, escape)}"` : `"${text}"`;
}

/** `ensure_ascii=False` quoting: only the quote, the backslash and U+0000–U+001F (lone surrogates stay raw). */
function quoteRaw(text: string): string {
  return RAW_ESCAPED.test(text) ? `"${text.replace(RAW_ESCAPED_ALL, escape)}"` : `"${text}"`;
}

const SURROGATE = /[\ud800-\udfff]/;

/** Python's `str` order: by code point (UTF-16 unit order differs from it only around surrogates). */
export function compareCodePoints(a: string, b: string): number {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i += 1;
  }
  return a.length - b.length;
}

/**
 * Python `float.__repr__` as `json.dumps` writes it: the shortest round-tripping digits (the
 * same digits JavaScript picks), fixed notation with a trailing `.0` when the decimal exponent
 * is in [-4, 16), else `d.ddde±XX` with at least two exponent digits; `NaN`, `Infinity`,
 * `-Infinity` as Python's json module spells them.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, exp] = Math.abs(x).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const decpt = Number(exp) + 1; // value = 0.DIGITS × 10^decpt
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${"0".repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${"0".repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
}

/** Converts a parsed {@link PyValue} to plain JSON-compatible JS (floats and ints as numbers). */
export function pyToJs(value: PyValue): unknown {
  if (value === null || typeof value === "boolean" || typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(pyToJs);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) Object.defineProperty(out, k, { value: pyToJs(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value instanceof PyInt ? Number(value.text) : value.value;
}

/**
 * Plain JS → {@link PyValue}, for writing test ledgers the way Python would: a JS number is an
 * int when it is an integer, unless listed in `floats` — use {@link pyFloat} to force a float.
 */
export function jsToPy(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? new PyInt(String(value)) : new PyFloat(value);
  if (Array.isArray(value)) return value.map(jsToPy);
  if (isPyFloat(value)) return new PyFloat(value.__pyFloat);
  const out = new Map<string, PyValue>();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.set(k, jsToPy(v));
  return out;
}

type PyFloatMarker = { __pyFloat: number };
const isPyFloat = (v: unknown): v is PyFloatMarker => typeof v === "object" && v !== null && typeof (v as PyFloatMarker).__pyFloat === "number";

/** Marks a number as a Python float for {@link jsToPy} (so `15` is written `15.0`). */
export const pyFloat = (value: number): PyFloatMarker => ({ __pyFloat: value });
