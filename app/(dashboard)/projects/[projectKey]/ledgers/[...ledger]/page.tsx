import type { Metadata } from "next";
import { notFound } from "next/navigation";

import { CpLedgerView } from "@/components/control-plane/cp-ledger-view";
import { getControlPlaneProjectQuery, ledgerLinesQuery, verifyLedgersQuery } from "@/server/queries/control-plane";
import { queryInteger } from "@/lib/tools/query-input";

type LedgerPageProps = {
  params: Promise<{ projectKey: string; ledger: string[] }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: LedgerPageProps): Promise<Metadata> {
  const { ledger } = await params;
  return { title: ledger.map(decodeURIComponent).join("/") };
}

export default async function LedgerPage({ params, searchParams }: LedgerPageProps) {
  const [{ projectKey, ledger: parts }, search] = await Promise.all([params, searchParams]);
  const project = await getControlPlaneProjectQuery(projectKey);
  if (!project) notFound();
  const ledger = parts.map(decodeURIComponent).join("/");
  const file = typeof search.file === "string" ? search.file : undefined;
  const line = queryInteger(search.line) || undefined;
  const offset = queryInteger(search.offset) ?? 0;
  // Only this ledger is verified (verify_ledgers {ledger}); read_ledger_lines 404s an unknown one first.
  const lines = await ledgerLinesQuery(projectKey, ledger, offset, file, line);
  const integrity = await verifyLedgersQuery(projectKey, ledger);
  const verdict = integrity.status === "ok" ? integrity.ledgers.find((l) => l.ledger === ledger) ?? null : null;
  return <CpLedgerView project={project} window={lines} verdict={verdict} target={line ? { file: file ?? null, line } : null} />;
}
