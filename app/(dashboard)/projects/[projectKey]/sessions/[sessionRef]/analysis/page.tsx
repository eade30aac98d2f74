import type { Metadata } from "next";

import { AnalysisView } from "@/components/analysis/analysis-view";
import { SessionOverviewBanner } from "@/components/forensics/overview-banner";
import { SessionFrame } from "@/components/sessions/session-frame";
import { getSessionAnalysisQuery } from "@/server/queries/analysis";
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
  const [detail, analysis, overview] = await Promise.all([getSessionDetailQuery(projectKey, sessionRef), getSessionAnalysisQuery(projectKey, sessionRef), getSessionOverviewQuery(projectKey, sessionRef)]);
  return (
    <>
      <SessionFrame project={detail} sessionRef={sessionRef} active="analysis" overview={<SessionOverviewBanner load={() => getSessionOverviewQuery(projectKey, sessionRef)} />} />
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-4 sm:p-6">
        <AnalysisView analysis={analysis} lineCount={detail.line_count} showAllRows={rows === "all"} counts={overview.summary.counts} />
      </div>
    </>
  );
}
