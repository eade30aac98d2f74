import type { Metadata } from "next";

import { ProjectSearch } from "@/components/forensics/search-results";
import { searchHitContextQuery, searchProjectQuery } from "@/server/queries/forensics";
import { sourceOfFile } from "@/components/forensics/finding-link";
import { getProjectQuery } from "@/server/queries/workspace";
import { queryInteger } from "@/lib/tools/query-input";

type SearchPageProps = {
  params: Promise<{ projectKey: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Search" };

export default async function ProjectSearchPage({ params, searchParams }: SearchPageProps) {
  const [{ projectKey }, search] = await Promise.all([params, searchParams]);
  const q = typeof search.q === "string" ? search.q : "";
  const offset = queryInteger(search.offset) ?? 0;
  const [project, result] = await Promise.all([getProjectQuery(projectKey), q.trim() ? searchProjectQuery(projectKey, q, offset) : null]);
  const hits = result?.status === "ok" ? result.entries.map((e) => ({ session_ref: e.session_ref, line_number: e.line_number, main: sourceOfFile(e.file) === "main" })) : [];
  const context = hits.length > 0 ? await searchHitContextQuery(projectKey, hits) : null;
  return <ProjectSearch project={project} q={q} offset={offset} result={result} context={context} />;
}
