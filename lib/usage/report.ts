// Usage reports: per-session usage grouped by day, week, month, model, project, source or session (ccusage-like).
import type { GetUsageInput, UsageRow, UsageTotals } from "@/lib/usage/schema";
import type { SessionUsage } from "@/lib/usage/session-usage";
import { TotalsBuilder } from "@/lib/usage/totals";

/** A session's usage with where it belongs. */
export type SessionUsageEntry = { project_key: string; session_ref: string; session_id: string; source: string; machine?: string; usage: Pick<SessionUsage, "buckets"> };

/** The calendar day (`YYYY-MM-DD`) of an instant in a time zone. */
export function dayIn(ms: number, timeZone: string): string {
  return dayFormat(timeZone).format(new Date(ms));
}

const formats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) formats.set(timeZone, (f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })));
  return f;
}

/** The Monday (`YYYY-MM-DD`) of the ISO week a day belongs to. */
export function weekOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Groups sessions' usage (lib/usage `SessionUsage`, 15-minute buckets) into report rows sorted
 * by key, plus the totals of every row. Filters: `since`/`until` by calendar day in `timezone`
 * (a bucket without a timestamp is left out when either is given), `project_key`, `source`, `machine`.
 * Session rows count each session's usage in the window; rows with no requests are left out.
 */
export function usageReport(entries: readonly SessionUsageEntry[], input: GetUsageInput): { rows: UsageRow[]; totals: UsageTotals } {
  const tz = input.timezone ?? "UTC";
  const groups = new Map<string, { total: TotalsBuilder; models: Map<string, TotalsBuilder>; session?: SessionUsageEntry }>();
  const all = new TotalsBuilder();
  for (const e of entries) {
    if (input.project_key !== undefined && e.project_key !== input.project_key) continue;
    if (input.source !== undefined && e.source !== input.source) continue;
    if (input.machine !== undefined && e.machine !== input.machine) continue;
    for (const b of e.usage.buckets) {
      const day = b.startMs === b.startMs ? dayIn(b.startMs, tz) : null;
      if ((input.since !== undefined || input.until !== undefined) && day === null) continue;
      if (day !== null && ((input.since !== undefined && day < input.since) || (input.until !== undefined && day > input.until))) continue;
      let key: string;
      switch (input.group_by) {
        case "day":
          key = day ?? "unknown";
          break;
        case "week":
          key = day === null ? "unknown" : weekOf(day);
          break;
        case "month":
          key = day === null ? "unknown" : day.slice(0, 7);
          break;
        case "model":
          key = b.model;
          break;
        case "project":
          key = e.project_key;
          break;
        case "source":
          key = e.source;
          break;
        case "machine":
          key = e.machine ?? "unknown";
          break;
        case "session":
          key = `${e.project_key}/${e.session_ref}`;
          break;
      }
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { total: new TotalsBuilder(), models: new Map(), session: input.group_by === "session" ? e : undefined }));
      g.total.add(b.model, b, b.cost);
      let m = g.models.get(b.model);
      if (!m) g.models.set(b.model, (m = new TotalsBuilder()));
      m.add(b.model, b, b.cost);
      all.add(b.model, b, b.cost);
    }
  }
  const period = input.group_by === "day" || input.group_by === "week" || input.group_by === "month";
  const rows = [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, g]) => {
      const t = g.total.build();
      const row: UsageRow = {
        key,
        input_tokens: t.input_tokens,
        output_tokens: t.output_tokens,
        cache_creation_tokens: t.cache_creation_tokens,
        cache_read_tokens: t.cache_read_tokens,
        reasoning_tokens: t.reasoning_tokens,
        total_tokens: t.total_tokens,
        cost_usd: t.cost_usd,
        unpriced_models: t.unpriced_models,
        models: t.models,
      };
      if (g.session) Object.assign(row, { session_id: g.session.session_id, project_key: g.session.project_key, session_ref: g.session.session_ref, source: g.session.source, machine: g.session.machine });
      if (period) row.by_model = [...g.models].sort(([a], [b]) => (a < b ? -1 : 1)).map(([model, m]) => {
        const mt = m.build();
        return { model, total_tokens: mt.total_tokens, cost_usd: mt.cost_usd };
      });
      return row;
    });
  return { rows, totals: all.build() };
}
