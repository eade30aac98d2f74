/**
 * Input fields that tools share (client-safe: zod only): whole numbers and dates, each with one
 * rule and one message on every door.
 */
import * as z from "zod";

/** The field an issue is about, for its message: the last segment of its path. */
const fieldName = (path: readonly PropertyKey[] | undefined): string => String(path?.at(-1) ?? "value");

/** What a rejected value was, in a message: `the string "10"`, `true`, `an array`, `null`. */
function described(value: unknown): string {
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (Array.isArray(value)) return "an array";
  if (value === null || typeof value === "boolean") return String(value);
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/**
 * A whole-number field (a limit, an offset, a line number): a JSON number and nothing else.
 * Never `z.coerce.number()`, which read `"10"`, `" 7 "`, `true` and `[5]` as numbers (issue 35):
 * a JSON door's caller sends a number, and a URL's text is turned into one where the URL is read
 * (lib/tools/query-input.ts). Chain `.min`, `.max` and
 * `.default` as on `z.number()`.
 */
export function wholeNumber() {
  return z
    .number({
      // Only the type check's message: the range checks chained on (min, max) keep theirs.
      error: (issue) => {
        if (issue.code !== "invalid_type") return undefined;
        return issue.input === undefined ? `${fieldName(issue.path)} is required: a whole number` : `${fieldName(issue.path)} must be a whole number (a JSON number), not ${described(issue.input)}`;
      },
    })
    .int({ error: (issue) => `${fieldName(issue.path)} must be a whole number, not ${String(issue.input)}` });
}

/**
 * A date field: a calendar day `YYYY-MM-DD` that exists, or a full ISO 8601 timestamp with its
 * offset (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:00.5+02:00`). Not `Date.parse`, which reads
 * `2026-02-30` as 2 March and `0` as the year 2000 (issue 35). Advertised as either JSON Schema
 * format, `date` or `date-time`.
 */
export function dateOrTimestamp() {
  return z.union([z.iso.date(), z.iso.datetime({ offset: true })], {
    error: (issue) =>
      `${fieldName(issue.path)} must be a date that exists (YYYY-MM-DD) or an ISO timestamp with its offset (2026-11-20T10:00:00Z), not ${described(issue.input)}`,
  });
}

/** A calendar-day field: `YYYY-MM-DD` naming a day that exists (no 2026-02-30; 29 February in leap years only). */
export function calendarDate() {
  return z.iso.date({ error: (issue) => `${fieldName(issue.path)} must be a date that exists, YYYY-MM-DD, not ${described(issue.input)}` });
}
