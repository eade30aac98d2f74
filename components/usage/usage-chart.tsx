"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatCount } from "@/components/format/format";
import type { UsageRow } from "@/lib/usage/schema";

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2", "#4d7c0f", "#be185d"];

/**
 * Tokens per period (day, week or month rows of `get_usage`) as bars stacked by model. The figure
 * carries the total it draws (`data-total-tokens`), the sum of its bars, for the e2e check.
 */
export function UsageChart({ rows }: { rows: readonly UsageRow[] }) {
  const models = [...new Set(rows.flatMap((r) => (r.by_model ?? []).map((m) => m.model)))].sort();
  const data = rows.map((r) => ({ key: r.key, ...Object.fromEntries((r.by_model ?? []).map((m) => [m.model, m.total_tokens])) }));
  const total = rows.reduce((n, r) => n + (r.by_model ?? []).reduce((k, m) => k + m.total_tokens, 0), 0);
  if (rows.length === 0) return <p className="rounded border border-line bg-surface p-6 text-center text-muted">No usage recorded in this period.</p>;
  return (
    <figure aria-label="Tokens over time by model" data-testid="usage-chart" data-total-tokens={total} data-bars={rows.length} className="h-72 w-full rounded border border-line bg-surface p-2">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line, #e5e7eb)" />
          <XAxis dataKey="key" tick={{ fontSize: 11 }} />
          <YAxis tickFormatter={(v: number) => formatCompact(v)} tick={{ fontSize: 11 }} width={56} />
          <Tooltip formatter={(v) => formatCount(Number(v))} />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {models.map((m, i) => (
            <Bar key={m} dataKey={m} stackId="tokens" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

function formatCompact(v: number): string {
  if (v >= 1e9) return `${(v / 1e9).toFixed(1)}B`;
  if (v >= 1e6) return `${(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(0)}k`;
  return String(v);
}
