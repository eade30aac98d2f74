import type { Metadata } from "next";
import Link from "next/link";

import { CpSessionView } from "@/components/control-plane/cp-session-view";
import { EvidenceSessionView } from "@/components/evidence/evidence-session-view";
import { SessionOverviewBanner, SubagentOverviewBanner } from "@/components/forensics/overview-banner";
import { ViewerSearch } from "@/components/forensics/viewer-search";
import { routes } from "@/components/navigation/routes";
import { ToolErrorPanel } from "@/components/navigation/tool-error";
import { SessionFrame } from "@/components/sessions/session-frame";
import { windowBounds } from "@/components/viewer/queries";
import { SessionViewer } from "@/components/viewer/session-viewer";
import { cpOverviewQuery, cpTimelineQuery, getControlPlaneProjectQuery } from "@/server/queries/control-plane";
import { getEvidenceCardQuery } from "@/server/queries/evidence";
import { isToolPageError, orToolError } from "@/server/queries/tool-error";
import { getViewerWindowQuery } from "@/server/queries/viewer";
import { getSessionOverviewQuery } from "@/server/queries/forensics";
import { getSessionDetailQuery } from "@/server/queries/workspace";
import { queryInteger } from "@/lib/tools/query-input";

type ViewerPageProps = {
  params: Promise<{ projectKey: string; sessionRef: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Lines the session page reads with its HTML: a 900 px screen of the smallest rows plus overscan. */
const FIRST_SCREEN_LINES = 50;

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
    const offset = queryInteger(search.offset) ?? 0;
    const [overview, timeline] = await Promise.all([cpOverviewQuery(projectKey, sessionRef), cpTimelineQuery(projectKey, sessionRef, offset, verbosity)]);
    return <CpSessionView project={controlPlane} overview={overview} timeline={timeline} verbosity={verbosity} />;
  }
  const detail = await load(props);
  // The viewer's first rows come with the page (its HTML shows them before any script runs): the
  // lines of a first screen, not the whole first window (the viewer fetches the rest on mount).
  const mode = (await props.searchParams).mode === "full" ? "full" : "compact"; // as parseViewerParams reads `?mode=`
  const first = windowBounds(mode, 0, detail.line_count);
  const initialWindow = getViewerWindowQuery(detail.project_key, detail.session_ref, detail.agent_id, mode, first.start, Math.min(first.end, FIRST_SCREEN_LINES));
  // Keyed so that switching between the main transcript and a subagent starts a fresh viewer.
  const key = `${detail.session_ref}:${detail.agent_id ?? ""}`;
  const top = (
    <SessionFrame
      project={detail}
      sessionRef={detail.session_ref}
      agentId={detail.agent_id}
      active="transcript"
      tools={
        <>
          <ViewerSearch key={key} projectKey={detail.project_key} sessionRef={detail.session_ref} agentId={detail.agent_id} />
          <Link href={routes.search(detail.project_key)} className="hidden text-2xs text-accent hover:underline sm:inline">
            Search project
          </Link>
        </>
      }
      overview={
        // A subagent has its own overview; the session's streams in (a cold scan of a huge session must not hold the viewer back).
        detail.agent_id ? <SubagentOverviewBanner detail={detail} /> : <SessionOverviewBanner load={() => getSessionOverviewQuery(detail.project_key, detail.session_ref)} after={initialWindow} />
      }
    />
  );
  // Evidence cites the main transcript's lines, so a subagent transcript shows none.
  if (detail.agent_id) {
    return (
      <>
        {top}
        <SessionViewer key={key} detail={detail} initialWindow={await initialWindow} />
      </>
    );
  }
  const [card, window] = await Promise.all([orToolError(() => getEvidenceCardQuery(detail.project_key, detail.session_ref)), initialWindow]);
  // A card the tool refuses to read (e.g. symlinked out of the workspace) is a clear error, not a 500.
  if (isToolPageError(card)) {
    return (
      <>
        {top}
        <ToolErrorPanel title="This session's evidence file cannot be read" error={card} />
      </>
    );
  }
  return (
    <>
      {top}
      <EvidenceSessionView key={key} detail={detail} initialCard={card} initialWindow={window} />
    </>
  );
}
