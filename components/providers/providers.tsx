"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { getQueryClient } from "./get-query-client";
import { WorkspaceEvents } from "./workspace-events";

/** The dashboard's client providers: the query client and the workspace change stream (not on `loginPath`, a team server's sign-in page). */
export function Providers({ loginPath, children }: { loginPath: string; children: ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <WorkspaceEvents quietOn={loginPath} />
      {children}
    </QueryClientProvider>
  );
}
