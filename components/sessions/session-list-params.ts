import { isTranscriptSource, type TranscriptSource } from "@/lib/sources/common/schema";
import { isMachineName, SESSION_SORT_KEYS, type SessionSortKey } from "@/lib/workspace/schema";

import type { SortOrder } from "@/components/data-table/types";

/** The session list's URL state (`?sort&order&q&risk&source&machine`), so a filtered, sorted list is a shareable link. */
export type SessionListParams = { sort: SessionSortKey; order: SortOrder; q: string; risk: "" | "low" | "high"; source: "" | TranscriptSource; machine: string };

export const DEFAULT_SESSION_LIST_PARAMS: SessionListParams = { sort: "started_at", order: "desc", q: "", risk: "", source: "", machine: "" };

const isSortKey = (value: string | null): value is SessionSortKey =>
  SESSION_SORT_KEYS.includes(value as SessionSortKey);

/** Lenient parse: an unknown sort key or order in a hand-edited URL falls back to the default. */
export function parseSessionListParams(search: URLSearchParams): SessionListParams {
  const sort = search.get("sort");
  const order = search.get("order");
  return {
    sort: isSortKey(sort) ? sort : DEFAULT_SESSION_LIST_PARAMS.sort,
    order: order === "asc" || order === "desc" ? order : DEFAULT_SESSION_LIST_PARAMS.order,
    q: (search.get("q") ?? "").trim(),
    risk: search.get("risk") === "high" || search.get("risk") === "low" ? (search.get("risk") as "low" | "high") : "",
    source: isTranscriptSource(search.get("source")) ? (search.get("source") as TranscriptSource) : "",
    machine: isMachineName(search.get("machine")) ? search.get("machine")! : "",
  };
}

/** First click on a column: text ascending, numbers and times largest/newest first. */
export function defaultOrderFor(key: SessionSortKey): SortOrder {
  return key === "session_ref" ? "asc" : "desc";
}
