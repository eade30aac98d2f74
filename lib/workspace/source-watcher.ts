/** Source folders watched, and the workspace synced when they change. */
import { watchFile, unwatchFile } from "node:fs";

import { watch, type FSWatcher } from "chokidar";

import type { CoreContext } from "@/lib/context";
import { allRoots, readSources, sourcesFile } from "@/lib/workspace/sources";
import { inBackground } from "@/lib/jsonl/workers";
import { syncWorkspace, type SyncSummary } from "@/lib/workspace/sync";

/** Wait before retrying a failed sync, in ms. */
const RETRY_MS = 5_000;

export type SourceWatcherOptions<S = SyncSummary> = {
  /** Quiet time after the last file event before a sync starts, in ms (events of one write burst coalesce). */
  debounceMs?: number;
  /** How often `sources.json` is checked for edits (`casefile sources`), in ms. */
  sourcesPollMs?: number;
  /**
   * What a burst of changes runs: default an incremental {@link syncWorkspace} as background
   * work; the server passes its workspace pipeline's run (sync, then the catalog and the rest).
   */
  sync?: () => Promise<S>;
  /** Called after every sync that ran (tests and logs). */
  onSync?: (summary: S) => void;
  /** Watch these roots instead of the workspace's recorded sources (`casefile push --watch`: the machine's roots, `sync` its push). */
  roots?: readonly string[];
  /** Called when a sync fails; the watcher keeps running and retries on the next event. */
  onError?: (error: unknown) => void;
};

/**
 * Keeps a workspace in step with its recorded sources while a server runs (issue 12, item 1):
 * chokidar watches every source root, and each burst of added, grown, rewritten or removed
 * files triggers one incremental {@link syncWorkspace} (never two at once; events during a sync
 * queue exactly one more). The change feed then sees the index move and pushes it to open pages.
 * `sources.json` itself is watched with `fs.watchFile` (it may not exist yet when the server
 * boots), and the roots are re-read whenever it changes.
 */
export class SourceWatcher<S = SyncSummary> {
  private watcher: FSWatcher | null = null;
  private roots = "";
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private pending = false;
  private closed = false;
  private readonly debounceMs: number;
  private readonly sourcesPollMs: number;

  constructor(private readonly ctx: CoreContext, private readonly options: SourceWatcherOptions<S> = {}) {
    this.debounceMs = options.debounceMs ?? 150;
    this.sourcesPollMs = options.sourcesPollMs ?? 1000;
  }

  /** Syncs once, then watches the recorded roots and the sources file. Resolves when watching. */
  async start(): Promise<void> {
    if (!this.options.roots) watchFile(sourcesFile(this.ctx.workspaceRoot), { interval: this.sourcesPollMs, persistent: false }, () => void this.reconfigure());
    await this.reconfigure();
  }

  /** Stops watching; a sync in flight finishes. */
  async close(): Promise<void> {
    this.closed = true;
    unwatchFile(sourcesFile(this.ctx.workspaceRoot));
    if (this.timer) clearTimeout(this.timer);
    await this.watcher?.close();
    this.watcher = null;
    await this.running;
  }

  private async reconfigure(): Promise<void> {
    if (this.closed) return;
    let roots: readonly string[];
    try {
      const sources = this.options.roots ? null : await readSources(this.ctx.workspaceRoot);
      roots = this.options.roots ?? (sources ? allRoots(sources).map((r) => r.root) : []);
    } catch (error) {
      this.options.onError?.(error);
      return;
    }
    const key = JSON.stringify(roots);
    if (key === this.roots) return;
    this.roots = key;
    await this.watcher?.close();
    this.watcher = null;
    if (roots.length === 0) return;
    const watcher = watch([...roots], { ignoreInitial: true, persistent: false, ignorePermissionErrors: true });
    this.watcher = watcher;
    for (const event of ["add", "change", "unlink"] as const) watcher.on(event, () => this.schedule());
    watcher.on("error", (error) => this.options.onError?.(error));
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    this.schedule(0); // anything written before the watch was ready
  }

  private schedule(delay = this.debounceMs): void {
    if (this.closed) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.sync().finally(() => {
        this.running = null;
        if (this.pending) {
          this.pending = false;
          this.schedule();
        }
      });
    }, delay);
  }

  private async sync(): Promise<void> {
    try {
      // Background work: a page's passes take the worker slots first.
      // Awaited apart: `onSync?.(await …)` would skip the sync itself when there is no onSync.
      const summary = await (this.options.sync ? this.options.sync() : (inBackground(() => syncWorkspace(this.ctx)) as Promise<S>));
      this.options.onSync?.(summary);
    } catch (error) {
      this.options.onError?.(error);
      // A failed sync (the workspace locked by a long prepare, a file mid-write) is retried once
      // things settle, so changes that arrived meanwhile are not left waiting for the next event.
      this.pending = true;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
    }
  }
}
