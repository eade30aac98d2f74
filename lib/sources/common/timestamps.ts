/** Timezone-aware timestamp parsing and seconds-precision serialisation (contract §1.2, §1.7). */
/**
 * Timezone-aware timestamp parsing and seconds-precision serialisation (contract §1.2, §1.7).
 *
 * prompt-diary parses record timestamps with Python's `datetime.fromisoformat` after turning a
 * trailing `Z` into `+00:00`, and treats naive values as missing. This module accepts the
 * subset of that grammar that transcripts actually use, without a date library.
 */

const DAY_MS = 86_400_000;

// Date (extended or basic), one separator (T, t or space), time (extended or basic), offset.
// Python also accepts week dates and any separator character; transcripts never use them.
const DATE = String.raw`(\d{4})-(\d{2})-(\d{2})|(\d{4})(\d{2})(\d{2})`;
const TIME = String.raw`(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?|(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,](\d+))?)?)?`;
const OFFSET = String.raw`Z|([+-])(\d{2})(?::?(\d{2})(?::?(\d{2})(?:\.\d+)?)?)?`;
const AWARE_PATTERN = new RegExp(`^(?:${DATE})[Tt ](?:${TIME})(?:${OFFSET})$`);

/**
 * Parses an ISO 8601 timestamp that carries a timezone into epoch milliseconds.
 *
 * Accepts `YYYY-MM-DD` or `YYYYMMDD`, a `T`/space separator, `HH[:MM[:SS[.fff…]]]` (or the basic
 * form without colons; `,` may stand for `.`), then `Z`, `±HH`, `±HH:MM`, `±HHMM` or
 * `±HH:MM:SS`. Leading/trailing whitespace is ignored. Fractions beyond milliseconds are
 * truncated, like Python drops digits beyond microseconds.
 * @returns epoch ms, or `null` for a non-string, a blank or naive value (no offset), or an
 *   impossible date/time (month 13, 24:00, leap seconds, offsets of 24 h or more). Never throws.
 */
export function parseAwareTimestamp(value: unknown): number | null {
  if (typeof value !== "string") return null;
  // What Claude Code and Codex write on every line, `YYYY-MM-DDTHH:MM:SS[.f…]Z`, read from its
  // characters (cheaper than the pattern); anything else, or any value the fast path doubts, goes
  // through the pattern.
  const fast = parseUtcShape(value);
  return fast >= 0 ? fast : parseAwareTimestampByPattern(value);
}

/**
 * {@link parseAwareTimestamp} by its pattern alone, for every accepted shape: the reference its
 * fast path is tested against. Same contract.
 */
export function parseAwareTimestampByPattern(value: string): number | null {
  const m = AWARE_PATTERN.exec(value.trim());
  if (!m) return null;
  const year = num(m[1] ?? m[4]);
  const month = num(m[2] ?? m[5]);
  const day = num(m[3] ?? m[6]);
  const hour = num(m[7] ?? m[11]);
  const minute = num(m[8] ?? m[12]);
  const second = num(m[9] ?? m[13]);
  const fraction = m[10] ?? m[14] ?? "";
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetSeconds = 0;
  if (m[15] !== undefined) {
    const oh = num(m[16]);
    const om = num(m[17]);
    const os = num(m[18]);
    if (om > 59 || os > 59) return null;
    offsetSeconds = (m[15] === "-" ? -1 : 1) * (oh * 3600 + om * 60 + os);
    if (Math.abs(offsetSeconds) >= 86_400) return null;
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, "0"));
  return civilToEpochMs(year, month, day, hour, minute, second) + millis - offsetSeconds * 1000;
}

/** Epoch ms of `YYYY-MM-DDTHH:MM:SS[.f…]Z` with a valid date and time, else -1 (not decided here). */
function parseUtcShape(v: string): number {
  const micros = parseUtcShapeMicros(v);
  return micros === -1 ? -1 : Math.floor(micros / 1000);
}

/**
 * Epoch microseconds of `YYYY-MM-DDTHH:MM:SS[.f…]Z` (the shape Claude Code and Codex write;
 * a fraction past 6 digits is truncated) with a valid proleptic-Gregorian date and time, read
 * from its characters; -1 for any other shape or an invalid value (the caller's pattern then
 * decides: -1 is also 1969-12-31T23:59:59.999999Z, which it reads the same way).
 */
export function parseUtcShapeMicros(v: string): number {
  const n = v.length;
  if (n < 20 || v.charCodeAt(n - 1) !== 0x5a || v.charCodeAt(4) !== 0x2d || v.charCodeAt(7) !== 0x2d || v.charCodeAt(10) !== 0x54 || v.charCodeAt(13) !== 0x3a || v.charCodeAt(16) !== 0x3a) return -1;
  const year = digitsAt(v, 0, 4);
  const month = digitsAt(v, 5, 2);
  const day = digitsAt(v, 8, 2);
  const hour = digitsAt(v, 11, 2);
  const minute = digitsAt(v, 14, 2);
  const second = digitsAt(v, 17, 2);
  let micros = 0;
  if (n > 20) {
    if (v.charCodeAt(19) !== 0x2e || n === 21) return -1;
    for (let i = 20; i < n - 1; i++) {
      const d = v.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) return -1;
      if (i < 26) micros = micros * 10 + d;
    }
    for (let i = Math.min(n - 1, 26); i < 26; i++) micros *= 10;
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return -1;
  return civilToEpochMs(year, month, day, hour, minute, second) * 1000 + micros;
}

/** The decimal number of `count` ASCII digits of `v` at `at`, or -1 when one is not a digit. */
function digitsAt(v: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const d = v.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * Serialises an instant like prompt-diary's `serialize_datetime` (contract §1.2): seconds
 * precision (sub-second part dropped), `Z` when the offset is zero, else `±HH:MM` (with `:SS`
 * only for historical second-level offsets).
 * @param epochMs the instant, epoch milliseconds.
 * @param offsetSeconds the local UTC offset in seconds (east positive); 0 for UTC.
 */
export function formatIsoSeconds(epochMs: number, offsetSeconds = 0): string {
  const localSeconds = Math.floor(epochMs / 1000) + offsetSeconds;
  const days = Math.floor(localSeconds / 86_400);
  const secOfDay = localSeconds - days * 86_400;
  const { year, month, day } = civilFromDays(days);
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  const time = `${pad(Math.floor(secOfDay / 3600))}:${pad(Math.floor(secOfDay / 60) % 60)}:${pad(secOfDay % 60)}`;
  return `${date}T${time}${formatOffset(offsetSeconds)}`;
}

function formatOffset(offsetSeconds: number): string {
  if (offsetSeconds === 0) return "Z";
  const abs = Math.abs(offsetSeconds);
  const base = `${offsetSeconds < 0 ? "-" : "+"}${pad(Math.floor(abs / 3600))}:${pad(Math.floor(abs / 60) % 60)}`;
  return abs % 60 === 0 ? base : `${base}:${pad(abs % 60)}`;
}

/** Epoch ms of a proleptic-Gregorian civil date-time read as UTC (no `Date` two-digit-year quirks). */
export function civilToEpochMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000;
}

/** Number of days in a Gregorian month (1-based month). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Howard Hinnant's days_from_civil / civil_from_days: exact integer calendar arithmetic.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const num = (text: string | undefined): number => (text === undefined ? 0 : Number(text));
const pad = (value: number, width = 2): string => String(value).padStart(width, "0");
