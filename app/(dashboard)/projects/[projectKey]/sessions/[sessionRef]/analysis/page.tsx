import type { Metadata } from "next";

import { AnalysisView } from "@/components/analysis/analysis-view";
import { SessionViewsNav } from "@/components/analysis/session-views-nav";
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
    <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-6">
      <SessionViewsNav projectKey={projectKey} projectLabel={detail.project_label} sessionRef={sessionRef} current="analysis" />
      <AnalysisView analysis={analysis} lineCount={detail.line_count} showAllRows={rows === "all"} counts={overview.summary.counts} />
    </div>
  );
}
