import type { Metadata } from "next";

import { ProjectSearch } from "@/components/forensics/search-results";
import { searchProjectQuery } from "@/server/queries/forensics";

type SearchPageProps = {
  params: Promise<{ projectKey: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Search" };

export default async function ProjectSearchPage({ params, searchParams }: SearchPageProps) {
  const [{ projectKey }, search] = await Promise.all([params, searchParams]);
  const q = typeof search.q === "string" ? search.q : "";
  const offset = Math.max(0, Number(search.offset) || 0);
  const result = q.trim() ? await searchProjectQuery(projectKey, q, offset) : null;
  return <ProjectSearch projectKey={projectKey} q={q} offset={offset} result={result} />;
}
