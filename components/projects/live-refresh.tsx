"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef } from "react";

import { fetchJson } from "@/components/query/fetch-json";
import { OVERVIEW_POLL_MS } from "@/components/projects/queries";
import type { WorkspaceOverview } from "@/lib/overview/schema";

/**
 * Keeps a server-rendered page live (issue 4, "Live"): polls the workspace overview's version
 * every second and re-renders the page's server components when it changes, so coverage an
 * agent writes in another process shows within 2 s without a reload. Renders nothing.
 */
export function LiveRefresh() {
  const router = useRouter();
  const seen = useRef<string | null>(null);
  useQuery({
    queryKey: ["live-refresh"],
    queryFn: async ({ signal }) => {
      const { version } = await fetchJson<WorkspaceOverview>("/api/overview", { signal });
      if (seen.current !== null && seen.current !== version) router.refresh();
      seen.current = version;
      return version;
    },
    refetchInterval: OVERVIEW_POLL_MS,
  });
  return null;
}
