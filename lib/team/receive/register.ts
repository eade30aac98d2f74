/** A pushed mirror recorded as a source of the team server's workspace, so its ordinary sync and watcher prepare it. */
import { existsSync } from "node:fs";

import { processWide } from "@/lib/cache/process-wide";
import type { PushRoot } from "@/lib/team/push/protocol";
import { allRoots, editSources, readSources } from "@/lib/workspace/sources";

/** Mirrors known to be recorded, by `<workspace>\0<mirror path>`; and the one registration queue of the process. */
const recorded = processWide("team:registered-mirrors", () => new Set<string>());
let queue: Promise<unknown> = Promise.resolve();

/**
 * Records `mirrorPath` (the mirror of `root`, pushed by `machine`) as a source of kind
 * `root.kind` of the workspace with its machine and its path on that machine (lib/workspace/sources
 * `machines`, `origins`: a project found inside it is named as on the machine), once: a mirror already recorded, or not there yet (a one-file
 * root before its file arrives), is left alone. Registrations are serialized in the process
 * (sources.json is read, edited and written atomically).
 */
export async function registerMirrorRoot(workspaceRoot: string, machine: string, root: PushRoot, mirrorPath: string): Promise<void> {
  const key = `${workspaceRoot}\0${mirrorPath}`;
  if (recorded.has(key) || !existsSync(mirrorPath)) return;
  const run = queue.then(async () => {
    if (recorded.has(key)) return;
    const sources = await readSources(workspaceRoot);
    const known = sources && allRoots(sources).some((r) => r.root === mirrorPath && r.kind === root.kind) && sources.machines?.[mirrorPath] === machine && sources.origins?.[mirrorPath] === root.path;
    if (!known) await editSources(workspaceRoot, { add: { kind: root.kind, path: mirrorPath, machine, origin: root.path } });
    recorded.add(key);
  });
  queue = run.catch(() => undefined);
  await run;
}
