import type { Metadata } from "next";

import { ProjectRiskSummary } from "@/components/analysis/project-risk-summary";
import { CpProjectView } from "@/components/control-plane/cp-project-view";
import { ProjectEvidenceSummary } from "@/components/evidence/project-evidence-summary";
import { routes } from "@/components/navigation/routes";
import { ProjectHeader } from "@/components/projects/project-header";
import { SESSION_PAGE_SIZE } from "@/components/sessions/queries";
import { parseSessionListParams } from "@/components/sessions/session-list-params";
import { SessionTable } from "@/components/sessions/session-table";
import { getProjectRiskQuery } from "@/server/queries/analysis";
import { cpSessionsQuery, getControlPlaneProjectQuery, verifyLedgersQuery } from "@/server/queries/control-plane";
import { getEvidenceCoverageQuery } from "@/server/queries/evidence";
import { firstSessionsPageQuery } from "@/server/queries/forensics";
import { getSynthesisStateQuery } from "@/server/queries/synthesis";
import { UsageSummary } from "@/components/usage/usage-table";
import { getUsageQuery } from "@/server/queries/usage";
import { getProjectQuery } from "@/server/queries/workspace";

type ProjectPageProps = { params: Promise<{ projectKey: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: ProjectPageProps): Promise<Metadata> {
  const { projectKey } = await params;
  // A Control Plane project's title through the registry, without counting its sessions (issue 11).
  const controlPlane = await getControlPlaneProjectQuery(projectKey);
  if (controlPlane) return { title: controlPlane.project_label };
  const project = await getProjectQuery(projectKey);
  return { title: project.project_label };
}

export default async function ProjectPage({ params, searchParams }: ProjectPageProps) {
  const { projectKey } = await params;
  const controlPlane = await getControlPlaneProjectQuery(projectKey);
  if (controlPlane) {
    const [sessions, integrity] = await Promise.all([cpSessionsQuery(projectKey), verifyLedgersQuery(projectKey)]);
    return <CpProjectView project={controlPlane} sessions={sessions.sessions} ledgers={integrity.status === "ok" ? integrity.ledgers : []} />;
  }
  // The table's first page, read with the page for the sort and filter in the URL: its rows come with the HTML.
  const listParams = parseSessionListParams(urlSearchParams((await searchParams) ?? {}));
  const [project, coverage, synthesis, risk, firstPage, usage] = await Promise.all([
    getProjectQuery(projectKey),
    getEvidenceCoverageQuery(projectKey),
    getSynthesisStateQuery(projectKey),
    getProjectRiskQuery(projectKey),
    firstSessionsPageQuery(projectKey, listParams.sort, listParams.order, listParams.q, listParams.risk, listParams.source, SESSION_PAGE_SIZE, listParams.machine),
    getUsageQuery({ group_by: "project", project_key: projectKey }),
  ]);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 p-6">
      <div className="flex flex-col gap-2">
        <ProjectHeader project={project} synthesis={synthesis.counts} />
        <ProjectEvidenceSummary coverage={coverage} />
        <ProjectRiskSummary projectKey={project.project_key} risk={risk} />
        {usage && <UsageSummary totals={usage.totals} label="Project usage" href={routes.usage(project.project_key)} />}
      </div>
      <SessionTable projectKey={project.project_key} coverage={coverage.sessions} firstPage={firstPage ? { params: listParams, page: firstPage } : undefined} />
    </div>
  );
}

/** Next's search params as URLSearchParams (a repeated key keeps its first value, as `URLSearchParams.get` reads it). */
function urlSearchParams(search: Record<string, string | string[] | undefined>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out.set(key, first);
  }
  return out;
}
