/** Tests of the JSON scan kernel (JsonScanMemory) against JSON.parse. */
import { describe, expect, it } from "vitest";

import { DATA_OFFSET, JsonScanMemory, MAX_DEPTH, memberState } from "@/lib/jsonl/json-scan";
import { seededRandom } from "@/lib/testing/random";


/** A random JSON value of bounded depth: strings with escapes and UTF-8, numbers of every form, literals, containers. */
function value(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    const k = Math.floor(next() * 6);
    if (k === 0) return Math.floor(next() * 2e6) - 1e6;
    if (k === 1) return (next() - 0.5) * 10 ** Math.floor(next() * 40 - 20);
    if (k === 2) return [true, false, null][Math.floor(next() * 3)];
    const chars = ['a', 'é', '"', "\\", "\n", "\t", "\u0001", "/", "😀", " ", "x".repeat(40), "\u2028"];
    let s = "";
    for (let n = Math.floor(next() * 12); n > 0; n--) s += chars[Math.floor(next() * chars.length)];
    return s;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(next() * 5) }, () => value(next, depth + 1));
  const o: Record<string, unknown> = {};
  for (let n = Math.floor(next() * 5); n > 0; n--) o[`k${Math.floor(next() * 20)}${next() < 0.2 ? '"\\' : ""}`] = value(next, depth + 1);
  return o;
}

/** JSON text with random whitespace between tokens (outside strings). */
function spaced(text: string, next: () => number): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    out += c;
    if (inString) {
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (next() < 0.1) out += [" ", "\t", "\n", "\r"][Math.floor(next() * 4)];
  }
  return out;
}

/** Whether JSON.parse accepts the text (the reference). */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The module's verdict on the whole text: one value, then only whitespace. */
function scans(memory: JsonScanMemory, text: Buffer): boolean {
  const b = memory.load(text, 0, text.length);
  const end = DATA_OFFSET + text.length;
  let at = memory.valueEnd(DATA_OFFSET, end);
  if (at < 0) return false;
  while (at < end && (b[at] === 0x20 || b[at] === 0x0a || b[at] === 0x0d || b[at] === 0x09)) at++;
  return at === end;
}

