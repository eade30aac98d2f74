/**
 * Tool input read from a URL's query string, whose values are text by nature: the pages and GET
 * routes turn digits into numbers here, and nowhere else does a number field take text (issue 35).
 */
import type * as z from "zod";

const DIGITS = /^\d+$/;

/**
 * A query-string value read as a whole number: digits only (`"7"`, `"007"`), a safe integer.
 * Anything else (`" 7 "`, `"-1"`, `"1e2"`, `"0x10"`, `"1.5"`, empty, absent) is undefined, for a
 * page that falls back to its default.
 */
export function queryInteger(value: string | string[] | null | undefined): number | undefined {
  if (typeof value !== "string" || !DIGITS.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A query-string value for a tool's number field: the number when it is digits only
 * ({@link queryInteger}), else the text as given, which the field then rejects with the same
 * `invalid` error as a string sent to a JSON door.
 */
export function queryNumber(value: string): number | string {
  return queryInteger(value) ?? value;
}

/** The schema inside optional, default, nullable and similar wrappers. */
function innermost(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let def = current.def as { innerType?: z.ZodType }; def.innerType; def = current.def as { innerType?: z.ZodType }) current = def.innerType;
  return current;
}

/**
 * A tool input from query-string values: each value of a field that `schema` types as a number
 * goes through {@link queryNumber}; every other value (and every unset one) is kept as it is.
 */
export function inputFromQuery(schema: z.ZodObject, query: Record<string, string | undefined>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const field = schema.shape[key] as z.ZodType | undefined;
    input[key] = value !== undefined && field && innermost(field).def.type === "number" ? queryNumber(value) : value;
  }
  return input;
}
