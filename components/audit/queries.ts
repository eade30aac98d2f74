import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";

import type { AuditPage, ReceiptInspection } from "@/lib/ledger/schema";

import { fetchJson, toSearchParams } from "@/components/query/fetch-json";

/** Calls per server page; the table fetches the next page near the end of what is loaded. */
export const AUDIT_PAGE_SIZE = 100;

/** The Audit page's filters (URL-free: kept in the page's state). Empty string: no filter. */
export type AuditFilters = { door: string; tool_name: string; result: string; task_id: string };

export const auditKeys = {
  all: ["audit"] as const,
  calls: (filters: AuditFilters) => [...auditKeys.all, "calls", filters] as const,
  call: (receiptId: string) => [...auditKeys.all, "call", receiptId] as const,
};

/** The recorded calls, newest first, page by page. */
export const auditCallsInfiniteQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.calls(filters),
    queryFn: ({ pageParam, signal }) =>
      fetchJson<AuditPage>(`/api/audit?${toSearchParams({ ...filters, offset: pageParam, max_entries: AUDIT_PAGE_SIZE })}`, { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next_offset ?? undefined,
    placeholderData: keepPreviousData,
  });

/** One call inspected: both entries, input and output from their blobs with the hash check. */
export const auditCallQuery = (receiptId: string) =>
  queryOptions({
    queryKey: auditKeys.call(receiptId),
    queryFn: ({ signal }) => fetchJson<{ status: "ok"; receipts: ReceiptInspection[] }>(`/api/audit/${encodeURIComponent(receiptId)}`, { signal }),
  });
