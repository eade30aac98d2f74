import { queryOptions } from "@tanstack/react-query";

import { fetchJson } from "@/components/query/fetch-json";
import type { EvidenceCardView } from "@/lib/evidence/schema";

/** Fallback re-read of the card; an agent's append arrives first by push (WorkspaceEvents, /api/events). */
export const CARD_REFETCH_MS = 5_000;

export const evidenceKeys = {
  all: ["evidence"] as const,
  card: (projectKey: string, sessionRef: string) => [...evidenceKeys.all, "card", projectKey, sessionRef] as const,
};

// Reads go through a GET route, not an action: Next runs actions one at a time per client, so a
// polling action would queue in front of the reviewer's saves.
export const evidenceCardQuery = (projectKey: string, sessionRef: string) =>
  queryOptions({
    queryKey: evidenceKeys.card(projectKey, sessionRef),
    queryFn: ({ signal }): Promise<EvidenceCardView> =>
      fetchJson<EvidenceCardView>(`/api/projects/${encodeURIComponent(projectKey)}/sessions/${encodeURIComponent(sessionRef)}/evidence`, { signal }),
    staleTime: 500,
    refetchInterval: CARD_REFETCH_MS,
  });
