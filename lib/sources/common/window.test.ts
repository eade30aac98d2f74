/** Tests of dayWindow. */
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { dayWindow } from "@/lib/sources/common/window";

describe("dayWindow", () => {
  // Expected strings were produced with Python 3.11 zoneinfo exactly as prompt-diary builds the
  // target: datetime.combine(date, time.min, tzinfo=zone), + timedelta(days=1), serialize_datetime.
  it.each([
    ["2026-05-12", "Asia/Shanghai", "2026-05-12T00:00:00+08:00", "2026-05-13T00:00:00+08:00", "2026-05-11T16:00:00Z", "2026-05-12T16:00:00Z"],
    ["2026-05-12", "UTC", "2026-05-12T00:00:00Z", "2026-05-13T00:00:00Z", "2026-05-12T00:00:00Z", "2026-05-13T00:00:00Z"],
    // Offset zero is written with Z even for a named zone.
    ["2024-01-15", "Europe/London", "2024-01-15T00:00:00Z", "2024-01-16T00:00:00Z", "2024-01-15T00:00:00Z", "2024-01-16T00:00:00Z"],
    // 23-hour day (spring forward at 02:00).
    ["2024-03-10", "America/New_York", "2024-03-10T00:00:00-05:00", "2024-03-11T00:00:00-04:00", "2024-03-10T05:00:00Z", "2024-03-11T04:00:00Z"],
    // Midnight inside a DST gap: fold=0 keeps the pre-transition offset.
    ["2024-09-08", "America/Santiago", "2024-09-08T00:00:00-04:00", "2024-09-09T00:00:00-03:00", "2024-09-08T04:00:00Z", "2024-09-09T03:00:00Z"],
    // Midnight occurring twice (fall back 01:00 → 00:00): fold=0 is the earlier one.
    ["2024-11-03", "America/Havana", "2024-11-03T00:00:00-04:00", "2024-11-04T00:00:00-05:00", "2024-11-03T04:00:00Z", "2024-11-04T05:00:00Z"],
    ["2024-11-02", "America/Havana", "2024-11-02T00:00:00-04:00", "2024-11-03T00:00:00-04:00", "2024-11-02T04:00:00Z", "2024-11-03T04:00:00Z"],
    ["2024-12-31", "Pacific/Kiritimati", "2024-12-31T00:00:00+14:00", "2025-01-01T00:00:00+14:00", "2024-12-30T10:00:00Z", "2024-12-31T10:00:00Z"],
    ["2024-02-29", "Asia/Kolkata", "2024-02-29T00:00:00+05:30", "2024-03-01T00:00:00+05:30", "2024-02-28T18:30:00Z", "2024-02-29T18:30:00Z"],
  ])("%s in %s", (date, zone, localStart, localEnd, utcStart, utcEnd) => {
    const window = dayWindow(date, zone);
    expect(window.local).toEqual({ start: localStart, end: localEnd });
    expect(window.utc).toEqual({ start: utcStart, end: utcEnd });
    expect(window.startMs).toBe(Date.parse(utcStart));
    expect(window.endMs).toBe(Date.parse(utcEnd));
  });

  it.each(["2026-5-12", "2026-02-30", "2026-13-01", "0000-01-01", "", "2026-05-12T00:00:00Z"])(
    "rejects the date %j with invalid_input and a hint",
    (date) => {
      expect(() => dayWindow(date, "UTC")).toThrowError(AppError);
      try {
        dayWindow(date, "UTC");
      } catch (error) {
        expect((error as AppError).code).toBe("invalid_input");
        expect((error as AppError).details.hint).toMatch(/YYYY-MM-DD|2026-05-12/);
      }
    },
  );

  it.each(["Mars/Olympus", "", "+08:00", "-05:00"])("rejects the time zone %j with invalid_input", (zone) => {
    try {
      dayWindow("2026-05-12", zone);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("invalid_input");
      expect((error as AppError).details.hint).toContain("IANA");
    }
  });
});
