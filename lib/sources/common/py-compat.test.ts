/** Tests of the Python-parity helpers. */
import { describe, expect, it } from "vitest";

import { seededRandom } from "@/lib/testing/random";

import { parseJsonObject } from "@/lib/sources/common/json-object";

import { nonBlankString, parseTimestampMicros, pyLstrip } from "./py-compat";

describe("Python whitespace rules", () => {
  it("lstrip and blank checks follow str.isspace", () => {
    expect(pyLstrip("\u0085\u3000\x1c <x>")).toBe("<x>");
    expect(pyLstrip("\ufeff<x>")).toBe("\ufeff<x>");
    expect(nonBlankString(" \t\n")).toBeNull();
    expect(nonBlankString(" a ")).toBe(" a ");
    expect(nonBlankString(1)).toBeNull();
  });
});

describe("parseJsonObject", () => {
  it("returns objects only", () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject("[1]")).toBeNull();
    expect(parseJsonObject("nope")).toBeNull();
  });
});

describe("parseTimestampMicros", () => {
  it("reads zoned ISO timestamps to the microsecond", () => {
    expect(parseTimestampMicros("1970-01-01T00:00:00.000001Z")).toBe(1);
    expect(parseTimestampMicros("1970-01-01T08:00:01+08:00")).toBe(1_000_000);
    expect(parseTimestampMicros("1970-01-01T00:00:00.1234567Z")).toBe(123_456);
  });

  it("reads the shape transcripts write (`T`, `Z`, a fraction of any length or none) as the pattern reads it", () => {
    const next = seededRandom(11);
    const pick = (n: number, width: number) => String(Math.floor(next() * n)).padStart(width, "0");
    for (let i = 0; i < 20_000; i++) {
      const year = [pick(10_000, 4), "2024", "2100", "2000", "1900", "0999", "0099", "0000"][i % 8]!;
      const fraction = ["", `.${pick(1000, 3)}`, `.${pick(1_000_000, 6)}`, `.${pick(10, 1)}`, `.${pick(1e9, 9)}`][i % 5]!;
      let text = `${year}-${pick(14, 2)}-${pick(33, 2)}T${pick(26, 2)}:${pick(62, 2)}:${pick(62, 2)}${fraction}Z`;
      if (i % 50 === 0) text = text.replace(/\d(?=[^T]*$)/, "x");
      // The same instant with a space for `T` is read by the pattern only.
      expect(parseTimestampMicros(text), text).toBe(parseTimestampMicros(text.replace("T", " ")));
    }
    expect(parseTimestampMicros("2024-02-29T23:59:59.999999Z")).toBe(Date.UTC(2024, 1, 29, 23, 59, 59) * 1000 + 999_999);
    expect(parseTimestampMicros("2023-02-29T00:00:00Z")).toBeNull();
  });

  it("rejects naive, invalid and non-string values", () => {
    for (const value of ["2026-05-28T00:00:00", "2026-02-30T00:00:00Z", "yesterday", 0, null]) {
      expect(parseTimestampMicros(value)).toBeNull();
    }
  });
});
