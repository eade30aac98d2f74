import { connection } from "next/server";

import { routes } from "@/components/navigation/routes";
import { ProjectList } from "@/components/projects/project-list";
import { WorkspaceHeader } from "@/components/projects/workspace-header";
import { WorkspaceProgress } from "@/components/projects/workspace-progress";
import { getWorkspaceOverviewQuery } from "@/server/queries/overview";
import { getWorkspaceStatusQuery } from "@/server/queries/pipeline";
import { UsageSummary } from "@/components/usage/usage-table";
import { daysAgo, getUsageQuery } from "@/server/queries/usage";
import { getWorkspaceInfoQuery, signedInQuery } from "@/server/queries/workspace";

export default async function HomePage() {
  // The workspace is read per request, never at build time (nothing here reads params).
  await connection();
  const since = daysAgo(29);
  const [info, overview, usage, status] = await Promise.all([getWorkspaceInfoQuery(), getWorkspaceOverviewQuery(), getUsageQuery({ group_by: "day", since }), getWorkspaceStatusQuery()]);
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-6">
        <WorkspaceHeader info={info} />
        <WorkspaceProgress initial={status} />
        {usage && <UsageSummary totals={usage.totals} label={`Last 30 days (since ${since}, UTC)`} href={`${routes.usage()}?since=${since}`} />}
        <ProjectList initial={overview} teamServer={signedInQuery() !== null} />
      </div>
    </div>
  );
}
