import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { cutBytes, cutPrefix, isCut, leanLineText, MALFORMED, parseLeanLine } from "@/lib/jsonl/lean-json";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const line = (text: string): [Buffer, number, number] => {
  const b = Buffer.from(`xx${text}yy`, "utf8");
  return [b, 2, b.length - 2];
};
const lean = (text: string, maxStringBytes = 16, keepBytes = 8): unknown => parseLeanLine(...line(text), { maxStringBytes, keepBytes });
const pad = (s: string): string => s + " ".repeat(2100);

describe("parseLeanLine", () => {
  it("cuts long strings to a prefix and their byte length, and keeps short ones", () => {
    const value = lean(pad(JSON.stringify({ a: "short", b: "0123456789abcdefXYZ", c: [1, true, null] }))) as Record<string, unknown>;
    expect(value.a).toBe("short");
    expect(isCut(value.b)).toBe(true);
    expect(cutPrefix(value.b as string)).toBe("01234567");
    expect(cutBytes(value.b as string)).toBe(19);
    expect(value.c).toEqual([1, true, null]);
    const keyed = lean(pad(JSON.stringify({ "a key longer than sixteen bytes": 1 }))) as Record<string, unknown>;
    expect(keyed["a key longer than sixteen bytes"]).toBe(1);
    expect(isCut("plain")).toBe(false);
    expect(cutBytes("é")).toBe(2);
  });

  it("skips escaped quotes and backslash runs inside a string", () => {
    const raw = { k: 'he said \\"hi\\" and \\\\ then "quoted" text that is long', after: "x\\" };
    const value = lean(pad(JSON.stringify(raw)), 16, 12) as Record<string, string>;
    expect(value.after).toBe("x\\");
    expect(raw.k.startsWith(cutPrefix(value.k!))).toBe(true);
    expect(cutPrefix(value.k!).length).toBeLessThanOrEqual(12);
  });

  it("never cuts inside a UTF-8 sequence or an escape", () => {
    const utf = lean(pad(JSON.stringify({ s: "aaaaaaé€😀bbbbbbbbbbbbbbbb" })), 16, 8) as { s: string };
    expect(cutPrefix(utf.s)).toBe("aaaaaaé");
    const esc = lean(pad(`{"s":"aaaaa\\u00e9bbbbbbbbbbbbbbbbbbb"}`), 16, 8) as { s: string };
    expect(cutPrefix(esc.s)).toBe("aaaaa");
  });

  it("reports truncated and broken lines as malformed, like JSON.parse", () => {
    expect(lean(pad(`{"a":"0123456789abcdefXYZ`))).toBe(MALFORMED);
    expect(lean(pad(`{"a":"0123456789abcdefXYZ",}`))).toBe(MALFORMED);
    expect(lean(`{"a":1`)).toBe(MALFORMED);
    expect(lean(pad(`garbage "0123456789abcdefXYZ"`))).toBe(MALFORMED);
    expect(lean(pad(`[1,2,"0123456789abcdefXYZ"]`))).toEqual([1, 2, expect.stringContaining("\u0000")]);
  });

  it("parses short lines whole", () => {
    const [b, s, e] = line(JSON.stringify({ b: "0123456789abcdefXYZ" }));
    expect(leanLineText(b, s, e, { maxStringBytes: 16 })).toBe(JSON.stringify({ b: "0123456789abcdefXYZ" }));
  });
});

/** Every string of `full` equals the lean one, or starts with a cut string's prefix. */
function sameModuloCuts(full: unknown, cut: unknown, max: number): boolean {
  if (typeof full === "string") {
    if (full === cut) return true;
    return isCut(cut) && full.startsWith(cutPrefix(cut)) && cutBytes(cut) > max;
  }
  if (Array.isArray(full)) return Array.isArray(cut) && full.length === cut.length && full.every((v, i) => sameModuloCuts(v, cut[i], max));
  if (full !== null && typeof full === "object") {
    if (cut === null || typeof cut !== "object" || Array.isArray(cut)) return false;
    const a = Object.keys(full);
    const b = Object.keys(cut);
    return a.length === b.length && a.every((k, i) => k === b[i] && sameModuloCuts((full as Record<string, unknown>)[k], (cut as Record<string, unknown>)[k], max));
  }
  return Object.is(full, cut);
}

describe.skipIf(!HAS_SHARED)(`parseLeanLine on every corpus line${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("agrees with JSON.parse on validity and on every value up to cuts", () => {
    const corpus = path.join(SHARED_DIR, "corpus");
    const files = readdirSync(corpus, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(10);
    let lines = 0;
    let cutLines = 0;
    for (const file of files) {
      const bytes = readFileSync(path.join(corpus, file));
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(0x0a, start);
        if (end === -1) end = bytes.length;
        let full: unknown;
        try {
          full = JSON.parse(bytes.toString("utf8", start, end));
        } catch {
          full = MALFORMED;
        }
        const value = parseLeanLine(bytes, start, end, { maxStringBytes: 64, keepBytes: 32 });
        if (full === MALFORMED) expect(value, `${file}:${lines}`).toBe(MALFORMED);
        else expect(sameModuloCuts(full, value, 64), `${file} byte ${start}`).toBe(true);
        if (leanLineText(bytes, start, end, { maxStringBytes: 64 }).length < end - start - 64) cutLines += 1;
        lines += 1;
        start = end + 1;
      }
    }
    expect(lines).toBeGreaterThan(1000);
    expect(cutLines).toBeGreaterThan(100);
  });
});
