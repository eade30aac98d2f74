/** Tests of parseAwareTimestamp and formatIsoSeconds. */
import { describe, expect, it } from "vitest";
import { formatIsoSeconds, parseAwareTimestamp, parseAwareTimestampByPattern } from "@/lib/sources/common/timestamps";
import { seededRandom } from "@/lib/testing/random";

const at = (iso: string) => Date.parse(iso);

describe("parseAwareTimestamp", () => {
  it("reads the shape transcripts write exactly as its pattern does, on 20,000 near-miss variants", () => {
    const random = seededRandom(13);
    const pick = (chars: string) => chars[Math.floor(random() * chars.length)]!;
    const base = ["2026-05-11T16:00:00.123Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00.5Z", "0001-01-01T00:00:00.123456789Z", "2026-12-31T24:00:00Z", "2026-04-31T10:60:00.000Z"];
    for (let i = 0; i < 20_000; i++) {
      const chars = [...base[i % base.length]!];
      for (let k = Math.floor(random() * 3); k > 0; k--) {
        const at = Math.floor(random() * chars.length);
        const edit = random();
        if (edit < 0.6) chars[at] = pick("0123456789-:.TZ t,+");
        else if (edit < 0.8) chars.splice(at, 1);
        else chars.splice(at, 0, pick("0123456789.Z"));
      }
      const text = chars.join("");
      expect(parseAwareTimestamp(text), text).toBe(parseAwareTimestampByPattern(text));
    }
  });

  it.each([
    ["2026-05-11T16:00:00Z", at("2026-05-11T16:00:00Z")],
    ["2026-05-11T16:00:00.123Z", at("2026-05-11T16:00:00.123Z")],
    ["2026-05-11T16:00:00.1Z", at("2026-05-11T16:00:00.100Z")],
    // Digits beyond milliseconds are truncated, not rounded.
    ["2026-05-11T16:00:00.123999999Z", at("2026-05-11T16:00:00.123Z")],
    ["2026-05-11T16:00:00,5Z", at("2026-05-11T16:00:00.500Z")],
    ["2026-05-12T00:00:00+08:00", at("2026-05-11T16:00:00Z")],
    ["2026-05-12T00:00:00+0800", at("2026-05-11T16:00:00Z")],
    ["2026-05-12T00:00:00+08", at("2026-05-11T16:00:00Z")],
    ["2026-05-11T12:00:00-04:00", at("2026-05-11T16:00:00Z")],
    ["2026-05-11T16:00:00-00:00", at("2026-05-11T16:00:00Z")],
    ["2026-05-11 16:00:00Z", at("2026-05-11T16:00:00Z")],
    ["2026-05-11T16:00Z", at("2026-05-11T16:00:00Z")],
    ["2026-05-11T16Z", at("2026-05-11T16:00:00Z")],
    ["20260511T160000Z", at("2026-05-11T16:00:00Z")],
    ["  2026-05-11T16:00:00Z\n", at("2026-05-11T16:00:00Z")],
    ["2024-02-29T00:00:00Z", at("2024-02-29T00:00:00Z")],
  ])("accepts %j", (input, expected) => {
    expect(parseAwareTimestamp(input)).toBe(expected);
  });

  it("does not map years below 100 to 19xx the way Date.UTC does", () => {
    const year50 = new Date(0);
    year50.setUTCFullYear(50, 0, 1);
    expect(parseAwareTimestamp("0050-01-01T00:00:00Z")).toBe(year50.getTime());
  });

  it.each([
    "2026-05-11T16:00:00", // naive
    "2026-05-11 16:00:00.123", // naive
    "2026-05-11", // date only (naive)
    "2026-05-11T16:00:00z", // Python rejects lowercase z
    "2026-13-01T00:00:00Z",
    "2026-02-29T00:00:00Z", // not a leap year
    "2026-05-11T24:00:00Z",
    "2026-05-11T16:60:00Z",
    "2026-05-11T16:00:60Z", // no leap seconds
    "2026-05-11T16:00:00+24:00",
    "2026-05-11T16:00:00+08:60",
    "0000-01-01T00:00:00Z", // year 0 does not exist in Python's datetime
    "not a date",
    "",
    "   ",
  ])("rejects %j", (input) => {
    expect(parseAwareTimestamp(input)).toBeNull();
  });

  it.each([null, undefined, 1715443200000, true, {}, ["2026-05-11T16:00:00Z"]])("rejects non-string %j", (input) => {
    expect(parseAwareTimestamp(input)).toBeNull();
  });
});

describe("formatIsoSeconds", () => {
  it("writes UTC with Z and drops sub-second digits", () => {
    expect(formatIsoSeconds(at("2026-05-11T16:00:00.999Z"))).toBe("2026-05-11T16:00:00Z");
  });

  it("writes local time with a ±HH:MM offset", () => {
    expect(formatIsoSeconds(at("2026-05-11T16:00:00Z"), 8 * 3600)).toBe("2026-05-12T00:00:00+08:00");
    expect(formatIsoSeconds(at("2026-05-11T16:00:00Z"), -(9 * 3600 + 30 * 60))).toBe("2026-05-11T06:30:00-09:30");
  });

  it("adds seconds only for second-level historical offsets", () => {
    expect(formatIsoSeconds(0, 8 * 3600 + 5 * 60 + 43)).toBe("1970-01-01T08:05:43+08:05:43");
  });

  it("round-trips through parseAwareTimestamp", () => {
    const ms = at("1999-12-31T23:59:59Z");
    expect(parseAwareTimestamp(formatIsoSeconds(ms, 3600))).toBe(ms);
  });
});
