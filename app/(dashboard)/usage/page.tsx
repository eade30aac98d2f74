import { isTranscriptSource, SOURCE_LABELS, TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import type { Metadata } from "next";

import { type MachineUsage, UsageChart } from "@/components/usage/usage-chart";
import { TABLE_MAX_ROWS, topRows, UsageTable } from "@/components/usage/usage-table";
import { formatCount } from "@/lib/format/count";
import { getUsageQuery } from "@/server/queries/usage";
import type { GetUsageInput } from "@/lib/usage/schema";
import { isMachineName } from "@/lib/workspace/schema";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

type UsagePageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PERIODS = ["day", "week", "month"] as const;
const TABLES = ["session", "model", "project", "source", "machine", "period"] as const;

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The most machines the chart stacks by (one `get_usage` each); with more, its bars stack by model. */
const CHART_MACHINES_MAX = 16;

/** The Usage page (issue 28): tokens and cost over time (bars by model, or by machine when the table is) and a table, both from `get_usage`. */
export default async function UsagePage({ searchParams }: UsagePageProps) {
  const search = await searchParams;
  const period = pick(search.period, PERIODS, "day");
  const table = pick(search.table, TABLES, "session");
  const source = isTranscriptSource(search.source) ? search.source : undefined;
  const machine = isMachineName(search.machine) ? search.machine : undefined;
  const filters: Omit<GetUsageInput, "group_by"> = { since: text(search.since), until: text(search.until), project_key: text(search.project), source, machine, timezone: text(search.tz) };
  // The machines with usage (issue 39): their filter shows only when there are two or more (the table's rows when it is by machine).
  const machineRows = table === "machine" && machine === undefined;
  const [chart, rows, byMachine] = await Promise.all([
    getUsageQuery({ ...filters, group_by: period }),
    getUsageQuery({ ...filters, group_by: table === "period" ? period : table }),
    machineRows ? null : getUsageQuery({ ...filters, machine: undefined, group_by: "machine" }),
  ]);
  const machines = ((machineRows ? rows : byMachine)?.rows ?? []).map((r) => r.key);
  // Table by machine: the chart stacks each period's tokens by machine too (issue 39), one get_usage per machine.
  const chartMachines = machineRows && machines.length <= CHART_MACHINES_MAX ? machines : [];
  const perMachine = await Promise.all(chartMachines.map(async (m) => ({ machine: m, rows: (await getUsageQuery({ ...filters, machine: m, group_by: period }))?.rows ?? [] })));
  const chartByMachine: MachineUsage[] | undefined = chartMachines.length > 0 ? perMachine : undefined;
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h1 className="text-lg font-semibold">Usage</h1>
          <form method="get" className="flex flex-wrap items-center gap-2 text-xs" aria-label="Usage filters">
            <label className="flex items-center gap-1">
              Per
              <select name="period" defaultValue={period} className="rounded border border-line bg-surface px-1 py-0.5">
                {PERIODS.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1">
              Table by
              <select name="table" defaultValue={table} className="rounded border border-line bg-surface px-1 py-0.5">
                {TABLES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <label className="flex items-center gap-1">
              Source
              <select name="source" defaultValue={source ?? ""} className="rounded border border-line bg-surface px-1 py-0.5">
                <option value="">all</option>
                {TRANSCRIPT_SOURCES.map((s) => (
                  <option key={s} value={s}>
                    {SOURCE_LABELS[s]}
                  </option>
                ))}
              </select>
            </label>
            {(machines.length > 1 || machine) && (
              <label className="flex items-center gap-1">
                Machine
                <select name="machine" defaultValue={machine ?? ""} className="rounded border border-line bg-surface px-1 py-0.5">
                  <option value="">all</option>
                  {[...new Set([...machines, ...(machine ? [machine] : [])])].map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <input type="date" name="since" defaultValue={filters.since} aria-label="Since" className="rounded border border-line bg-surface px-1 py-0.5" />
            <input type="date" name="until" defaultValue={filters.until} aria-label="Until" className="rounded border border-line bg-surface px-1 py-0.5" />
            {filters.project_key && <input type="hidden" name="project" value={filters.project_key} />}
            <button type="submit" className="rounded border border-line px-2 py-0.5 text-accent">
              Apply
            </button>
          </form>
        </div>
        {chart === null || rows === null ? (
          <p className="text-sm text-danger">The filters were not accepted: dates are YYYY-MM-DD and the time zone an IANA name.</p>
        ) : (
          <>
            {/* The pricing source is a long URL: it breaks anywhere rather than run off a phone's screen. */}
            <p className="text-xs text-muted [overflow-wrap:anywhere]">
              {filters.project_key ? `Project ${filters.project_key}. ` : ""}
              {machine ? `Machine ${machine}. ` : ""}Times in {chart.timezone}. Prices: {chart.pricing.source}, snapshot {chart.pricing.snapshot_date}
              {chart.pricing.override ? `, overridden by ${chart.pricing.override}` : ""}.
            </p>
            <UsageChart rows={chart.rows} byMachine={chartByMachine} />
            {/* The table keeps its columns and scrolls sideways in its own box on a narrow screen; the page does not. */}
            <div className="overflow-x-auto">
              <UsageTable rows={topRows(rows.rows)} totals={rows.totals} keyLabel={table === "period" ? period : table} />
            </div>
            {rows.rows.length > TABLE_MAX_ROWS && (
              <p className="text-xs text-muted" data-testid="usage-table-cut">
                The {formatCount(TABLE_MAX_ROWS)} {table === "period" ? `${period}s` : `${table}s`} with the most tokens of {formatCount(rows.rows.length)}; the totals count them all. Narrow with the dates, the source or a project.
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
