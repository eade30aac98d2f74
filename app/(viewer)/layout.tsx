import type { ReactNode } from "react";

import { AppFrame } from "@/components/navigation/app-frame";
import { isDemoWorkspaceQuery, signedInQuery } from "@/server/queries/workspace";

/**
 * The layout of the pages whose first rows come with the HTML (the transcript page and the
 * project's session list): the dashboard's frame without `(dashboard)/loading.tsx` above it. A
 * route-level loading fallback makes a page a streamed Suspense boundary, and React (19.2+)
 * reveals such a boundary at least 300 ms after the previous reveal or first paint, so rows that
 * were already in the HTML showed ~0.3 s late (issue 13: first rows ≤ 1 s cold, the session list
 * ≤ 300 ms). Here the rows are part of the shell; the overview still streams in its own Suspense
 * boundary, and links to these pages show a pending hint while a slow render runs
 * (components/navigation/pending-hint).
 */
export default async function ViewerLayout({ children }: { children: ReactNode }) {
  return <AppFrame demo={await isDemoWorkspaceQuery()} signedIn={signedInQuery()}>{children}</AppFrame>;
}
