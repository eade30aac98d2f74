import type { Metadata } from "next";

import { AuditView } from "@/components/audit/audit-view";
import { parseAuditParams } from "@/components/audit/queries";
import { listReadOnlyToolNamesQuery, listToolNamesQuery } from "@/server/queries/audit";

export const metadata: Metadata = { title: "Audit" };
export const dynamic = "force-dynamic";

type AuditPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AuditPage({ searchParams }: AuditPageProps) {
  const initial = parseAuditParams(await searchParams);
  return <AuditView tools={listToolNamesQuery()} readOnlyTools={listReadOnlyToolNamesQuery()} initial={initial} />;
}
