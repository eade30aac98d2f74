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
