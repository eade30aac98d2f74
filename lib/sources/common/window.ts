/** Report windows: the half-open instant range triggers are counted in (contract §1.7). */
import { AppError } from "@/lib/errors";
import { civilToEpochMs, daysInMonth, formatIsoSeconds } from "@/lib/sources/common/timestamps";

/**
 * A half-open instant range `[startMs, endMs)` in epoch milliseconds used to decide which
 * triggers are included (contract §1.7: `start ≤ ts < end`). `null` means all time.
 */
export type ReportWindow = { startMs: number; endMs: number } | null;

/** One local report day: the canonical UTC bounds plus both serialisations of contract §1.2. */
export type DayWindow = {
  /** Epoch ms of local 00:00 on the report date (inclusive). */
  startMs: number;
  /** Epoch ms of local 00:00 on the next date (exclusive). */
  endMs: number;
  /** `metadata.json` `report_window_local`, e.g. `2026-05-12T00:00:00+08:00`. */
  local: { start: string; end: string };
  /** `metadata.json` `report_window_utc`, e.g. `2026-05-11T16:00:00Z`. */
  utc: { start: string; end: string };
};

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Computes the half-open local day `[00:00, next 00:00)` of `date` in the IANA zone `timeZone`
 * (contract §1.2), using the runtime's Intl time-zone data.
 *
 * Midnight that falls in a DST gap or overlap resolves like Python's `fold=0`: the offset in
 * effect before the transition (so an ambiguous midnight is its earlier occurrence).
 * @param date report date `YYYY-MM-DD`.
 * @param timeZone IANA zone name such as `Asia/Shanghai` or `UTC`.
 * @throws AppError invalid_input for a malformed or impossible date, or an unknown time zone.
 */
export function dayWindow(date: string, timeZone: string): DayWindow {
  const m = DATE_PATTERN.exec(date);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  if (!m || year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new AppError("invalid_input", `Invalid report date: ${JSON.stringify(date)}.`, {
      fieldErrors: { date: ["Expected a calendar date YYYY-MM-DD."] },
      hint: "Use an ISO calendar date such as 2026-05-12.",
    });
  }
  const formatter = zoneFormatter(timeZone);
  const start = localMidnight(formatter, civilToEpochMs(year, month, day));
  const end = localMidnight(formatter, civilToEpochMs(year, month, day) + DAY_MS);
  return {
    startMs: start.ms,
    endMs: end.ms,
    local: { start: formatIsoSeconds(start.ms, start.offset), end: formatIsoSeconds(end.ms, end.offset) },
    utc: { start: formatIsoSeconds(start.ms), end: formatIsoSeconds(end.ms) },
  };
}

function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  // Intl also accepts offset strings on newer runtimes; prompt-diary (zoneinfo) does not.
  if (timeZone.trim() === "" || /^[+-]/.test(timeZone)) throw unknownZone(timeZone);
  try {
    return new Intl.DateTimeFormat("en-US", {
      timeZone,
      calendar: "gregory",
      numberingSystem: "latn",
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch (error) {
    throw unknownZone(timeZone, error);
  }
}

function unknownZone(timeZone: string, cause?: unknown): AppError {
  return new AppError(
    "invalid_input",
    `Unknown time zone: ${JSON.stringify(timeZone)}.`,
    {
      fieldErrors: { timezone: ["Expected an IANA time zone name."] },
      hint: "Use an IANA name such as Asia/Shanghai, Europe/Berlin or UTC.",
    },
    { cause },
  );
}

/** Offset (seconds, east positive) of the zone at an instant, from Intl's wall-clock parts. */
function offsetSecondsAt(formatter: Intl.DateTimeFormat, epochMs: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(epochMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const wall = civilToEpochMs(
    parts.year ?? 0,
    parts.month ?? 1,
    parts.day ?? 1,
    (parts.hour ?? 0) % 24, // some ICU versions print midnight as 24
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((wall - Math.floor(epochMs / 1000) * 1000) / 1000);
}

/** The instant at which the wall clock reads `wallMs` (a civil time encoded as UTC ms). */
function localMidnight(formatter: Intl.DateTimeFormat, wallMs: number): { ms: number; offset: number } {
  // Offsets a day either side bracket any single transition near this midnight.
  const before = offsetSecondsAt(formatter, wallMs - DAY_MS);
  const after = offsetSecondsAt(formatter, wallMs + DAY_MS);
  const valid = [...new Set([before, after])].filter((o) => offsetSecondsAt(formatter, wallMs - o * 1000) === o);
  // Overlap: the larger offset is the earlier instant (fold=0). Gap: keep the pre-transition offset.
  const offset = valid.length > 0 ? Math.max(...valid) : before;
  return { ms: wallMs - offset * 1000, offset };
}
