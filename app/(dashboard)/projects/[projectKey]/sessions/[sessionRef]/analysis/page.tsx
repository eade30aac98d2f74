import type { Metadata } from "next";

import { AnalysisView } from "@/components/analysis/analysis-view";
import { SessionOverviewBanner } from "@/components/forensics/overview-banner";
import { SessionFrame } from "@/components/sessions/session-frame";
import { TABLE_ROWS } from "@/lib/analysis/analysis-view";
import { getAnalysisSummaryQuery, getTokenChartQuery } from "@/server/queries/analysis";
import { getSessionOverviewQuery } from "@/server/queries/forensics";
import { getSessionDetailQuery } from "@/server/queries/workspace";

type AnalysisPageProps = { params: Promise<{ projectKey: string; sessionRef: string }>; searchParams: Promise<{ rows?: string }> };

export async function generateMetadata({ params }: AnalysisPageProps): Promise<Metadata> {
  const { sessionRef } = await params;
  return { title: `${sessionRef} · Analysis` };
}

export default async function SessionAnalysisPage({ params, searchParams }: AnalysisPageProps) {
  const { projectKey, sessionRef } = await params;
  // Not awaited here: the frame paints first; the chart's series (started before anything else:
  // it is what a reader looks at; it never rejects), the facts and the tables stream in when ready.
  const chart = getTokenChartQuery(projectKey, sessionRef);
  const { rows } = await searchParams;
  const detail = await getSessionDetailQuery(projectKey, sessionRef);
  const summary = getAnalysisSummaryQuery(projectKey, sessionRef, rows === "all" ? null : TABLE_ROWS);
  // The overview (a gigabyte session's stored scan: ~0.2–0.5 s of this thread, cold) starts once the
  // chart's series are read, so its work does not hold back the chart's part of the stream.
  const counts = chart.then(() => getSessionOverviewQuery(projectKey, sessionRef)).then(
    (o) => o.summary.counts,
    () => null,
  );
  return (
    <>
      <SessionFrame project={detail} sessionRef={sessionRef} active="analysis" overview={<SessionOverviewBanner load={() => getSessionOverviewQuery(projectKey, sessionRef)} after={chart} />} />
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-4 sm:p-6">
        <AnalysisView projectKey={projectKey} sessionRef={sessionRef} summary={summary} chart={chart} counts={counts} showAllRows={rows === "all"} />
      </div>
    </>
  );
}
