"use client";

import { useQuery } from "@tanstack/react-query";
import { preload } from "react-dom";

import { formatCount } from "@/components/format/format";
import { fetchJson } from "@/components/query/fetch-json";
import type { TokenChartData } from "@/lib/analysis/schema";

import { CHART_HEIGHT, TokenChart } from "./token-chart";

/**
 * The Analysis tab's token chart, fetched after first paint (issue 29): its compact series comes
 * from `read_token_chart` (`GET …/token-chart`), so the page carries none of it. While the series
 * loads (a cold gigabyte session's analysis takes seconds) a box of the chart's size holds its place.
 */
export function TokenChartPanel({ projectKey, sessionRef, viewerHref }: { projectKey: string; sessionRef: string; viewerHref: string }) {
  const url = tokenChartUrl(projectKey, sessionRef);
  // Asked for with the page's first bytes (a <link rel="preload"> in its head), not after hydration: the fetch below then finds it on its way.
  preload(url, { as: "fetch", crossOrigin: "anonymous" });
  const query = useQuery({
    queryKey: ["analysis", "token-chart", projectKey, sessionRef],
    queryFn: ({ signal }) => fetchJson<TokenChartData>(url, { signal }),
    staleTime: 30_000,
  });
  if (query.error) {
    return (
      <p role="alert" className="rounded border border-line bg-surface p-6 text-center text-sm text-danger">
        The token chart could not be loaded: {query.error.message}
      </p>
    );
  }
  const data = query.data;
  if (!data) {
    return (
      <div data-testid="token-chart-loading" className="flex items-center justify-center rounded border border-line bg-surface text-sm text-muted" style={{ height: CHART_HEIGHT + 48 }}>
        Reading the token figures…
      </div>
    );
  }
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

/** `GET /api/projects/<key>/sessions/<ref>/token-chart` (`read_token_chart`). */
function tokenChartUrl(projectKey: string, sessionRef: string): string {
  return `/api/projects/${encodeURIComponent(projectKey)}/sessions/${encodeURIComponent(sessionRef)}/token-chart`;
}
