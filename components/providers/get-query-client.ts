import { isServer, QueryClient } from "@tanstack/react-query";

import { isAppError } from "@/lib/errors";

/** Errors that a second attempt cannot fix: retrying them only delays the error state. */
const NO_RETRY_CODES = new Set(["invalid_input", "not_found"]);

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Transcripts change on disk only when re-prepared; each query sets its own staleTime.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => failureCount < 1 && !(isAppError(error) && NO_RETRY_CODES.has(error.code)),
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/**
 * A fresh client per server render (no data shared between requests), one singleton in the
 * browser so that a suspending render does not throw its cache away.
 */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}

/**
 * A query's `gcTime` for the browser; Infinity on the server. TanStack Query leaves a server
 * render's cache to be dropped with its request (its server default is Infinity: no timer), but
 * an explicit gcTime arms a timer per query, and that timer held the whole finished render (its
 * React request, query data and the virtualizer's per-line measurements of a 300,000-line
 * session) alive for that long (issue 13: server RSS).
 */
export function browserGcTime(ms: number): number {
  return isServer ? Infinity : ms;
}
