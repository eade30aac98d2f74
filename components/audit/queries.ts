import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";

import type { AuditPage, ReceiptInspection } from "@/lib/ledger/schema";

import { fetchJson, toSearchParams } from "@/components/query/fetch-json";

/** Calls per server page; the table fetches the next page near the end of what is loaded. */
export const AUDIT_PAGE_SIZE = 100;

/** The Audit page's filters. Empty string: no filter. */
export type AuditFilters = { door: string; tool_name: string; result: string; task_id: string };

/** What the Audit page's URL holds (issue 29): the filters, and whether the dashboard's own reads show. */
export type AuditView = AuditFilters & { show_ui_reads: boolean };

/** URL names of the Audit page's filters (`/audit?door=cli&tool=write_evidence&result=success&task=…&ui_reads=1`). */
const PARAM: Record<keyof AuditFilters, string> = { door: "door", tool_name: "tool", result: "result", task_id: "task" };

/** The Audit page's view from its search params; unknown or empty values mean no filter. */
export function parseAuditParams(search: Record<string, string | string[] | undefined> | URLSearchParams): AuditView {
  const get = (key: string) => {
    const v = search instanceof URLSearchParams ? search.get(key) : search[key];
    return typeof v === "string" ? v : "";
  };
  return { door: get(PARAM.door), tool_name: get(PARAM.tool_name), result: get(PARAM.result), task_id: get(PARAM.task_id), show_ui_reads: get("ui_reads") === "1" };
}

/** The Audit page's URL of a view (only set filters are written). */
export function auditViewHref(view: AuditView): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAM) as (keyof AuditFilters)[]) if (view[key]) params.set(PARAM[key], view[key]);
  if (view.show_ui_reads) params.set("ui_reads", "1");
  const q = params.toString();
  return `/audit${q ? `?${q}` : ""}`;
}

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
