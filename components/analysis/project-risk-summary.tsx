"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import { RISK_POLL_MS } from "@/components/sessions/queries";
import type { ListSessionsResult } from "@/lib/workspace/schema";

/** A project's risk counts: sessions at high risk, all sessions, and sessions whose risk is still being computed. */
export type ProjectRisk = { high: number; total: number; pending: number };


/**
 * At-risk count of a project (seed 003: high risk = 2+ context resets), linking to the filtered
 * list. While a large session's analysis runs (list_sessions' `risk_pending`) it says how many
 * are being analysed and asks again until every risk is known.
 */
export function ProjectRiskSummary({ projectKey, risk: initial }: { projectKey: string; risk: ProjectRisk | null }) {
  const query = useQuery({
    queryKey: ["sessions", "risk-summary", projectKey],
    queryFn: async ({ signal }): Promise<ProjectRisk> => {
      const url = (risk?: string) => `/api/projects/${encodeURIComponent(projectKey)}/sessions?${toSearchParams({ limit: 1, risk })}`;
      const [high, all] = await Promise.all([fetchJson<ListSessionsResult>(url("high"), { signal }), fetchJson<ListSessionsResult>(url(), { signal })]);
      return { high: high.total, total: all.total, pending: all.risk_pending.length };
    },
    initialData: initial ?? undefined,
    enabled: initial !== null,
    staleTime: Infinity,
    refetchInterval: (q) => ((q.state.data?.pending ?? 0) > 0 ? RISK_POLL_MS : false),
  });
  const risk = query.data;
  if (!risk) return null;
  return (
    <p data-testid="project-risk" className="text-xs text-muted">
      Phantom-read risk:{" "}
      <Link href={`${routes.project(projectKey)}?risk=high`} className={risk.high > 0 ? "font-semibold text-danger hover:underline" : "hover:underline"}>
        {formatCount(risk.high)} of {formatCount(risk.total)} sessions at high risk
      </Link>{" "}
      (2+ context resets){risk.pending > 0 ? ` · ${formatCount(risk.pending)} large ${risk.pending === 1 ? "session" : "sessions"} still being analysed` : ""}
    </p>
  );
}
