"use client";

import { useRouter } from "next/navigation";
import { CartesianGrid, ComposedChart, Legend, Line, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from "recharts";

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

/** A reset marker's datum: placed at (its line, the cached tokens after the reset). */
type Marker = { line: number; reset_to: number; reset: ContextReset };

/** Above this many resets the dashed line per reset is left out: the markers alone stay readable. */
const MAX_RESET_LINES = 200;

/**
 * Token counts over the session's lines (one point per assistant record or token_count event),
 * with every context reset marked. Hover shows the figures; clicking the chart or a reset
 * marker opens the viewer at that line. A long session's series comes thinned (the caller
 * passes `chartPoints`' shape-keeping subset).
 */
export function TokenChart({ points, resets, lineCount, viewerHref, noCacheCreation }: TokenChartProps) {
  const router = useRouter();
  const resetLines = new Set(resets.map((r) => r.session_line));
  const markers: Marker[] = resets.map((r) => ({ line: r.session_line, reset_to: r.to_tokens, reset: r }));
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
            labelFormatter={(label) => `Line ${String(label)}${resetLines.has(Number(label)) ? " · context reset" : ""}`}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) => (
            <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.color} dot={false} strokeWidth={1.5} isAnimationActive={false} connectNulls={false} />
          ))}
          {resets.length <= MAX_RESET_LINES && resets.map((r) => (
            <ReferenceLine key={`l${r.session_line}`} x={r.session_line} stroke="#b42318" strokeDasharray="4 3" />
          ))}
          {/* One series for every marker: a ReferenceDot each took ~40 s to mount for 3,887 resets. */}
          <Scatter
            name="Context reset"
            data={markers}
            dataKey="reset_to"
            fill="#b42318"
            isAnimationActive={false}
            shape={(props: unknown) => {
              const { cx, cy, payload } = props as { cx: number; cy: number; payload: Marker };
              const r = payload.reset;
              return (
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
                  <circle cx={cx} cy={cy} r={7} fill="#b42318" stroke="#fff" strokeWidth={2} />
                </g>
              );
            }}
          />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
