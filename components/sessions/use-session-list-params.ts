import { useSearchParams } from "next/navigation";

import type { SessionSortKey } from "@/lib/workspace/schema";

import { defaultOrderFor, parseSessionListParams, type SessionListParams } from "./session-list-params";

function writeUrl(patch: Partial<SessionListParams>, mode: "push" | "replace") {
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(patch)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const query = params.toString();
  const url = `${window.location.pathname}${query ? `?${query}` : ""}`;
  // Native history calls are integrated with the App Router: useSearchParams updates without a server round trip.
  if (mode === "push") window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

/** Reads the list state from the URL; sorting pushes a history entry, filtering replaces it. */
export function useSessionListParams() {
  const params = parseSessionListParams(useSearchParams());

  const toggleSort = (key: SessionSortKey) => {
    const order = key === params.sort ? (params.order === "asc" ? "desc" : "asc") : defaultOrderFor(key);
    writeUrl({ sort: key, order }, "push");
  };
  const setQuery = (q: string) => writeUrl({ q }, "replace");
  const setRisk = (risk: SessionListParams["risk"]) => writeUrl({ risk }, "replace");

  return { params, toggleSort, setQuery, setRisk };
}
