/**
 * Python `json` parity for Control Plane v2 hashing (source-formats.md §3.2): a JSON reader that
 * keeps each number as Python's `json.loads` would type it (int vs float, from the lexeme, which
 * `JSON.parse` loses: `15.0` → `15`), and a writer equal to `json.dumps(value, sort_keys=True,
 * ensure_ascii=False)` with the default `", "` / `": "` separators and Python float `repr`.
 */

/** A number as Python holds it after `json.loads`: an `int` (exact lexeme) or a `float`. */
export type PyNumber = { kind: "int"; text: string } | { kind: "float"; value: number };

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
    if (m[1] === undefined && m[2] === undefined) return { kind: "int", text: m[0] };
    return { kind: "float", value: Number(m[0]) };
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
  ["NaN", { kind: "float", value: NaN }],
  ["Infinity", { kind: "float", value: Infinity }],
  ["-Infinity", { kind: "float", value: -Infinity }],
];

/**
 * `json.dumps(value, sort_keys=True, ensure_ascii=False)`: keys sorted by code point, `", "` and
 * `": "` separators, only `"`, `\` and U+0000–U+001F escaped, ints as written (Python
 * normalises `-0` to `0`), floats as Python `repr` ({@link pyFloatRepr}).
 */
export function pyJsonDumps(value: PyValue): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pyQuote(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  if (value instanceof Map) {
    const keys = [...value.keys()].sort(compareCodePoints);
    return `{${keys.map((k) => `${pyQuote(k)}: ${pyJsonDumps(value.get(k)!)}`).join(", ")}}`;
  }
  if (value.kind === "int") return value.text === "-0" ? "0" : value.text;
  return pyFloatRepr(value.value);
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

const ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function pyQuote(text: string): string {
  return `"${text.replace(/["\\\u0000-\u001f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i += 1;
  }
  return a.length - b.length;
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
  return value.kind === "int" ? Number(value.text) : value.value;
}

/**
 * Plain JS → {@link PyValue}, for writing test ledgers the way Python would: a JS number is an
 * int when it is an integer, unless listed in `floats` — use {@link pyFloat} to force a float.
 */
export function jsToPy(value: unknown): PyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isInteger(value) ? { kind: "int", text: String(value) } : { kind: "float", value };
  if (Array.isArray(value)) return value.map(jsToPy);
  if (isPyFloat(value)) return { kind: "float", value: value.__pyFloat };
  const out = new Map<string, PyValue>();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out.set(k, jsToPy(v));
  return out;
}

type PyFloatMarker = { __pyFloat: number };
const isPyFloat = (v: unknown): v is PyFloatMarker => typeof v === "object" && v !== null && typeof (v as PyFloatMarker).__pyFloat === "number";

/** Marks a number as a Python float for {@link jsToPy} (so `15` is written `15.0`). */
export const pyFloat = (value: number): PyFloatMarker => ({ __pyFloat: value });

/**
 * `json.dumps(value, ensure_ascii=False)` in the value's own key order (how Control Plane writes
 * a ledger line), default separators.
 */
export function pyJsonDumpsUnsorted(value: PyValue): string {
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${pyQuote(k)}: ${pyJsonDumpsUnsorted(v)}`).join(", ")}}`;
  if (Array.isArray(value)) return `[${value.map(pyJsonDumpsUnsorted).join(", ")}]`;
  return pyJsonDumps(value);
}
