/** Where the workspace is: flag, `$CASEFILE_WORKSPACE` or the default under the home folder. */
import os from "node:os";
import path from "node:path";

/**
 * Resolves the workspace directory: an explicit flag, else `$CASEFILE_WORKSPACE`,
 * else `~/.casefile/workspace` (issue 2, "Doors").
 */
export function resolveWorkspaceDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? (env.CASEFILE_WORKSPACE?.trim() ? env.CASEFILE_WORKSPACE : undefined);
  // NOTE: the workspace is runtime data, never part of the build output.
  return path.resolve(/*turbopackIgnore: true*/ chosen ?? path.join(os.homedir(), ".casefile", "workspace"));
}
