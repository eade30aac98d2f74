"use client";

import "uplot/dist/uPlot.min.css";

import { useRouter } from "next/navigation";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import uPlot from "uplot";

import { formatCount } from "@/components/format/format";
import type { TokenChartData } from "@/lib/analysis/schema";

type TokenChartProps = {
  /** The series as columns and the reset markers (`read_token_chart`); `points.cache_creation` null (Codex): that series is left out, not drawn as 0. */
  data: TokenChartData;
  /** The viewer URL; a line is opened as `${viewerHref}#L<n>`. */
  viewerHref: string;
};

type Marker = TokenChartData["markers"][number];

const SERIES = [
  { key: "cache_read", name: "Cache read", color: "#2f5bd3" },
  { key: "cache_creation", name: "Cache creation", color: "#21733b" },
  { key: "input", name: "Input (uncached)", color: "#93600a" },
] as const;
const RESET_COLOR = "#b42318";
/** The plot's height in CSS pixels. */
export const CHART_HEIGHT = 300;
const HEIGHT = CHART_HEIGHT;

const tick = (v: number) => (v >= 1000 ? `${Math.round(v / 1000)}K` : String(v));

/** Above this many resets the dashed line per reset is left out: the markers alone stay readable. */
const MAX_RESET_LINES = 200;

type MarkerSpot = { reset: Marker; left: number; top: number };
type Hover = { left: number; line: number; values: { name: string; color: string; value: number | null }[] } | null;

/**
 * Token counts over the session's lines (one point per assistant record or token_count event),
 * drawn on a canvas with uPlot (issue 29: a gigabyte session's chart in well under a second,
 * where an SVG chart took seconds), every context reset marked by a focusable link over it.
 * Hover shows the figures; clicking the chart or a reset marker opens the viewer at that line.
 */
export function TokenChart({ data: chart, viewerHref }: TokenChartProps) {
  const { points, markers: resets, line_count: lineCount } = chart;
  const noCacheCreation = points.cache_creation === null;
  const router = useRouter();
  const boxRef = useRef<HTMLDivElement>(null);
  const [spots, setSpots] = useState<MarkerSpot[]>([]);
  const [hover, setHover] = useState<Hover>(null);
  const go = (line: number) => router.push(`${viewerHref}#L${line}`);
  const goRef = useRef(go);
  useEffect(() => {
    goRef.current = go;
  });

  // NOTE: an effect is right here: uPlot is an external (canvas) system the chart hands its data to.
  // A layout effect: the canvas is made and drawn in the commit that hydrates the chart, before the
  // browser's first paint of it, not a frame later (issue 29: the chart drawn ≤ 1 s).
  useLayoutEffect(() => {
    const box = boxRef.current;
    if (!box || points.line.length === 0) return;
    const series = SERIES.filter((s) => !(noCacheCreation && s.key === "cache_creation"));
    const data: uPlot.AlignedData = [points.line, ...series.map((s) => points[s.key] ?? [])];
    // Plot-area positions, shifted to the box the markers and the tooltip are placed in.
    const origin = (u: uPlot) => {
      const over = u.over.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return { x: over.left - b.left, y: over.top - b.top };
    };
    const place = (u: uPlot) => {
      const o = origin(u);
      setSpots(resets.map((reset) => ({ reset, left: o.x + u.valToPos(reset.session_line, "x"), top: o.y + u.valToPos(reset.to_tokens, "y") })));
    };
    const opts: uPlot.Options = {
      width: Math.max(200, box.clientWidth),
      height: HEIGHT,
      scales: { x: { time: false, range: [1, Math.max(2, lineCount)] } },
      axes: [
        { label: "line", size: 36, labelSize: 14, font: "11px sans-serif", labelFont: "11px sans-serif", grid: { stroke: "#e4e4e0" } },
        { size: 48, font: "11px sans-serif", values: (_u, splits) => splits.map(tick), grid: { stroke: "#e4e4e0" } },
      ],
      series: [{ label: "Line" }, ...series.map((s) => ({ label: s.name, stroke: s.color, width: 1.5, spanGaps: false, points: { show: false } }))],
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      hooks: {
        draw: [
          (u) => {
            if (resets.length <= MAX_RESET_LINES) {
              const { ctx } = u;
              ctx.save();
              ctx.strokeStyle = RESET_COLOR;
              ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
              ctx.lineWidth = devicePixelRatio;
              for (const r of resets) {
                const x = Math.round(u.valToPos(r.session_line, "x", true));
                ctx.beginPath();
                ctx.moveTo(x, u.bbox.top);
                ctx.lineTo(x, u.bbox.top + u.bbox.height);
                ctx.stroke();
              }
              ctx.restore();
            }
            place(u);
          },
        ],
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            if (idx === null || idx === undefined) return setHover(null);
            const line = u.data[0][idx]!;
            setHover({
              // Beside the cursor, kept inside the box.
              left: Math.max(0, Math.min(origin(u).x + u.valToPos(line, "x") + 24, box.clientWidth - 160)),
              line,
              values: series.map((s, i) => ({ name: s.name, color: s.color, value: (u.data[i + 1]![idx] as number | null | undefined) ?? null })),
            });
          },
        ],
      },
    };
    const chart = new uPlot(opts, data, box);
    const onClick = () => {
      const idx = chart.cursor.idx;
      if (idx !== null && idx !== undefined) goRef.current(chart.data[0][idx]!);
    };
    chart.over.addEventListener("click", onClick);
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, box.clientWidth), height: HEIGHT }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      chart.over.removeEventListener("click", onClick);
      chart.destroy();
    };
  }, [points, resets, lineCount, noCacheCreation]);

  if (points.line.length === 0) return <p className="rounded border border-line bg-surface p-6 text-center text-muted">No token figures recorded in this session.</p>;
  const resetAt = new Set(resets.map((r) => r.session_line));
  return (
    <figure aria-label="Token progression" data-testid="token-chart" className="relative w-full rounded border border-line bg-surface p-2">
      <div ref={boxRef} className="relative w-full" onMouseLeave={() => setHover(null)}>
        {/* Reset markers: links over the canvas, where uPlot placed each reset (line, cached tokens after it). */}
        {spots.map(({ reset: r, left, top }) => (
          <a
            key={r.session_line}
            href={`${viewerHref}#L${r.session_line}`}
            data-testid="reset-marker"
            data-line={r.session_line}
            aria-label={`Context reset at line ${r.session_line}: ${formatCount(r.from_tokens)} → ${formatCount(r.to_tokens)} cached tokens`}
            title={`Reset at line ${r.session_line}: ${formatCount(r.from_tokens)} → ${formatCount(r.to_tokens)}`}
            onClick={(event) => {
              event.preventDefault();
              go(r.session_line);
            }}
            className="absolute z-10 block size-3.5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-danger shadow"
            style={{ left, top }}
          />
        ))}
      </div>
      {hover && (
        <div data-testid="token-tooltip" className="pointer-events-none absolute top-2 z-20 rounded border border-line bg-surface/95 px-2 py-1 text-2xs shadow" style={{ left: hover.left }}>
          <p className="font-semibold">
            Line {hover.line}
            {resetAt.has(hover.line) ? " · context reset" : ""}
          </p>
          {hover.values.map((v) => (
            <p key={v.name} style={{ color: v.color }}>
              {v.name}: {v.value === null ? "—" : formatCount(v.value)}
            </p>
          ))}
        </div>
      )}
    </figure>
  );
}
