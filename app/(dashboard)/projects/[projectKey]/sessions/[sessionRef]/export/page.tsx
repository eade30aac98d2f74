import type { Metadata } from "next";

import { ExportView } from "@/components/analysis/export-view";
import { SessionOverviewBanner } from "@/components/forensics/overview-banner";
import { SessionFrame } from "@/components/sessions/session-frame";
import { getChatExportQuery } from "@/server/queries/analysis";
import { getSessionOverviewQuery } from "@/server/queries/forensics";
import { getSessionDetailQuery } from "@/server/queries/workspace";

type ExportPageProps = { params: Promise<{ projectKey: string; sessionRef: string }> };

export async function generateMetadata({ params }: ExportPageProps): Promise<Metadata> {
  const { sessionRef } = await params;
  return { title: `${sessionRef} · Chat export` };
}

export default async function SessionExportPage({ params }: ExportPageProps) {
  const { projectKey, sessionRef } = await params;
  const [detail, chat] = await Promise.all([getSessionDetailQuery(projectKey, sessionRef), getChatExportQuery(projectKey, sessionRef)]);
  return (
    <>
    <SessionFrame project={detail} sessionRef={sessionRef} active="export" overview={<SessionOverviewBanner load={() => getSessionOverviewQuery(projectKey, sessionRef)} />} />
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-4">
      {chat ? (
        <ExportView detail={detail} chat={chat} />
      ) : (
        <p className="rounded border border-line bg-surface p-6 text-center text-muted">
          No chat export is paired with this session. Prepare pairs `/export` files by their Workscope ID: put them beside the transcripts or pass
          <code className="mx-1 font-mono">--exports DIR</code>.
        </p>
      )}
    </div>
    </>
  );
}
