import type { Metadata } from "next";

import { CpSessionView } from "@/components/control-plane/cp-session-view";
import { OverviewCard } from "@/components/forensics/overview-card";
import { type TimelineFilters, TimelineView } from "@/components/forensics/timeline-view";
import { SessionFrame } from "@/components/sessions/session-frame";
import { cpOverviewQuery, cpTimelineQuery, getControlPlaneProjectQuery } from "@/server/queries/control-plane";
import { getSessionOverviewQuery } from "@/server/queries/forensics";
import { getSessionDetailQuery } from "@/server/queries/workspace";
import { queryInteger } from "@/lib/tools/query-input";

type TimelinePageProps = {
  params: Promise<{ projectKey: string; sessionRef: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);

export async function generateMetadata({ params }: TimelinePageProps): Promise<Metadata> {
  const { sessionRef } = await params;
  return { title: `${sessionRef} · Timeline` };
}

export default async function SessionTimelinePage({ params, searchParams }: TimelinePageProps) {
  const [{ projectKey, sessionRef }, search] = await Promise.all([params, searchParams]);
  const controlPlane = await getControlPlaneProjectQuery(projectKey);
  if (controlPlane) {
    // A Control Plane session (issue 11): its overview and the ho2m/ho1m/governance Timeline.
    const verbosity = one(search.verbosity) === "full" ? "full" : "compact";
    const offset = queryInteger(one(search.offset)) ?? 0;
    const [cpOverview, timeline] = await Promise.all([cpOverviewQuery(projectKey, sessionRef), cpTimelineQuery(projectKey, sessionRef, offset, verbosity)]);
    return <CpSessionView project={controlPlane} overview={cpOverview} timeline={timeline} verbosity={verbosity} />;
  }
  const [overview, detail] = await Promise.all([getSessionOverviewQuery(projectKey, sessionRef), getSessionDetailQuery(projectKey, sessionRef)]);
  const filters: TimelineFilters = {
    verbosity: one(search.verbosity) === "full" ? "full" : "compact",
    source: one(search.source),
    type: one(search.type),
    row: queryInteger(one(search.row)) ?? null,
  };
  return (
    <>
      <SessionFrame project={detail} sessionRef={sessionRef} active="timeline" overview={<OverviewCard overview={overview} />} />
      <TimelineView
        projectKey={projectKey}
        sessionRef={sessionRef}
        eventTypes={overview.diagnostics.event_types}
        filters={filters}
        span={{ startedAt: overview.summary.started_at, endedAt: overview.summary.ended_at }}
      />
    </>
  );
}
