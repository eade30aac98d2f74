/** The workspace's `metadata.json`: preparation window and time zone. */
import type { ReportWindow } from "@/lib/sources/common/window";

/** The requested preparation window: all time (Casefile's default) or one report day. */
export type PrepareTarget =
  | { kind: "all" }
  | { kind: "day"; date: string; timezone: string; window: NonNullable<ReportWindow>; local: { start: string; end: string }; utc: { start: string; end: string } };

export type MetadataJson = {
  schema_version: 3;
  report_date: string;
  timezone: string;
  status: "final" | "partial";
  prepared_at: string;
  report_window_local: { start: string | null; end: string | null };
  report_window_utc: { start: string | null; end: string | null };
};

/**
 * Builds `metadata.json` in contract §1.2 key order. An all-time workspace records the
 * preparation day as `report_date`, the machine's zone, status `partial`, and null window
 * bounds (no day boundary applies). Datetimes are seconds precision, `Z` for UTC, else ±HH:MM.
 */
export function buildMetadata(target: PrepareTarget, now: Date, systemZone: string): MetadataJson {
  const zone = target.kind === "day" ? target.timezone : systemZone;
  const preparedAt = formatInZone(now, zone);
  if (target.kind === "all") {
    return {
      schema_version: 3,
      report_date: preparedAt.slice(0, 10),
      timezone: zone,
      status: "partial",
      prepared_at: preparedAt,
      report_window_local: { start: null, end: null },
      report_window_utc: { start: null, end: null },
    };
  }
  const today = preparedAt.slice(0, 10);
  return {
    schema_version: 3,
    report_date: target.date,
    timezone: target.timezone,
    status: target.date >= today ? "partial" : "final",
    prepared_at: preparedAt,
    report_window_local: target.local,
    report_window_utc: target.utc,
  };
}

/** Formats an instant in an IANA zone as `YYYY-MM-DDTHH:MM:SS±HH:MM` (or `Z` for UTC). */
export function formatInZone(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  const local = `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  const offsetMin = Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60000);
  if (offsetMin === 0 && (timeZone === "UTC" || timeZone === "Etc/UTC")) return `${local}Z`;
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Whether an existing metadata.json describes the same target (contract §1.1 reuse rule). */
export function sameTarget(existing: Record<string, unknown>, next: MetadataJson, target: PrepareTarget): string[] {
  const mismatches: string[] = [];
  if (existing.schema_version !== 3) mismatches.push(`schema_version: expected 3, found ${JSON.stringify(existing.schema_version)}`);
  const keys = target.kind === "all" ? [] : (["report_date", "timezone"] as const);
  for (const key of keys) {
    if (existing[key] !== next[key]) mismatches.push(`${key}: expected '${next[key]}', found '${String(existing[key])}'`);
  }
  const win = (v: unknown) => JSON.stringify((v as { start?: unknown } | undefined)?.start ?? null);
  if (win(existing.report_window_utc) !== win(next.report_window_utc)) {
    mismatches.push(`report_window_utc: expected ${JSON.stringify(next.report_window_utc)}, found ${JSON.stringify(existing.report_window_utc)}`);
  }
  return mismatches;
}
