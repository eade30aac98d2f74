// Issue 35 item 8: number fields take JSON numbers only, dates must exist; URL text becomes a number only where a URL is read.
import * as z from "zod";
import { describe, expect, it } from "vitest";

import { parseToolInput } from "@/lib/tools/define-tool";
import { calendarDate, dateOrTimestamp, wholeNumber } from "@/lib/tools/input-fields";
import { inputFromQuery, queryInteger, queryNumber } from "@/lib/tools/query-input";
import { TOOLS } from "@/lib/tools/registry";

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => [i.path.join("."), i.message]);

describe("wholeNumber", () => {
  const schema = z.object({ limit: wholeNumber().min(1).max(200).default(20), start_line: wholeNumber() });

  it.each([
    ["a string of digits", "10", 'the string "10"'],
    ["a padded string", " 7 ", 'the string " 7 "'],
    ["a boolean", true, "true"],
    ["an array", [5], "an array"],
    ["null", null, "null"],
  ])("refuses %s with a message naming the field and what it got", (_label, value, got) => {
    expect(messages(schema, { limit: value, start_line: 1 })).toEqual([["limit", `limit must be a whole number (a JSON number), not ${got}`]]);
  });

  it("refuses a fraction, keeps the range messages, reports a missing required field, and takes a number", () => {
    expect(messages(schema, { limit: 1.5, start_line: 1 })).toEqual([["limit", "limit must be a whole number, not 1.5"]]);
    expect(messages(schema, { limit: 0, start_line: 1 })).toEqual([["limit", "Too small: expected number to be >=1"]]);
    expect(messages(schema, {})).toEqual([["start_line", "start_line is required: a whole number"]]);
    expect(schema.parse({ limit: 10, start_line: 3 })).toEqual({ limit: 10, start_line: 3 });
    expect(schema.parse({ start_line: 3 })).toEqual({ limit: 20, start_line: 3 });
  });
});

describe("dateOrTimestamp and calendarDate", () => {
  const search = z.object({ since: dateOrTimestamp().optional() });
  const usage = z.object({ since: calendarDate().optional() });

  it.each(["2026-02-30", "2023-02-29", "0", "2026-13-01", "2026-11-20T10:00:00", "2026-11-20T25:00:00Z", "2026-02-30T10:00:00Z", " 2026-11-20", "2026-11-20\u0000"])(
    "dateOrTimestamp refuses %j",
    (value) => {
      expect(messages(search, { since: value })).toEqual([["since", `since must be a date that exists (YYYY-MM-DD) or an ISO timestamp with its offset (2026-11-20T10:00:00Z), not the string ${JSON.stringify(value)}`]]);
    },
  );

  it.each(["2026-11-20", "2024-02-29", "2026-11-20T10:00:00Z", "2026-11-20T10:00:00.123+02:00", "2026-11-20T10:00:00-05:30"])("dateOrTimestamp takes %j", (value) => {
    expect(search.parse({ since: value })).toEqual({ since: value });
  });

  it("calendarDate takes days that exist and nothing else", () => {
    expect(usage.parse({ since: "2024-02-29" })).toEqual({ since: "2024-02-29" });
    for (const bad of ["2026-02-30", "2026-02-29", "2026-11-20T10:00:00Z", "20261120"]) {
      expect(messages(usage, { since: bad })).toEqual([["since", `since must be a date that exists, YYYY-MM-DD, not the string ${JSON.stringify(bad)}`]]);
    }
  });
});

describe("query-string numbers", () => {
  it("reads digits only as a number", () => {
    expect([queryInteger("7"), queryInteger("007"), queryInteger("0")]).toEqual([7, 7, 0]);
    for (const text of [" 7 ", "-1", "1e2", "0x10", "1.5", "", "7a", "99999999999999999999"]) expect(queryInteger(text)).toBeUndefined();
    expect([queryInteger(undefined), queryInteger(null), queryInteger(["7"])]).toEqual([undefined, undefined, undefined]);
    expect([queryNumber("12"), queryNumber("1e2")]).toEqual([12, "1e2"]);
  });

  it("turns digits into numbers for the schema's number fields only, and leaves the rest to the schema", () => {
    const schema = z.object({ q: z.string().optional(), limit: wholeNumber().min(1).default(20), line: wholeNumber().optional() });
    expect(inputFromQuery(schema, { q: "123", limit: "5", line: " 7 ", other: "9", unset: undefined })).toEqual({ q: "123", limit: 5, line: " 7 ", other: "9", unset: undefined });
  });
});

describe("every registered tool", () => {
  /** Top-level fields a tool's schema types as a number, inside optional and default wrappers. */
  const numberFields = (schema: z.ZodObject): string[] =>
    Object.entries(schema.shape).filter(([, field]) => {
      let inner = field as z.ZodType;
      for (let def = inner.def as { innerType?: z.ZodType }; def.innerType; def = inner.def as { innerType?: z.ZodType }) inner = def.innerType;
      return inner.def.type === "number";
    }).map(([key]) => key);

  const cases = TOOLS.flatMap((tool) => numberFields(tool.input).map((field) => [tool.name, field, tool] as const));

  it("has number fields to check (search_sessions' limit among them)", () => {
    expect(cases.map(([name, field]) => `${name}.${field}`)).toEqual(expect.arrayContaining(["search_sessions.limit", "list_sessions.offset", "grep_jsonl.max_bytes", "query_ledger_full.max_entries"]));
  });

  it.each(cases)("%s refuses a %s that is not a JSON number", (_name, field, tool) => {
    for (const value of ["10", " 7 ", true, [5]]) {
      const parsed = parseToolInput(tool, { [field]: value });
      expect(parsed.ok).toBe(false);
      const errors = parsed.ok ? [] : parsed.result.errors.filter((e) => e.field === field);
      expect(errors).toEqual([{ field, message: expect.stringMatching(new RegExp(`^${field} must be a whole number \\(a JSON number\\), not `)), hint: tool.inputHint }]);
    }
  });
});
