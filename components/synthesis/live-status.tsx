"use client";

import { useQuery } from "@tanstack/react-query";

import { synthesisStateQuery } from "./queries";

/**
 * Whether the page is following the workspace. Its own subscription, so a refetch
 * re-renders this line only, not the view.
 */
export function LiveStatus({ projectKey }: { projectKey: string }) {
  const { isError, error, failureCount } = useQuery(synthesisStateQuery(projectKey));
  if (isError || failureCount > 0) {
    return (
      <span role="status" className="inline-flex items-center gap-1.5 text-2xs text-danger" title={error?.message}>
        <span aria-hidden className="size-2 rounded-full bg-danger" />
        Not updating — retrying
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 text-2xs text-muted" title="Changes are pushed from the workspace: agents' writes show up without a reload.">
      <span aria-hidden className="size-2 animate-pulse rounded-full bg-ok" />
      Live
    </span>
  );
}
