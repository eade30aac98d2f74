import { queryOptions } from "@tanstack/react-query";

import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import { EVIDENCE_TURNS_PAGE, type EvidenceCardView } from "@/lib/evidence/schema";

/** Fallback re-read of the card; an agent's append arrives first by push (WorkspaceEvents, /api/events). */
export const CARD_REFETCH_MS = 5_000;

/** Turns per page of the evidence panel (issue 13). */
export const TURNS_PAGE = EVIDENCE_TURNS_PAGE;

export const evidenceKeys = {
  all: ["evidence"] as const,
  card: (projectKey: string, sessionRef: string) => [...evidenceKeys.all, "card", projectKey, sessionRef] as const,
  page: (projectKey: string, sessionRef: string, turnsLimit: number) => [...evidenceKeys.card(projectKey, sessionRef), turnsLimit] as const,
};

// Reads go through a GET route, not an action: Next runs actions one at a time per client, so a
// polling action would queue in front of the reviewer's saves.
/** The card with its first `turnsLimit` turns (default {@link TURNS_PAGE}); `chains` and the counts always cover the whole card. */
export const evidenceCardQuery = (projectKey: string, sessionRef: string, turnsLimit: number = TURNS_PAGE) =>
  queryOptions({
    queryKey: evidenceKeys.page(projectKey, sessionRef, turnsLimit),
    queryFn: ({ signal }): Promise<EvidenceCardView> =>
      fetchJson<EvidenceCardView>(
        `/api/projects/${encodeURIComponent(projectKey)}/sessions/${encodeURIComponent(sessionRef)}/evidence?${toSearchParams({ turns_offset: 0, turns_limit: turnsLimit })}`,
        { signal },
      ),
    staleTime: 500,
    refetchInterval: CARD_REFETCH_MS,
  });
