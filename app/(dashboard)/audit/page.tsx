import type { Metadata } from "next";

import { AuditView } from "@/components/audit/audit-view";
import { listToolNamesQuery } from "@/server/queries/audit";

export const metadata: Metadata = { title: "Audit" };
export const dynamic = "force-dynamic";

type AuditPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: AuditPageProps) {
  const search = await searchParams;
  const task = typeof search.task === "string" ? search.task : "";
  return <AuditView tools={listToolNamesQuery()} initialTask={task} />;
}
