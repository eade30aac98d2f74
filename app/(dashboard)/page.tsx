import { connection } from "next/server";

import { ProjectList } from "@/components/projects/project-list";
import { WorkspaceHeader } from "@/components/projects/workspace-header";
import { getWorkspaceOverviewQuery } from "@/server/queries/overview";
import { getWorkspaceInfoQuery } from "@/server/queries/workspace";

export default async function HomePage() {
  // The workspace is read per request, never at build time (nothing here reads params).
  await connection();
  const [info, overview] = await Promise.all([getWorkspaceInfoQuery(), getWorkspaceOverviewQuery()]);
  return (
    <div className="min-h-0 flex-1 overflow-auto">
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-6">
        <WorkspaceHeader info={info} />
        <ProjectList initial={overview} />
      </div>
    </div>
  );
}
