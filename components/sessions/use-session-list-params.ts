import { useSearchParams } from "next/navigation";

import { writeSearchParams } from "@/components/data-table/url-state";
import type { SessionSortKey } from "@/lib/workspace/schema";

import { defaultOrderFor, parseSessionListParams, type SessionListParams } from "./session-list-params";

/** Reads the list state from the URL; sorting pushes a history entry, filtering replaces it. */
export function useSessionListParams() {
  const params = parseSessionListParams(useSearchParams());

  const toggleSort = (key: SessionSortKey) => {
    const order = key === params.sort ? (params.order === "asc" ? "desc" : "asc") : defaultOrderFor(key);
    writeSearchParams({ sort: key, order }, "push");
  };
  const setQuery = (q: string) => writeSearchParams({ q }, "replace");
  const setRisk = (risk: SessionListParams["risk"]) => writeSearchParams({ risk }, "replace");
  const setSource = (source: SessionListParams["source"]) => writeSearchParams({ source }, "replace");
  const setMachine = (machine: string) => writeSearchParams({ machine }, "replace");
  const clearFilters = () => writeSearchParams({ q: "", risk: "", source: "", machine: "" }, "replace");

  return { params, toggleSort, setQuery, setRisk, setSource, setMachine, clearFilters };
}
