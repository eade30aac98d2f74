import { queryOptions } from "@tanstack/react-query";

import type { EvidenceCardView } from "@/lib/evidence/schema";
import { getEvidenceCardAction } from "@/server/actions/evidence";

import { unwrap } from "./unwrap";

/** How often the panel re-reads the card, so chains an agent appends meanwhile show up. */
export const CARD_REFETCH_MS = 4_000;

export const evidenceKeys = {
  all: ["evidence"] as const,
  card: (projectKey: string, sessionRef: string) => [...evidenceKeys.all, "card", projectKey, sessionRef] as const,
};

// NOTE: there is no GET route for the card yet, so the query calls the read action. Next runs
// actions one at a time per client, so a poll can delay a save by one round trip, no more.
export const evidenceCardQuery = (projectKey: string, sessionRef: string) =>
  queryOptions({
    queryKey: evidenceKeys.card(projectKey, sessionRef),
    queryFn: async (): Promise<EvidenceCardView> => unwrap(await getEvidenceCardAction({ project_key: projectKey, session_ref: sessionRef })),
    staleTime: 2_000,
    refetchInterval: CARD_REFETCH_MS,
  });
