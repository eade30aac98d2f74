"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";

import { VirtualTable } from "@/components/data-table/virtual-table";
import { formatCount } from "@/components/format/format";

import { AuditFilterBar } from "./audit-filters";
import { CallDetail } from "./call-detail";
import { AUDIT_COLUMNS, type AuditRow } from "./columns";
import { type AuditFilters, type AuditView as AuditViewState, auditCallsInfiniteQuery, auditViewHref } from "./queries";
import { useAuditEvents } from "./use-audit-events";

const getRowId = (row: AuditRow) => row.receipt_id;
/** Shown rows below which more pages are fetched while the dashboard's reads are hidden. */
const MIN_SHOWN_ROWS = 60;

type AuditViewProps = {
  tools: readonly string[];
  /** Tools that never write: their calls through the dashboard (door `ui`) are its own reads. */
  readOnlyTools: readonly string[];
  /** The view the URL asked for. */
  initial: AuditViewState;
};

/**
 * The Audit page: every recorded tool call, newest first, live, filterable, with a detail panel.
 * The dashboard's own reads (read-only tools called through door `ui`) are hidden unless the
 * reader shows them; filters and that choice live in the URL (issue 29).
 */
export function AuditView({ tools, readOnlyTools, initial }: AuditViewProps) {
  const [view, setView] = useState<AuditViewState>(initial);
  const { show_ui_reads: showUiReads, ...filters } = view;
  const [selected, setSelected] = useState<string | null>(null);
  const query = useInfiniteQuery(auditCallsInfiniteQuery(filters));
  useAuditEvents();

  const change = (next: AuditViewState) => {
    setView(next);
    // The URL says what is shown, so a view can be shared or reloaded; no server round trip.
    window.history.replaceState(null, "", auditViewHref(next));
  };

  const readOnly = useMemo(() => new Set(readOnlyTools), [readOnlyTools]);
  const { rows, hidden } = useMemo(() => {
    const seen = new Set<string>();
    const out: AuditRow[] = [];
    let hiddenReads = 0;
    for (const page of query.data?.pages ?? []) {
      for (const entry of page.entries) {
        if (entry.kind !== "tool_call_started" || seen.has(entry.receipt_id)) continue;
        seen.add(entry.receipt_id);
        if (!showUiReads && entry.door === "ui" && readOnly.has(entry.tool_name)) {
          hiddenReads += 1;
          continue;
        }
        out.push(entry as AuditRow);
      }
    }
    return { rows: out, hidden: hiddenReads };
  }, [query.data, showUiReads, readOnly]);
  const total = query.data?.pages[0]?.total ?? 0;
  const loaded = rows.length + hidden;
  const onRowClick = useCallback((row: AuditRow) => setSelected(row.receipt_id), [setSelected]);

  // Hidden reads can leave a page with few rows: fetch on until the table has enough to scroll.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (!showUiReads && rows.length < MIN_SHOWN_ROWS && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [showUiReads, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-base font-semibold">Audit</h1>
        <AuditFilterBar value={filters} tools={tools} onChange={(next: AuditFilters) => change({ ...next, show_ui_reads: showUiReads })} />
        <label className="flex items-center gap-1.5 text-xs text-muted" title="Read-only tools the dashboard calls to draw its pages (door ui)">
          <input type="checkbox" checked={showUiReads} onChange={(e) => change({ ...view, show_ui_reads: e.target.checked })} className="accent-ink" />
          Show dashboard reads
        </label>
        <p aria-live="polite" data-testid="audit-count" className="text-xs text-muted">
          {query.isPending
            ? "Loading calls…"
            : showUiReads
              ? `${formatCount(total)} ${total === 1 ? "call" : "calls"}`
              : `${formatCount(rows.length)} ${rows.length === 1 ? "call" : "calls"} · ${formatCount(hidden)} dashboard ${hidden === 1 ? "read" : "reads"} hidden${loaded < total ? ` (of ${formatCount(loaded)} loaded)` : ""}`}
        </p>
      </div>
      <div className="flex min-h-0 flex-1 gap-3">
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <VirtualTable
            label="Tool calls"
            columns={AUDIT_COLUMNS}
            rows={rows}
            totalRows={showUiReads ? total : rows.length}
            getRowId={getRowId}
            onRowClick={onRowClick}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            fetchNextPage={query.fetchNextPage}
            busy={query.isPlaceholderData}
            empty={<p className="px-3 py-6 text-sm text-muted">{query.isPending ? "" : hidden > 0 ? "Only the dashboard's own reads so far." : "No tool calls recorded yet."}</p>}
          />
        </div>
        {selected && <CallDetail key={selected} receiptId={selected} onClose={() => setSelected(null)} />}
      </div>
    </div>
  );
}
