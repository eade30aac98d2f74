import type { Metadata } from "next";

import { TABLE_ROWS } from "@/components/analysis/analysis-tables";
import { AnalysisView } from "@/components/analysis/analysis-view";
import { SessionOverviewBanner } from "@/components/forensics/overview-banner";
import { SessionFrame } from "@/components/sessions/session-frame";
import { getAnalysisSummaryQuery } from "@/server/queries/analysis";
import { getSessionOverviewQuery } from "@/server/queries/forensics";
import { getSessionDetailQuery } from "@/server/queries/workspace";

type AnalysisPageProps = { params: Promise<{ projectKey: string; sessionRef: string }>; searchParams: Promise<{ rows?: string }> };

export async function generateMetadata({ params }: AnalysisPageProps): Promise<Metadata> {
  const { sessionRef } = await params;
  return { title: `${sessionRef} · Analysis` };
}

export default async function SessionAnalysisPage({ params, searchParams }: AnalysisPageProps) {
  const { projectKey, sessionRef } = await params;
  const { rows } = await searchParams;
  const detail = await getSessionDetailQuery(projectKey, sessionRef);
  // Not awaited here: the frame and the chart (which fetches its own series) paint first, the facts and tables stream in.
  const summary = getAnalysisSummaryQuery(projectKey, sessionRef, rows === "all" ? null : TABLE_ROWS);
  const counts = getSessionOverviewQuery(projectKey, sessionRef).then(
    (o) => o.summary.counts,
    () => null,
  );
  return (
    <>
      <SessionFrame project={detail} sessionRef={sessionRef} active="analysis" overview={<SessionOverviewBanner load={() => getSessionOverviewQuery(projectKey, sessionRef)} />} />
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-4 sm:p-6">
        <AnalysisView projectKey={projectKey} sessionRef={sessionRef} summary={summary} counts={counts} showAllRows={rows === "all"} />
      </div>
    </>
  );
}
