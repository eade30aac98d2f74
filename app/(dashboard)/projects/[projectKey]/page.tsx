import type { Metadata } from "next";

import { ProjectRiskSummary } from "@/components/analysis/project-risk-summary";
import { ProjectEvidenceSummary } from "@/components/evidence/project-evidence-summary";
import { ProjectHeader } from "@/components/projects/project-header";
import { SessionTable } from "@/components/sessions/session-table";
import { getProjectRiskQuery } from "@/server/queries/analysis";
import { getEvidenceCoverageQuery } from "@/server/queries/evidence";
import { getSynthesisStateQuery } from "@/server/queries/synthesis";
import { getProjectQuery } from "@/server/queries/workspace";

type ProjectPageProps = { params: Promise<{ projectKey: string }> };

export async function generateMetadata({ params }: ProjectPageProps): Promise<Metadata> {
  const { projectKey } = await params;
  const project = await getProjectQuery(projectKey);
  return { title: project.project_label };
}

export default async function ProjectPage({ params }: ProjectPageProps) {
  const { projectKey } = await params;
  const [project, coverage, synthesis, risk] = await Promise.all([getProjectQuery(projectKey), getEvidenceCoverageQuery(projectKey), getSynthesisStateQuery(projectKey), getProjectRiskQuery(projectKey)]);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 p-6">
      <div className="flex flex-col gap-2">
        <ProjectHeader project={project} synthesis={synthesis.counts} />
        <ProjectEvidenceSummary coverage={coverage} />
        <ProjectRiskSummary projectKey={project.project_key} risk={risk} />
      </div>
      <SessionTable projectKey={project.project_key} coverage={coverage.sessions} />
    </div>
  );
}
