/**
 * What `npm start` (`casefile start`) does before the dashboard server runs, in a process of its
 * own that exits before the server starts (server/cli/start-prepare.ts, run by scripts/start.mjs):
 * decide the workspace's sources, build the app when it has no build, make the server's bundles.
 * The sync itself is the server's (issue 36 item 2): its pipeline runs one at start
 * (server/watch/source-watcher), so the first page is answered at once while it syncs, with its
 * progress on the console, and no second process holds the sync's memory beside the server.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { closeCatalog } from "@/lib/catalog/catalog";
import { createCoreContext, stderrLogger } from "@/lib/context";
import { generateDemoCodexSources, seedDemoWork } from "@/lib/demo/demo-extras";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { metadataPath } from "@/lib/fs/workspace-layout";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { callTool } from "@/lib/tools/registry";
import { readSources, writeSources, type WorkspaceSources } from "@/lib/workspace/sources";
import { defaultClaudeRoots, defaultCodexRoots, renderSummary } from "@/server/cli/prepare-command";
import { buildIfMissing, bundleWorkers, serverLaunch, stopBundler, type ServerLaunch } from "@/server/cli/serve-command";
import { consoleProgress } from "@/server/watch/console-progress";

/**
 * Everything before the server of `casefile start` on `workspace` and `port`: {@link startSources}
 * (its report on stderr), the build when there is none, the server's bundles (then esbuild's
 * service is stopped). Resolves with how to start the server, or with an exit code when the build failed.
 * @throws AppError whatever the demo's or a CASEFILE_WATCH=0 sync throws.
 */
export async function prepareStart(workspace: string, port: number): Promise<ServerLaunch | number> {
  process.stderr.write(await startSources(workspace));
  const built = await buildIfMissing();
  if (built !== 0) return built;
  const launch = await serverLaunch(workspace, port);
  await bundleWorkers();
  await stopBundler();
  return launch;
}

/**
 * The sources half of {@link prepareStart}: decides them (recorded, the user's defaults, or the
 * demo) and records them. An incremental sync is the server's: its first pipeline run syncs from
 * the recorded sources (new files indexed, grown files extended, unchanged files not read) while
 * it answers pages. A full sync runs here, in the start-up process, whose memory goes when it
 * exits: the workspace's first (no metadata.json yet: the first page would find no workspace at
 * all), a demo workspace replaced by real sources (rebuilt, not mixed: lib/workspace/sync), the
 * demo (generated, synced and seeded with a chain and a synthesis item; it is small), and every
 * sync when the server will not sync (`serverSyncs` false: CASEFILE_WATCH=0). A 20,000-session
 * first sync in the server kept ~60–100 MB of its memory for the server's life (bench/process-tree.bench.ts).
 * A day-window workspace without recorded sources (prompt-diary's) is served as it is.
 * Returns the report printed before serving.
 * @throws AppError whatever a sync here throws.
 */
export async function startSources(workspace: string, serverSyncs = process.env.CASEFILE_WATCH !== "0"): Promise<string> {
  const decision = await startDecision(workspace);
  if (decision.kind === "serve-only") return `${workspace} records no sources and has a date window: serving it as it is (casefile sources add … to sync it)\n`;
  const note = decision.note ? `${decision.note}\n` : "";
  const sourcesLine = `sources: casefile sources --workspace ${workspace}\n`;
  if (serverSyncs && !decision.full) {
    if (decision.record) await writeSources(workspace, decision.sources);
    const roots = [...decision.sources.claude, ...decision.sources.codex].join(", ");
    return `${note}the dashboard syncs ${workspace} from ${roots || "no source"} as it starts (progress below); ${sourcesLine}`;
  }
  if (decision.sources.demo) {
    await generateDemoSources(demoDir());
    await generateDemoCodexSources(demoCodexDir());
  }
  const ctx = createCoreContext(workspace, { log: stderrLogger });
  // The pipeline's sync and the catalog's rows, as `casefile prepare` writes them; the rest
  // (full-text index, risk, warm-up) is the server's, in the background.
  const pipeline = new WorkspacePipeline(ctx, { warm: "skip", retryMs: 0, onProgress: consoleProgress(process.stderr) });
  const summary = (await pipeline.request({ sources: decision.sources, force: decision.force === true })).sync!;
  closeCatalog(ctx);
  // The demo shows a chain and a synthesis item too (written once; later starts find them there).
  if (decision.sources.demo) await seedDemoWork(ctx, callTool);
  return `${note}${renderSummary(summary)}${summary.files_read} source file(s) read; ${sourcesLine}`;
}

/** Where `npm start` writes the demo transcripts when the machine has no real ones. */
const demoDir = () => path.join(os.homedir(), ".casefile", "demo-sources");
const demoCodexDir = () => path.join(os.homedir(), ".casefile", "demo-sources-codex");

/**
 * What a start syncs from. `record`: the sources differ from the recorded ones (or none are
 * recorded); `full`: the sync rebuilds or first builds the workspace, or is the demo's; `force`:
 * it rebuilds (a demo workspace replaced by real sources).
 */
type StartDecision = { kind: "serve-only" } | { kind: "sync"; sources: WorkspaceSources; record: boolean; full: boolean; force?: boolean; note?: string };

async function startDecision(workspace: string): Promise<StartDecision> {
  const real: WorkspaceSources = { claude: defaultClaudeRoots(), codex: defaultCodexRoots(), demo: false };
  const hasReal = real.claude.length + real.codex.length > 0;
  const demo: WorkspaceSources = { claude: [demoDir()], codex: [demoCodexDir()], demo: true };
  const recorded = await readSources(workspace);
  const prepared = existsSync(metadataPath(workspace));
  if (recorded?.demo) {
    return hasReal
      ? { kind: "sync", sources: real, record: true, full: true, force: true, note: "real sessions found: replacing the demo workspace with them" }
      : { kind: "sync", sources: demo, record: false, full: true, note: `no ~/.claude/projects or ~/.codex/sessions found: showing the demo transcripts in ${demoDir()}` };
  }
  if (recorded) return { kind: "sync", sources: recorded, record: false, full: !prepared };
  if (prepared && !(await isAllTime(workspace))) return { kind: "serve-only" };
  if (hasReal) return { kind: "sync", sources: real, record: true, full: !prepared };
  return { kind: "sync", sources: demo, record: true, full: true, note: `no ~/.claude/projects or ~/.codex/sessions found: preparing the demo transcripts in ${demoDir()}` };
}

async function isAllTime(workspace: string): Promise<boolean> {
  try {
    const meta = JSON.parse(await readFile(metadataPath(workspace), "utf8")) as { report_window_utc?: { start?: unknown } };
    return meta.report_window_utc?.start === null;
  } catch {
    return false;
  }
}
