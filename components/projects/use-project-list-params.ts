import { useSearchParams } from "next/navigation";

import { writeSearchParams } from "@/components/data-table/url-state";

import { defaultProjectOrder, parseProjectListParams, type ProjectSortKey } from "./project-list-params";

/** Reads the project list's state from the URL; sorting pushes a history entry, filtering replaces it. */
export function useProjectListParams() {
  const params = parseProjectListParams(useSearchParams());
  const toggleSort = (key: ProjectSortKey) => {
    const order = key === params.sort ? (params.order === "asc" ? "desc" : "asc") : defaultProjectOrder(key);
    writeSearchParams({ sort: key, order }, "push");
  };
  const setQuery = (q: string) => writeSearchParams({ q }, "replace");
  return { params, toggleSort, setQuery };
}
