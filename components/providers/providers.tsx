"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";

import { getQueryClient } from "./get-query-client";
import { WorkspaceEvents } from "./workspace-events";

export function Providers({ children }: { children: ReactNode }) {
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <WorkspaceEvents />
      {children}
    </QueryClientProvider>
  );
}
