/**
 * What `npm start` (`casefile start`) does before the dashboard server runs, in a process of its
 * own that exits before the server starts (server/cli/start-prepare.ts, run by scripts/start.mjs):
 * sync the workspace from its sources, build the app when it has no build, make the server's
 * bundles. The sync's memory goes with that process (issue 36 item 2: it stayed in the parent
 * for the server's whole life). The server then keeps the workspace synced while it runs.
 *
 * Why the start's sync is not the server's own first sync, which would answer the first page
 * before it: the server keeps much of a sync's memory for its life (bench/process-tree.bench.ts,
 * 20,000 sessions: after a first sync in the server it held 350 MB, 60–100 MB more than after
 * one here; after a restart catching up 1,000 new sessions, 341 MB against 274 MB: 395 MB in all
 * with npm, over the 350 MB bound), while a start that finds nothing changed answers its first
 * page in 2.1–2.3 s either way.
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
import { defaultAgentRoots } from "@/lib/sources/agents";
import { allRoots, readSources, type WorkspaceSources } from "@/lib/workspace/sources";
import { defaultClaudeRoots, defaultCodexRoots, renderSummary } from "@/server/cli/prepare-command";
import { buildIfMissing, bundleWorkers, serverLaunch, stopBundler, type ServerLaunch } from "@/server/cli/serve-command";
import { consoleProgress } from "@/server/watch/console-progress";

/**
 * Everything before the server of `casefile start` on `workspace` and `port`: {@link syncOnStart}
 * (its report on stderr), the build when there is none, the server's bundles (then esbuild's
 * service is stopped). Resolves with how to start the server, or with an exit code when the build failed.
 * @throws AppError whatever the sync throws.
 */
export async function prepareStart(workspace: string, port: number): Promise<ServerLaunch | number> {
  process.stderr.write(await syncOnStart(workspace));
  const built = await buildIfMissing();
  if (built !== 0) return built;
  const launch = await serverLaunch(workspace, port);
  await bundleWorkers();
  await stopBundler();
  return launch;
}

/**
 * The sync of {@link prepareStart}: decides the sources (recorded, the user's defaults, or the
 * demo) and syncs the workspace from them (issue 12, item 1: new files indexed, grown files
 * extended, unchanged files not read), with the catalog's rows, as `casefile prepare` writes
 * them. A workspace without recorded sources gets `~/.claude/projects` and `~/.codex/sessions` /
 * `~/.codex/archived_sessions` (`$CODEX_HOME`), those that exist, or, when none does, a generated
 * demo transcript set. A demo workspace is replaced (not mixed) as soon as real sources exist.
 * A day-window workspace without recorded sources (prompt-diary's) is served as it is.
 * Returns the report printed before serving.
 * @throws AppError whatever the sync throws.
 */
export async function syncOnStart(workspace: string): Promise<string> {
  const decision = await startDecision(workspace);
  if (decision.kind === "serve-only") return `${workspace} records no sources and has a date window: serving it as it is (casefile sources add … to sync it)\n`;
  if (decision.sources.demo) {
    await generateDemoSources(demoDir());
    await generateDemoCodexSources(demoCodexDir());
  }
  const ctx = createCoreContext(workspace, { log: stderrLogger });
  // The sync and the catalog's rows: the server's first pages read a catalog that knows every
  // session. The rest (full-text index, risk, warm-up) is the server's, in the background.
  const pipeline = new WorkspacePipeline(ctx, { warm: "skip", retryMs: 0, onProgress: consoleProgress(process.stderr) });
  const summary = (await pipeline.request({ sources: decision.sources, force: decision.force })).sync!;
  closeCatalog(ctx);
  // The demo shows a chain and a synthesis item too (written once; later starts find them there).
  if (decision.sources.demo) await seedDemoWork(ctx, callTool);
  return `${decision.note ? `${decision.note}\n` : ""}${renderSummary(summary)}${summary.files_read} source file(s) read; sources: casefile sources --workspace ${workspace}\n`;
}

/** Where `npm start` writes the demo transcripts when the machine has no real ones. */
const demoDir = () => path.join(os.homedir(), ".casefile", "demo-sources");
const demoCodexDir = () => path.join(os.homedir(), ".casefile", "demo-sources-codex");

type StartDecision = { kind: "serve-only" } | { kind: "sync"; sources: WorkspaceSources; force: boolean; note?: string };

async function startDecision(workspace: string): Promise<StartDecision> {
  const real: WorkspaceSources = { claude: defaultClaudeRoots(), codex: defaultCodexRoots(), agents: defaultAgentRoots(os.homedir(), process.env), demo: false };
  const hasReal = allRoots(real).length > 0;
  const demo: WorkspaceSources = { claude: [demoDir()], codex: [demoCodexDir()], demo: true };
  const recorded = await readSources(workspace);
  if (recorded?.demo) {
    return hasReal
      ? { kind: "sync", sources: real, force: true, note: "real sessions found: replacing the demo workspace with them" }
      : { kind: "sync", sources: demo, force: false, note: `no ~/.claude/projects or ~/.codex/sessions found: showing the demo transcripts in ${demoDir()}` };
  }
  if (recorded) return { kind: "sync", sources: recorded, force: false };
  if (existsSync(metadataPath(workspace)) && !(await isAllTime(workspace))) return { kind: "serve-only" };
  if (hasReal) return { kind: "sync", sources: real, force: false };
  return { kind: "sync", sources: demo, force: false, note: `no ~/.claude/projects or ~/.codex/sessions found: preparing the demo transcripts in ${demoDir()}` };
}

async function isAllTime(workspace: string): Promise<boolean> {
  try {
    const meta = JSON.parse(await readFile(metadataPath(workspace), "utf8")) as { report_window_utc?: { start?: unknown } };
    return meta.report_window_utc?.start === null;
  } catch {
    return false;
  }
}
