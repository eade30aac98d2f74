import type { Metadata } from "next";

import { GLOBAL_SEARCH_PAGE, GlobalSearch, type GlobalSearchParams } from "@/components/search/global-search";
import { queryInteger, queryNumber } from "@/lib/tools/query-input";
import { MACHINE_NAME } from "@/lib/workspace/schema";
import { searchSessionsQuery } from "@/server/queries/search";
import { getUsageQuery } from "@/server/queries/usage";

type SearchPageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata: Metadata = { title: "Search" };

export default async function GlobalSearchPage({ searchParams }: SearchPageProps) {
  const search = await searchParams;
  const text = (key: string) => {
    const v = search[key];
    return (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
  };
  const params: GlobalSearchParams = {
    q: text("q"),
    project_key: text("project_key"),
    source: text("source"),
    since: text("since"),
    until: text("until"),
    file: text("file"),
    tool: text("tool"),
    has_error: text("has_error"),
    machine: text("machine"),
    offset: queryInteger(search.offset) ?? 0,
  };
  // Unset filters are left out; the tool validates the rest (a short query, or an offset that is
  // not digits, comes back invalid and the page says so).
  const offset = typeof search.offset === "string" && search.offset !== "" ? queryNumber(search.offset) : 0;
  // The machine filter is the query language's machine:NAME (search_sessions has no machine input).
  const machine = params.machine ?? "";
  const query = machine === "" ? params.q : `${params.q} machine:${machine}`.trim();
  const input: Record<string, unknown> = { query, limit: GLOBAL_SEARCH_PAGE, offset };
  for (const key of ["project_key", "source", "since", "until", "file", "tool"] as const) if (params[key] !== "") input[key] = params[key];
  if (params.has_error !== "") input.has_error = params.has_error === "true";
  const badMachine = machine !== "" && !MACHINE_NAME.test(machine) ? { status: "invalid" as const, errors: [{ field: "machine", message: `"${machine.slice(0, 80)}" is not a machine name`, hint: "letters, digits, '.', '_' or '-', at most 64" }] } : null;
  // The workspace's machines (those with usage, as the Usage page's filter): the filter shows for two or more.
  const [result, byMachine] = await Promise.all([badMachine ?? (query === "" ? null : searchSessionsQuery(input)), getUsageQuery({ group_by: "machine" })]);
  return <GlobalSearch params={params} result={result} machines={(byMachine?.rows ?? []).map((r) => r.key)} />;
}
