import type { ReactNode } from "react";

import { AppFrame } from "@/components/navigation/app-frame";
import { isDemoWorkspaceQuery } from "@/server/queries/workspace";

/**
 * The transcript page's layout: the dashboard's frame without `(dashboard)/loading.tsx` above
 * it. A route-level loading fallback makes the page a streamed Suspense boundary, and React
 * (19.2+) reveals such a boundary at least 300 ms after the previous reveal or first paint, so
 * the first transcript rows, though in the HTML, showed ~0.3 s late (issue 13: first rows ≤ 1 s
 * cold). Here the page's rows are part of the shell; the overview still streams in its own
 * Suspense boundary.
 */
export default async function ViewerLayout({ children }: { children: ReactNode }) {
  return <AppFrame demo={await isDemoWorkspaceQuery()}>{children}</AppFrame>;
}
