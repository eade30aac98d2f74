"use client";

import { useRouter } from "next/navigation";
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

import { formatCount } from "@/components/format/format";
import type { ContextReset, TokenPoint } from "@/lib/analysis/schema";

type TokenChartProps = {
  points: readonly TokenPoint[];
  resets: readonly ContextReset[];
  lineCount: number;
  /** The viewer URL; a line is opened as `${viewerHref}#L<n>`. */
  viewerHref: string;
  /** True when the source records no cache creation (Codex): that series is left out, not drawn as 0. */
  noCacheCreation: boolean;
};

const SERIES = [
  { key: "cache_read", name: "Cache read", color: "#2f5bd3" },
  { key: "cache_creation", name: "Cache creation", color: "#21733b" },
  { key: "input", name: "Input (uncached)", color: "#93600a" },
] as const;

const tick = (v: number) => (v >= 1000 ? `${Math.round(v / 1000)}K` : String(v));

/**
 * Token counts over the session's lines (one point per assistant record or token_count event),
 * with every context reset marked. Hover shows the figures; clicking the chart or a reset
 * marker opens the viewer at that line.
 */
export function TokenChart({ points, resets, lineCount, viewerHref, noCacheCreation }: TokenChartProps) {
  const router = useRouter();
  const series = SERIES.filter((s) => !(noCacheCreation && s.key === "cache_creation"));
  const go = (line: unknown) => {
    if (typeof line === "number" && Number.isFinite(line)) router.push(`${viewerHref}#L${line}`);
  };
  if (points.length === 0) return <p className="rounded border border-line bg-surface p-6 text-center text-muted">No token figures recorded in this session.</p>;
  return (
    <figure aria-label="Token progression" data-testid="token-chart" className="h-80 w-full rounded border border-line bg-surface p-2">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points as TokenPoint[]} margin={{ top: 16, right: 16, bottom: 4, left: 8 }} onClick={(state) => go(state?.activeLabel !== undefined ? Number(state.activeLabel) : undefined)}>
          <CartesianGrid stroke="#e4e4e0" strokeDasharray="3 3" />
          <XAxis dataKey="line" type="number" domain={[1, Math.max(1, lineCount)]} tickFormatter={String} fontSize={11} label={{ value: "line", position: "insideBottomRight", offset: -2, fontSize: 11 }} />
          <YAxis tickFormatter={tick} fontSize={11} width={48} />
          <Tooltip
            formatter={(value, name) => [typeof value === "number" ? formatCount(value) : "—", name]}
            labelFormatter={(label) => `Line ${String(label)}${resets.some((r) => r.session_line === label) ? " · context reset" : ""}`}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.color} dot={false} strokeWidth={1.5} isAnimationActive={false} connectNulls={false} />
          ))}
          {resets.map((r) => (
            <ReferenceLine key={`l${r.session_line}`} x={r.session_line} stroke="#b42318" strokeDasharray="4 3" />
          ))}
          {resets.map((r) => (
            <ReferenceDot
              key={`d${r.session_line}`}
              x={r.session_line}
              y={r.to_tokens}
              r={7}
              shape={(props) => (
                <g
                  role="link"
                  tabIndex={0}
                  aria-label={`Context reset at line ${r.session_line}: ${formatCount(r.from_tokens)} → ${formatCount(r.to_tokens)} cached tokens`}
                  data-testid="reset-marker"
                  data-line={r.session_line}
                  className="cursor-pointer"
                  onClick={(event) => {
                    event.stopPropagation();
                    go(r.session_line);
                  }}
                  onKeyDown={(event) => {
                    if (event.key === "Enter") go(r.session_line);
                  }}
                >
                  <title>{`Reset at line ${r.session_line}: ${formatCount(r.from_tokens)} → ${formatCount(r.to_tokens)}`}</title>
                  <circle cx={props.cx} cy={props.cy} r={7} fill="#b42318" stroke="#fff" strokeWidth={2} />
                </g>
              )}
            />
          ))}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
