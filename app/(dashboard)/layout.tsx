import type { ReactNode } from "react";

import { AppFrame } from "@/components/navigation/app-frame";
import { isDemoWorkspaceQuery, signedInQuery } from "@/server/queries/workspace";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  return <AppFrame demo={await isDemoWorkspaceQuery()} signedIn={signedInQuery()}>{children}</AppFrame>;
}
