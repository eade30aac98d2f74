import type { Metadata } from "next";

import { OverviewCard } from "@/components/forensics/overview-card";
import { type TimelineFilters, TimelineView } from "@/components/forensics/timeline-view";
import { SessionTabs } from "@/components/sessions/session-tabs";
import { getSessionOverviewQuery } from "@/server/queries/forensics";

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
  const overview = await getSessionOverviewQuery(projectKey, sessionRef);
  const row = Number(one(search.row));
  const filters: TimelineFilters = {
    verbosity: one(search.verbosity) === "full" ? "full" : "compact",
    source: one(search.source),
    type: one(search.type),
    row: Number.isInteger(row) && row >= 0 ? row : null,
  };
  return (
    <>
      <SessionTabs projectKey={projectKey} sessionRef={sessionRef} active="timeline" />
      <OverviewCard overview={overview} />
      <TimelineView projectKey={projectKey} sessionRef={sessionRef} eventTypes={overview.diagnostics.event_types} filters={filters} />
    </>
  );
}