describe("JsonScanMemory", () => {
  it("accepts exactly what JSON.parse accepts, on random values and one-byte mutations of them", () => {
    const memory = new JsonScanMemory();
    const next = seededRandom(42);
    const alphabet = [0x00, 0x09, 0x0a, 0x1f, 0x20, 0x22, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x3a, 0x45, 0x5b, 0x5c, 0x5d, 0x61, 0x62, 0x65, 0x66, 0x6c, 0x6e, 0x72, 0x73, 0x74, 0x75, 0x7b, 0x7d, 0x7f, 0xc3, 0xff];
    let valid = 0;
    let invalid = 0;
    for (let round = 0; round < 6000; round++) {
      const text = Buffer.from(spaced(JSON.stringify(value(next, 0)), next), "utf8");
      if (round % 3 !== 0) {
        const edits = 1 + Math.floor(next() * 2);
        for (let e = 0; e < edits; e++) text[Math.floor(next() * text.length)] = alphabet[Math.floor(next() * alphabet.length)]!;
      }
      const want = parses(text.toString("utf8"));
      expect(scans(memory, text), `round ${round}: ${JSON.stringify(text.toString("utf8").slice(0, 200))}`).toBe(want);
      if (want) valid++;
      else invalid++;
    }
    expect(valid).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(1000);
  });

  it("ends a string after its closing quote, checking escapes, in the SIMD steps and the tail", () => {
    const memory = new JsonScanMemory();
    const cases: [string, number][] = [
      ['"abc"', 5],
      [`"${"x".repeat(40)}\\n${"y".repeat(20)}" tail`, 64],
      [`"${"x".repeat(33)}\\u00E9"`, 41],
      [`"${"x".repeat(17)}\\u00G9"`, -1],
      [`"${"x".repeat(30)}\\x"`, -1],
      [`"${"x".repeat(30)}\t"`, -1],
      [`"${"x".repeat(30)}`, -1],
      ['"\\', -1],
      ['"\\u12', -1],
    ];
    for (const [text, want] of cases) {
      const bytes = Buffer.from(text, "utf8");
      memory.load(bytes, 0, bytes.length);
      const got = memory.stringEnd(DATA_OFFSET, DATA_OFFSET + bytes.length);
      expect(got === -1 ? -1 : got - DATA_OFFSET, text).toBe(want);
    }
  });

  it("finds the first quote, escape or control byte at every offset of strings up to 160 bytes (the 32-, 16- and 1-byte steps)", () => {
    const memory = new JsonScanMemory();
    for (let n = 1; n <= 160; n++) {
      for (let k = 0; k < n; k++) {
        for (const [stop, want] of [
          ['"', k + 2],
          ["\\n", n + 4],
          ["\u0001", -1],
          ["\\q", -1],
        ] as const) {
          const text = `"${"x".repeat(k)}${stop}${"y".repeat(n - k)}"`;
          const bytes = Buffer.from(text, "utf8");
          memory.load(bytes, 0, bytes.length);
          const got = memory.stringEnd(DATA_OFFSET, DATA_OFFSET + bytes.length);
          expect(got === -1 ? -1 : got - DATA_OFFSET, `${n} ${k} ${JSON.stringify(stop)}`).toBe(want);
        }
      }
    }
  });

  it("accepts after a backslash exactly the bytes JSON.parse accepts, in the 32-byte step and the byte step", () => {
    const memory = new JsonScanMemory();
    for (let c = 0; c < 256; c++) {
      // k = 3: inside a 32-byte step; k = 30: the escape reaches past it; k = 40: the byte step of the tail.
      for (const k of [3, 30, 40]) {
        const bytes = Buffer.concat([Buffer.from(`"${"x".repeat(k)}\\`), Buffer.from([c]), Buffer.from(`${c === 0x75 ? "00e9" : ""}${"y".repeat(k === 40 ? 2 : 20)}"`)]);
        let valid = true;
        try {
          JSON.parse(bytes.toString("latin1"));
        } catch {
          valid = false;
        }
        memory.load(bytes, 0, bytes.length);
        const got = memory.stringEnd(DATA_OFFSET, DATA_OFFSET + bytes.length);
        expect(got === -1 ? -1 : got - DATA_OFFSET, `${c} at ${k}`).toBe(valid ? bytes.length : -1);
      }
    }
  });

  it("follows containers nested up to its depth limit, and gives up past it", () => {
    const memory = new JsonScanMemory();
    const deep = (n: number) => Buffer.from(`${"[".repeat(n)}1${"]".repeat(n)}`);
    expect(scans(memory, deep(MAX_DEPTH))).toBe(true);
    expect(scans(memory, deep(MAX_DEPTH + 1))).toBe(false);
    expect(scans(memory, Buffer.from(`{"a":[{"b":{}},[],"c",-0.5e+3,true,false,null]}`))).toBe(true);
  });

  it("walks an object's members to each wanted key length, as JSON.parse reads the object", () => {
    const memory = new JsonScanMemory();
    const next = seededRandom(7);
    let stops = 0;
    let rejected = 0;
    for (let round = 0; round < 3000; round++) {
      const object: Record<string, unknown> = {};
      for (let n = Math.floor(next() * 7); n > 0; n--) object["k".repeat(1 + Math.floor(next() * 5)) + (next() < 0.05 ? "\\" : "")] = value(next, 1);
      const text = Buffer.from(spaced(JSON.stringify(object), next), "utf8");
      if (round % 4 === 0) text[Math.floor(next() * text.length)] = [0x22, 0x2c, 0x3a, 0x5c, 0x7d, 0x01][Math.floor(next() * 6)]!;
      const wanted = Math.floor(next() * 64);
      // The reference: JSON.parse's members (in order) whose key's raw length has its bit in `wanted`.
      let want: { key: string; value: string }[] | "invalid" | "escaped";
      try {
        const parsed = JSON.parse(text.toString("utf8")) as unknown;
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) want = "invalid";
        else if (text.includes(0x5c) && Object.keys(parsed).some((k) => k.includes("\\") || /[\u0000-\u001f"]/.test(k))) want = "escaped";
        else want = Object.entries(parsed).filter(([k]) => wanted & (1 << Buffer.byteLength(k))).map(([k, v]) => ({ key: k, value: JSON.stringify(v) }));
      } catch {
        want = "invalid";
      }
      const bytes = memory.load(text, 0, text.length);
      const end = DATA_OFFSET + text.length;
      const got: { key: string; value: string }[] = [];
      let at = memory.nextMember(DATA_OFFSET + text.indexOf(0x7b), end, wanted, 1);
      let verdict: "ok" | "invalid" | "escaped" = "ok";
      for (;;) {
        if (at < 0) {
          verdict = at === -3 ? "escaped" : "invalid";
          break;
        }
        const state = memberState(memory.bytes.buffer);
        if (state[0] === 0) {
          // Only whitespace may follow the object.
          if (bytes.subarray(at, end).toString("latin1").trim() !== "") verdict = "invalid";
          break;
        }
        const after = memory.valueEnd(at, end);
        if (after < 0) {
          verdict = "invalid";
          break;
        }
        got.push({ key: JSON.parse(bytes.toString("utf8", state[1], state[2]! + 1)) as string, value: JSON.stringify(JSON.parse(bytes.toString("utf8", at, after))) });
        at = memory.nextMember(after, end, wanted, 0);
      }
      const label = `round ${round}: ${JSON.stringify(text.toString("utf8").slice(0, 200))}`;
      if (want === "invalid" || want === "escaped") {
        expect(verdict, label).not.toBe("ok");
        if (want === "escaped") expect(verdict, label).toBe("escaped");
        rejected++;
      } else {
        expect(verdict, label).toBe("ok");
        // JSON.parse keeps the last of duplicate keys; the walk reports each in order.
        const last = new Map(got.map((m) => [m.key, m.value]));
        expect([...last].map(([key, v]) => ({ key, value: v })), label).toEqual(want);
        stops += got.length;
      }
    }
    expect(stops).toBeGreaterThan(300);
    expect(rejected).toBeGreaterThan(300);
  });
});
