import type { Metadata } from "next";

import { CpSessionView } from "@/components/control-plane/cp-session-view";
import { EvidenceSessionView } from "@/components/evidence/evidence-session-view";
import { SessionViewer } from "@/components/viewer/session-viewer";
import { cpOverviewQuery, cpTimelineQuery, getControlPlaneProjectQuery } from "@/server/queries/control-plane";
import { getEvidenceCardQuery } from "@/server/queries/evidence";
import { getSessionDetailQuery } from "@/server/queries/workspace";

type ViewerPageProps = {
  params: Promise<{ projectKey: string; sessionRef: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

async function load({ params, searchParams }: ViewerPageProps) {
  const [{ projectKey, sessionRef }, search] = await Promise.all([params, searchParams]);
  const agent = typeof search.agent === "string" && search.agent ? search.agent : undefined;
  return getSessionDetailQuery(projectKey, sessionRef, agent);
}

export async function generateMetadata(props: ViewerPageProps): Promise<Metadata> {
  const { projectKey, sessionRef } = await props.params;
  if (await getControlPlaneProjectQuery(projectKey)) return { title: sessionRef };
  const detail = await load(props);
  return { title: `${detail.session_ref}${detail.agent_id ? ` · ${detail.agent_id}` : ""} · ${detail.project_label}` };
}

export default async function SessionViewerPage(props: ViewerPageProps) {
  const { projectKey, sessionRef } = await props.params;
  const controlPlane = await getControlPlaneProjectQuery(projectKey);
  if (controlPlane) {
    // A Control Plane session (issue 11): overview and merged Timeline instead of a transcript viewer.
    const search = await props.searchParams;
    const verbosity = search.verbosity === "full" ? "full" : "compact";
    const offset = Math.max(0, Number(search.offset) || 0);
    const [overview, timeline] = await Promise.all([cpOverviewQuery(projectKey, sessionRef), cpTimelineQuery(projectKey, sessionRef, offset, verbosity)]);
    return <CpSessionView project={controlPlane} overview={overview} timeline={timeline} verbosity={verbosity} />;
  }
  const detail = await load(props);
  // Keyed so that switching between the main transcript and a subagent starts a fresh viewer.
  const key = `${detail.session_ref}:${detail.agent_id ?? ""}`;
  // Evidence cites the main transcript's lines, so a subagent transcript shows none.
  if (detail.agent_id) return <SessionViewer key={key} detail={detail} />;
  const card = await getEvidenceCardQuery(detail.project_key, detail.session_ref);
  return <EvidenceSessionView key={key} detail={detail} initialCard={card} />;
}
