import type { Metadata } from "next";

import { ProjectHeader } from "@/components/projects/project-header";
import { SynthesisView } from "@/components/synthesis/synthesis-view";
import { getSynthesisStateQuery } from "@/server/queries/synthesis";
import { getProjectQuery } from "@/server/queries/workspace";

type SynthesisPageProps = { params: Promise<{ projectKey: string }> };

export async function generateMetadata({ params }: SynthesisPageProps): Promise<Metadata> {
  const { projectKey } = await params;
  const project = await getProjectQuery(projectKey);
  return { title: `Synthesis · ${project.project_label}` };
}

export default async function SynthesisPage({ params }: SynthesisPageProps) {
  const { projectKey } = await params;
  const [project, state] = await Promise.all([getProjectQuery(projectKey), getSynthesisStateQuery(projectKey)]);
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <div className="flex flex-col gap-4 p-6">
        <ProjectHeader project={project} current="synthesis" />
        {/* Keyed by project: another project's page starts with its own selection and form. */}
        <SynthesisView key={project.project_key} initialState={state} />
      </div>
    </div>
  );
}
