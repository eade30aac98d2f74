"use client";

import { formatCount } from "@/components/format/format";
import type { TokenChartLoad } from "@/lib/analysis/schema";

import { CHART_HEIGHT, TokenChart } from "./token-chart";

/**
 * The Analysis tab's token chart. Its compact series (`read_token_chart`, ~60 KB) is read by the
 * page on the server and streamed with it (issue 29: fetched after hydration, a cold server
 * first loaded a second route's modules for it, ~0.7 s of a 2–3 s first visit). It takes the
 * series resolved, not a promise: a promise read with `use()` suspended the boundary while it
 * hydrated, and React's throttled retry made the canvas ~0.3 s later.
 */
export function TokenChartPanel({ load, viewerHref }: { load: TokenChartLoad; viewerHref: string }) {
  if (!load.ok) {
    return (
      <p role="alert" className="rounded border border-line bg-surface p-6 text-center text-sm text-danger">
        The token chart could not be loaded: {load.message}
      </p>
    );
  }
  const data = load.chart;
  return (
    <>
      <TokenChart data={data} viewerHref={viewerHref} />
      {data.markers.length < data.reset_total && (
        <p data-testid="markers-thinned" className="text-xs text-muted">
          {formatCount(data.markers.length)} of {formatCount(data.reset_total)} resets are marked: the largest drop in each stretch of about {formatCount(Math.round(data.line_count / data.markers.length))} lines. The table below lists every one.
        </p>
      )}
      {data.points.line.length < data.point_total && (
        <p data-testid="points-thinned" className="text-xs text-muted">
          {formatCount(data.points.line.length)} of {formatCount(data.point_total)} points drawn: each stretch&apos;s lowest and highest cache read, and every marked reset.
        </p>
      )}
    </>
  );
}

/** The chart's place while its series stream in (a cold gigabyte session's analysis may take seconds). */
export function TokenChartPlaceholder() {
  return (
    <div data-testid="token-chart-loading" className="flex items-center justify-center rounded border border-line bg-surface text-sm text-muted" style={{ height: CHART_HEIGHT + 48 }}>
      Reading the token figures…
    </div>
  );
}
