import { queryOptions } from "@tanstack/react-query";

import { toAppError } from "@/components/query/fetch-json";
import { AppError } from "@/lib/errors";
import type { SynthesisState } from "@/lib/synthesis/schema";

/** Fallback re-read of the state; writes arrive first by push (WorkspaceEvents, /api/events). */
export const SYNTHESIS_POLL_MS = 5_000;

/** The state with the ETag it came with (null for the server-rendered first paint). */
export type SynthesisSnapshot = { etag: string | null; state: SynthesisState };

export const synthesisKeys = {
  all: ["synthesis"] as const,
  state: (projectKey: string) => [...synthesisKeys.all, "state", projectKey] as const,
};

const stateUrl = (projectKey: string) => `/api/projects/${encodeURIComponent(projectKey)}/synthesis`;

/**
 * The project's synthesis state, polled every second while the page is visible. Each poll
 * sends the ETag it holds; an unchanged state answers 304 and the query keeps its data object,
 * so nothing re-renders. A changed one is merged by structural sharing: turns and work items
 * that did not change keep their identity, and only their rows re-render.
 */
export const synthesisStateQuery = (projectKey: string) =>
  queryOptions({
    queryKey: synthesisKeys.state(projectKey),
    queryFn: async ({ signal, client }): Promise<SynthesisSnapshot> => {
      const held = client.getQueryData<SynthesisSnapshot>(synthesisKeys.state(projectKey));
      let response: Response;
      try {
        // no-store: the HTTP cache stays out of it, so the 304 reaches this code instead of being replayed.
        response = await fetch(stateUrl(projectKey), {
          signal,
          cache: "no-store",
          headers: { accept: "application/json", ...(held?.etag ? { "if-none-match": held.etag } : {}) },
        });
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") throw error;
        throw new AppError("io_error", "Could not reach the Casefile server.", {}, { cause: error });
      }
      if (response.status === 304 && held) return held;
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok || body === null) throw toAppError(response.status, body);
      return { etag: response.headers.get("etag"), state: body as SynthesisState };
    },
    staleTime: 0,
    refetchInterval: SYNTHESIS_POLL_MS,
  });
