"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useMemo } from "react";

import { VirtualTable } from "@/components/data-table/virtual-table";
import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { SessionEvidenceCoverage } from "@/lib/evidence/schema";
import type { ListSessionsResult } from "@/lib/workspace/schema";

import { sessionColumns, type SessionRow } from "./columns";
import { MachineFilter } from "./machine-filter";
import { RISK_POLL_MS, sessionListInfiniteQuery } from "./queries";
import type { SessionListParams } from "./session-list-params";
import { RiskFilter } from "./risk-filter";
import { SourceFilter } from "./source-filter";
import { SessionFilter } from "./session-filter";
import { useSessionListParams } from "./use-session-list-params";

const getRowId = (row: SessionRow) => row.session_ref;

const NO_COVERAGE: readonly SessionEvidenceCoverage[] = [];

type SessionTableProps = {
  projectKey: string;
  /** Evidence coverage per session, read with the page (the list API does not carry it). */
  coverage?: readonly SessionEvidenceCoverage[];
  /** The first page, read with the page for the URL's sort and filter (`params`): rows render with the HTML. */
  firstPage?: { params: SessionListParams; page: ListSessionsResult };
};

/** The project's sessions: server-side sort, filter and pagination, rendered virtualized. */
export function SessionTable({ projectKey, coverage = NO_COVERAGE, firstPage }: SessionTableProps) {
  const router = useRouter();
  const { params, toggleSort, setQuery, setRisk, setSource, setMachine, clearFilters } = useSessionListParams();
  const filtered = Boolean(params.q || params.risk || params.source || params.machine);
  const first = firstPage && sameParams(firstPage.params, params) ? firstPage.page : undefined;
  const query = useInfiniteQuery({
    ...sessionListInfiniteQuery(projectKey, params),
    initialData: first ? { pages: [first], pageParams: [0] } : undefined,
    // A large session's risk is computed after the list answered: ask again until it is known.
    refetchInterval: (q) => ((q.state.data?.pages.at(-1)?.risk_pending.length ?? 0) > 0 ? RISK_POLL_MS : false),
  });
  const pendingRisk = query.data?.pages.at(-1)?.risk_pending;

  const coverageByRef = useMemo(() => new Map(coverage.map((c) => [c.session_ref, c])), [coverage]);
  const rows = useMemo(() => {
    // Pages are offset-based; if the list changed between two page loads a row can repeat.
    const seen = new Set<string>();
    const pending = new Set(pendingRisk ?? []);
    const out: SessionRow[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const session of page.sessions) {
        if (seen.has(session.session_ref)) continue;
        seen.add(session.session_ref);
        out.push({ ...session, href: routes.session(projectKey, session.session_ref), evidence: coverageByRef.get(session.session_ref), riskPending: pending.has(session.session_ref) });
      }
    }
    return out;
  }, [query.data, projectKey, coverageByRef, pendingRisk]);

  const total = query.data?.pages.at(-1)?.total ?? 0;
  // One machine's sessions need no Machine column or filter (issue 39: no clutter for a single machine).
  const machines = query.data?.pages.at(-1)?.machines ?? first?.machines ?? [];
  const columns = useMemo(() => sessionColumns(machines.length > 1), [machines.length]);
  const onRowClick = useCallback((row: SessionRow) => router.push(row.href), [router]);

  return (
    <section aria-label="Sessions" className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <SessionFilter value={params.q} onCommit={setQuery} />
          <RiskFilter value={params.risk} onChange={setRisk} />
          <SourceFilter value={params.source} onChange={setSource} />
          {(machines.length > 1 || params.machine) && <MachineFilter value={params.machine} machines={machines} onChange={setMachine} />}
        </div>
        <p aria-live="polite" className="text-xs text-muted">
          {query.isPending
            ? "Loading sessions…"
            : `${formatCount(total)} ${total === 1 ? "session" : "sessions"}${filtered ? " match" : ""}`}
          {query.isFetching && !query.isPending && !query.isFetchingNextPage ? " · updating…" : ""}
        </p>
      </div>

      {query.isError && rows.length === 0 ? (
        <div role="alert" className="rounded-md border border-danger/30 bg-danger-soft p-4 text-danger">
          <p className="font-medium">Could not load sessions.</p>
          <p className="mt-1 text-xs">{query.error.message}</p>
          <button type="button" onClick={() => void query.refetch()} className="mt-3 rounded border border-danger/40 px-2 py-1 text-xs hover:bg-surface">
            Retry
          </button>
        </div>
      ) : (
        <VirtualTable
          label="Sessions"
          columns={columns}
          rows={rows}
          totalRows={total}
          getRowId={getRowId}
          sort={{ key: params.sort, order: params.order }}
          onSortChange={toggleSort}
          onRowClick={onRowClick}
          hasNextPage={query.hasNextPage}
          isFetchingNextPage={query.isFetchingNextPage}
          fetchNextPage={query.fetchNextPage}
          busy={query.isPlaceholderData}
          empty={
            query.isPending ? (
              <p className="p-4 text-muted">Loading…</p>
            ) : (
              <div className="p-6 text-center text-muted">
                {filtered ? (
                  <>
                    {/* A filter that matches nothing is not an empty project (the risk or source filter too). */}
                    <p>{params.q ? `No sessions match “${params.q}”${params.risk || params.source || params.machine ? " with these filters" : ""}.` : "No sessions match these filters."}</p>
                    <button type="button" onClick={clearFilters} className="mt-2 text-accent hover:underline">
                      Clear the filters
                    </button>
                  </>
                ) : (
                  <p>This project has no sessions.</p>
                )}
              </div>
            )
          }
        />
      )}
    </section>
  );
}

function sameParams(a: SessionListParams, b: SessionListParams): boolean {
  return a.sort === b.sort && a.order === b.order && a.q === b.q && a.risk === b.risk && a.source === b.source && a.machine === b.machine;
}
