/** Python-parity helpers for compact records: blank and prefix checks, timestamps. */
/**
 * Small Python-parity helpers for compact records: prompt-diary is Python, and these rules decide
 * visible strings (blank checks, prefix checks after `lstrip()`, timestamps); `json.dumps` is lib/json/python-json.
 */
import { parseUtcShapeMicros } from "@/lib/sources/common/timestamps";


/** Characters Python's `str.isspace()` accepts (JS `\s` differs: it adds U+FEFF, lacks \x1c-\x1f, \x85). */
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING_SPACE = new RegExp(`^[${PY_SPACE}]+`);
const ONLY_SPACE = new RegExp(`^[${PY_SPACE}]*$`);

/** `value` when it is a string that is not blank (Python `value.strip()` non-empty), else `null`. */
export function nonBlankString(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // A printable ASCII first character is not Python whitespace: most values (types, roles, ids)
  // are decided without the pattern, which analysis calls on every record's fields (issue 13).
  const first = value.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return value;
  return ONLY_SPACE.test(value) ? null : value;
}

/** Python `str.lstrip()` with no argument. */
export function pyLstrip(text: string): string {
  return text.replace(LEADING_SPACE, "");
}

const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/;

/**
 * Microseconds since the Unix epoch of an ISO 8601 timestamp **with** a time zone (`Z` or
 * `±HH:MM`), as prompt-diary's `datetime.fromisoformat` reading accepts it (contract §1.7);
 * `null` for naive, malformed or non-string values. Fractions beyond 6 digits are truncated.
 */
export function parseTimestampMicros(value: unknown): number | null {
  if (typeof value !== "string") return null;
  // The shape transcripts write, read from its characters (cheaper than the pattern); a year
  // before 0100 goes through the pattern, whose Date.UTC reads it as 19xx.
  const fast = value.startsWith("00") ? -1 : parseUtcShapeMicros(value);
  if (fast !== -1) return fast;
  const m = ISO_TIMESTAMP.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [
    number, number, number, number, number, number,
  ];
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const micros = Number((m[7] ?? "").slice(0, 6).padEnd(6, "0"));
  const offsetMinutes = m[8] ? 0 : (m[9] === "-" ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  if (!m[8] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  return (ms - offsetMinutes * 60_000) * 1000 + micros;
}
