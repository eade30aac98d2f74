/** A workspace synced from its sources under the workspace lock. */
import { createHash } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import fs from "node:fs/promises";

import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { withFileLock } from "@/lib/fs/file-lock";
import { fileStampOf } from "@/lib/fs/file-stamp";
import { metadataPath, workspaceStamp } from "@/lib/fs/workspace-layout";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { prepareWorkspace, type PrepareSummary } from "@/lib/workspace/prepare";
import type { CountedUsages } from "@/lib/workspace/session-usage";
import type { PlanProgress } from "@/lib/workspace/prepare-plan";
import { allRoots, readSources, writeSources, type WorkspaceSources } from "@/lib/workspace/sources";
import { SyncMemo } from "@/lib/workspace/sync-memo";

/** A sync's outcome: prepare's summary plus the source files read (count and absolute paths) and how many remembered results were reused. */
export type SyncSummary = PrepareSummary & { files_read: number; read_paths: string[]; reused: number; sources: WorkspaceSources };

export type SyncOptions = {
  /** Record these sources first (replacing the recorded ones); default: sync from what is recorded. */
  sources?: WorkspaceSources;
  /** Rebuild from scratch (a demo workspace being replaced by real sources). */
  force?: boolean;
  /** Folders of chat exports to pair this time (`prepare --exports DIR`; seed 003 Question 2); exports beside the transcripts are always looked for. */
  exportRoots?: string[];
  onProgress?: PlanProgress;
  /** Filled with the usage this sync counted of the sessions it copied (prepare's `counted`). */
  counted?: CountedUsages;
};

/**
 * Brings the workspace up to date with its recorded sources, incrementally (issue 12, item 1):
 * new files are indexed, grown or rewritten files re-analysed, and unchanged files not read at
 * all ({@link SyncMemo}); prepare's rules for refs and duplicates hold because it is prepare
 * that runs, with the memo. The report window is the workspace's own (all time, or the day
 * recorded in metadata.json). Serialized with every other prepare or sync of the workspace,
 * across processes ({@link withWorkspaceLock}).
 * @throws AppError not_found when the workspace records no sources; whatever prepare throws.
 */
export async function syncWorkspace(ctx: CoreContext, options: SyncOptions = {}): Promise<SyncSummary> {
  const root = ctx.workspaceRoot;
  return withWorkspaceLock(root, async () => {
    if (options.sources) await writeSources(root, options.sources);
    const sources = await readSources(root);
    if (!sources) throw new AppError("not_found", "the workspace records no sources", { hint: "add one with casefile sources add --claude PATH (or --codex PATH)" });
    let day = options.force ? null : await recordedDay(root);
    let memo = await SyncMemo.load(root, day ? `${day.date} ${day.timezone}` : "all", ctx.log);
    // Real sources after a demo sync: rebuild, so demo projects are never mixed into a real workspace.
    const force = options.force === true || (memo.lastDemo && !sources.demo);
    if (force && !options.force) {
      day = null;
      memo = await SyncMemo.load(root, "all", ctx.log);
    }
    memo.demo = sources.demo;
    // Fast path: no source file and no workspace index moved since the last sync (stats only).
    // The sources are stamped before prepare reads them (a file growing meanwhile is seen next
    // time), the workspace after prepare wrote it.
    const sourceStamp = await sourcesStamp(sources);
    if (!force && memo.fingerprint === `${sourceStamp}/${workspaceDigest(root)}` && memo.summary) {
      return { ...(memo.summary as PrepareSummary), files_written: 0, unchanged: true, files_read: 0, read_paths: [], reused: 0, sources };
    }
    const summary = await prepareWorkspace(ctx, { claudeRoots: sources.claude, codexRoots: sources.codex, agentRoots: sources.agents, machines: sources.machines, origins: sources.origins, ...(day ?? {}), force, memo, exportRoots: options.exportRoots, onProgress: options.onProgress, counted: options.counted });
    memo.fingerprint = `${sourceStamp}/${workspaceDigest(root)}`;
    memo.summary = summary;
    await memo.save();
    return { ...summary, files_read: memo.read.size, read_paths: [...memo.read].sort(), reused: memo.reused, sources };
  });
}

/**
 * Runs `fn` holding the workspace's prepare lock (`metadata.json.lock`, beside metadata.json so
 * that `prepare --force`, which clears `.casefile/`, cannot delete it): one prepare or sync at a
 * time, whichever process runs it.
 * @throws AppError io_error when the lock cannot be taken within 30 s; whatever `fn` throws.
 */
export function withWorkspaceLock<T>(workspaceRoot: string, fn: () => Promise<T>): Promise<T> {
  return withFileLock(metadataPath(workspaceRoot), () => fn());
}

/** A hash of the workspace's one change stamp (metadata, projects, indexes). */
function workspaceDigest(root: string): string {
  return createHash("sha256").update(workspaceStamp(root)).digest("hex");
}

/**
 * A hash of the sources and the sizes, mtimes and inodes of every file under their roots: equal
 * on both sides (with {@link workspaceDigest}) means a sync would change nothing.
 */
async function sourcesStamp(sources: WorkspaceSources): Promise<string> {
  const parts: string[] = [JSON.stringify(sources)];
  // Synchronous stats: a thousand awaited stats are a thousand thread-pool round trips, which a
  // loaded machine stretches to hundreds of milliseconds; the stats themselves take a few.
  const stamp = (file: string) => {
    parts.push(`${file}:${fileStampOf(file, { inode: true }) ?? "-"}`);
  };
  for (const { root: rootPath } of allRoots(sources)) {
    const st = statSync(rootPath, { throwIfNoEntry: false });
    const files = st?.isDirectory() ? await listFilesRecursive(rootPath) : [rootPath];
    for (const file of files) stamp(file);
  }
  return createHash("sha256").update(parts.join("\n")).digest("hex");
}

/** The day window recorded in metadata.json, or null for an all-time (or missing) workspace. */
async function recordedDay(root: string): Promise<{ date: string; timezone: string } | null> {
  try {
    const meta = JSON.parse(await fs.readFile(metadataPath(root), "utf8")) as Record<string, unknown>;
    const win = meta.report_window_local as { start?: unknown } | undefined;
    if (win && typeof win.start === "string" && typeof meta.report_date === "string" && typeof meta.timezone === "string") return { date: meta.report_date, timezone: meta.timezone };
  } catch {
    /* no workspace yet: all time */
  }
  return null;
}

/**
 * Makes the workspace at `ctx.workspaceRoot` a prepared, empty one when it has no metadata.json
 * yet (a team server's workspace before any machine pushed, issue 39), under the workspace lock:
 * every page and tool then answers (no projects) instead of failing with "run casefile prepare
 * first", and the server's sync fills it as sources arrive. A workspace that has metadata.json
 * is left alone. Resolves true when it wrote one.
 * @throws whatever prepare throws (an unwritable folder: io_error).
 */
export async function ensurePreparedWorkspace(ctx: CoreContext): Promise<boolean> {
  const root = ctx.workspaceRoot;
  if (existsSync(metadataPath(root))) return false;
  await fs.mkdir(root, { recursive: true });
  return withWorkspaceLock(root, async () => {
    if (existsSync(metadataPath(root))) return false;
    // No sources yet is a state, not an error: the sync of a team server waiting for its first push has nothing to do.
    if (!(await readSources(root))) await writeSources(root, { claude: [], codex: [], demo: false });
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [] });
    return true;
  });
}
