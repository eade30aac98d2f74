import type { ReactNode } from "react";

import { AppFrame } from "@/components/navigation/app-frame";
import { isDemoWorkspaceQuery } from "@/server/queries/workspace";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  return <AppFrame demo={await isDemoWorkspaceQuery()}>{children}</AppFrame>;
}
