"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatCount } from "@/components/format/format";
import type { UsageRow } from "@/lib/usage/schema";

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#4d7c0f", "#be185d"];

/** One machine's period rows (`get_usage` by day, week or month with that machine's filter). */
export type MachineUsage = { machine: string; rows: readonly UsageRow[] };

/** A chart's bars: the periods in order, the stacked names, and each period's tokens per name. */
export type UsageSeries = { stackedBy: "model" | "machine"; names: string[]; data: ({ key: string } & Record<string, number | string>)[]; total: number };

/**
 * The bars of {@link UsageChart}: each period of `rows` stacked by model (its `by_model`), or,
 * given `byMachine`, by machine (each machine's tokens in that period). `total` is the sum of the bars.
 */
export function usageSeries(rows: readonly UsageRow[], byMachine?: readonly MachineUsage[]): UsageSeries {
  if (byMachine) {
    const tokens = new Map(byMachine.map((m) => [m.machine, new Map(m.rows.map((r) => [r.key, r.total_tokens]))]));
    const names = byMachine.map((m) => m.machine).sort();
    const data = rows.map((r) => ({ key: r.key, ...Object.fromEntries(names.flatMap((n) => (tokens.get(n)?.has(r.key) ? [[n, tokens.get(n)!.get(r.key)!]] : []))) }));
    const total = byMachine.reduce((n, m) => n + m.rows.reduce((k, r) => k + r.total_tokens, 0), 0);
    return { stackedBy: "machine", names, data, total };
  }
  const names = [...new Set(rows.flatMap((r) => (r.by_model ?? []).map((m) => m.model)))].sort();
  const data = rows.map((r) => ({ key: r.key, ...Object.fromEntries((r.by_model ?? []).map((m) => [m.model, m.total_tokens])) }));
  const total = rows.reduce((n, r) => n + (r.by_model ?? []).reduce((k, m) => k + m.total_tokens, 0), 0);
  return { stackedBy: "model", names, data, total };
}

/**
 * Tokens per period (day, week or month rows of `get_usage`) as bars stacked by model, or by
 * machine when `byMachine` is given (the page's table is by machine, issue 39); the caption says
 * which. The figure carries the total it draws (`data-total-tokens`), the sum of its bars, for the e2e check.
 */
export function UsageChart({ rows, byMachine }: { rows: readonly UsageRow[]; byMachine?: readonly MachineUsage[] }) {
  if (rows.length === 0) return <p className="rounded border border-line bg-surface p-6 text-center text-muted">No usage recorded in this period.</p>;
  const { stackedBy, names, data, total } = usageSeries(rows, byMachine);
  return (
    <figure aria-label={`Tokens over time by ${stackedBy}`} data-testid="usage-chart" data-stacked-by={stackedBy} data-total-tokens={total} data-bars={rows.length} className="flex h-72 w-full flex-col rounded border border-line bg-surface p-2">
      <figcaption className="px-1 text-xs text-muted">Tokens per period, stacked by {stackedBy}</figcaption>
      <div className="min-h-0 flex-1">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line, #e5e7eb)" />
            <XAxis dataKey="key" tick={{ fontSize: 11 }} />
            <YAxis tickFormatter={(v: number) => formatCompact(v)} tick={{ fontSize: 11 }} width={56} />
            <Tooltip formatter={(v) => formatCount(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            {names.map((m, i) => (
              <Bar key={m} dataKey={m} stackId="tokens" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function formatCompact(v: number): string {
  if (v >= 1e9) return `${(v / 1e9).toFixed(1)}B`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(0)}k`;
  return String(v);
}
