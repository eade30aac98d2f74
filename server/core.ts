import "server-only";

import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext, stderrLogger, type CoreContext } from "@/lib/context";

let context: CoreContext | undefined;

/** The process-wide core context of the dashboard, built from `$CASEFILE_WORKSPACE`. */
export function getCoreContext(): CoreContext {
  context ??= createCoreContext(resolveWorkspaceDir(undefined), { log: stderrLogger });
  return context;
}
