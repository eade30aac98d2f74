"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";

import { VirtualTable } from "@/components/data-table/virtual-table";
import { formatCount } from "@/components/format/format";

import { AuditFilterBar } from "./audit-filters";
import { CallDetail } from "./call-detail";
import { AUDIT_COLUMNS, type AuditRow } from "./columns";
import { type AuditFilters, auditCallsInfiniteQuery } from "./queries";
import { useAuditEvents } from "./use-audit-events";

const NO_FILTERS: AuditFilters = { door: "", tool_name: "", result: "", task_id: "" };
const getRowId = (row: AuditRow) => row.receipt_id;

/** The Audit page: every recorded tool call, newest first, live, filterable, with a detail panel. */
export function AuditView({ tools, initialTask = "" }: { tools: readonly string[]; initialTask?: string }) {
  const [filters, setFilters] = useState<AuditFilters>({ ...NO_FILTERS, task_id: initialTask });
  const [selected, setSelected] = useState<string | null>(null);
  const query = useInfiniteQuery(auditCallsInfiniteQuery(filters));
  useAuditEvents();

  const rows = useMemo(() => {
    const seen = new Set<string>();
    const out: AuditRow[] = [];
    for (const page of query.data?.pages ?? []) {
      for (const entry of page.entries) {
        if (entry.kind !== "tool_call_started" || seen.has(entry.receipt_id)) continue;
        seen.add(entry.receipt_id);
        out.push(entry as AuditRow);
      }
    }
    return out;
  }, [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  const onRowClick = useCallback((row: AuditRow) => setSelected(row.receipt_id), []);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-base font-semibold">Audit</h1>
        <AuditFilterBar value={filters} tools={tools} onChange={setFilters} />
        <p aria-live="polite" className="text-xs text-muted">
          {query.isPending ? "Loading calls…" : `${formatCount(total)} ${total === 1 ? "call" : "calls"}`}
        </p>
      </div>
      <div className="flex min-h-0 flex-1 gap-3">
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <VirtualTable
            label="Tool calls"
            columns={AUDIT_COLUMNS}
            rows={rows}
            totalRows={total}
            getRowId={getRowId}
            onRowClick={onRowClick}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            fetchNextPage={query.fetchNextPage}
            busy={query.isPlaceholderData}
            empty={<p className="px-3 py-6 text-sm text-muted">{query.isPending ? "" : "No tool calls recorded yet."}</p>}
          />
        </div>
        {selected && <CallDetail key={selected} receiptId={selected} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
