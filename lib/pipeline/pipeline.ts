/**
 * The one pipeline that keeps a workspace's derived data in step (issue 36): sync from the
 * sources → the catalog's rows → the full-text index → seed 003 risk → the warm-up of big
 * sessions. The CLI's `prepare`, the server's start and the source watcher all run it, so the
 * sequence is written once.
 */
import { RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { fullTextCoverage } from "@/lib/catalog/full-text-index";
import { type CatalogRefresh, refreshCatalog } from "@/lib/catalog/refresh";
import { requestRiskFill } from "@/lib/catalog/refresh-risk";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { warmSessionPages } from "@/lib/catalog/warm";
import type { CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { inBackground } from "@/lib/jsonl/workers";
import { getChangeFeed } from "@/lib/ledger/change-feed";
import { CATALOG_LABEL_PREFIX, INDEX_LABEL, type PipelineStage, stageOfLabel, StatusRecorder, WATCH_AFTER_MS } from "@/lib/pipeline/workspace-status";
import type { PlanProgress } from "@/lib/workspace/prepare-plan";
import { CountedUsages } from "@/lib/workspace/session-usage";
import { syncWorkspace, type SyncOptions, type SyncSummary } from "@/lib/workspace/sync";

/** How the stages after the rows run: awaited in the run (a one-shot CLI), in the background (a server), or not at all. */
export type StageMode = "await" | "background" | "skip";

export type PipelineOptions = {
  /** Sync from the recorded sources first (default true); false: the workspace is only catalogued (a day-window workspace). */
  sync?: boolean;
  /** The full-text index: a server fills it on a background worker; the CLI leaves it to the dashboard or a one-shot search (default "skip"). */
  fullText?: "background" | "skip";
  /** Seed 003 risk of every session whose stored risk is stale (default "skip"). */
  risk?: StageMode;
  /** The warm-up of sessions of at least `warmMinBytes` (default "await"). */
  warm?: StageMode;
  /** Transcripts at least this long (bytes) are warmed; default `RISK_WAIT_MAX_BYTES` (as the session list waits for smaller ones). */
  warmMinBytes?: number;
  /** Announce each change on the workspace's change feed, so open pages refetch (a server). */
  announce?: boolean;
  /** Run the sync itself as background work (its worker slots go to a page's passes first): a server. */
  syncInBackground?: boolean;
  /** Log each sync that changed something (a server's console; a CLI prints its own summary). */
  logSyncs?: boolean;
  /** Wait before a failed run is tried again, in ms (default 5,000); 0: never retried. */
  retryMs?: number;
  /**
   * Progress: `(done, total, label, bytes?)` of the sync (source files, `bytes` read), the rows
   * (label prefixed `catalog `) and the full-text fill (label `search index`, sessions indexed of
   * all, every {@link INDEX_POLL_MS} while it runs and once when the index is complete).
   */
  onProgress?: PlanProgress;
};

/** How often the full-text index's coverage is reported while a fill runs, in ms. */
export const INDEX_POLL_MS = 2_500;

/** What one run did: the sync's summary (null when the run did not sync) and the rows refresh (null when it was skipped). */
export type PipelineRun = { sync: SyncSummary | null; rows: CatalogRefresh | null };

/** One-off options of a run: what a CLI prepare or the server's first start passes to its sync. */
export type RunOptions = Pick<SyncOptions, "sources" | "force" | "exportRoots">;

/**
 * A workspace's pipeline in this process: one queue, one run at a time. {@link request} asks for
 * a run; requests during a run are coalesced into exactly one more, which sees every change made
 * before it started. A run syncs the workspace (prepare under the workspace lock), then brings
 * the catalog's rows in step, handing over the usage the sync counted (each transcript is read
 * once). The stages after the rows (full-text index, risk, warm-up) each run one at a time, in
 * the background for a server, so a new session's row never waits on them. A failed stage is
 * logged and retried after `retryMs`: nothing waits forever and nothing is left for the next event.
 */
export class WorkspacePipeline {
  private running: Promise<PipelineRun> | null = null;
  private next: { promise: Promise<PipelineRun>; options: RunOptions } | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Whether the rows were brought in step once: a later sync that changed nothing skips them. */
  private rowsInStep = false;
  private readonly followers = new Map<string, Follower>();
  /** Stages that failed, run again by the next run even when it finds nothing moved. */
  private readonly failed = new Map<string, { mode: StageMode; work: () => Promise<unknown> }>();
  private readonly options: Required<Omit<PipelineOptions, "onProgress">> & Pick<PipelineOptions, "onProgress">;
  /** The stages as `workspace_status` reports them (lib/pipeline/workspace-status). */
  private readonly status: StatusRecorder;

  constructor(private readonly ctx: CoreContext, options: PipelineOptions = {}) {
    this.status = new StatusRecorder(ctx.workspaceRoot, () => ctx.now().getTime());
    this.status.open();
    this.options = {
      sync: options.sync ?? true,
      fullText: options.fullText ?? "skip",
      risk: options.risk ?? "skip",
      warm: options.warm ?? "await",
      warmMinBytes: options.warmMinBytes ?? RISK_WAIT_MAX_BYTES,
      announce: options.announce ?? false,
      logSyncs: options.logSyncs ?? false,
      syncInBackground: options.syncInBackground ?? false,
      retryMs: options.retryMs ?? 5_000,
      onProgress: options.onProgress,
    };
  }

  /**
   * Asks for a run and resolves when a run that started after this call has finished its sync and
   * rows (and the stages the options await). `options` apply to that run (the first start's
   * sources, `--force`); requests coalesced into one run merge theirs, later ones winning.
   * @throws whatever the run's sync or rows refresh throws (the run is also retried after `retryMs` when the pipeline lives on).
   */
  request(options: RunOptions = {}): Promise<PipelineRun> {
    if (this.closed) return Promise.reject(new Error("the workspace pipeline is closed"));
    if (!this.running) return this.start(options);
    if (this.next) {
      this.next.options = { ...this.next.options, ...options };
      return this.next.promise;
    }
    const queued: { promise: Promise<PipelineRun>; options: RunOptions } = { promise: Promise.resolve({ sync: null, rows: null }), options };
    queued.promise = this.running.catch(() => undefined).then(() => {
      this.next = null;
      return this.start(queued.options);
    });
    this.next = queued;
    return queued.promise;
  }

  /** Resolves when every stage started so far (the background ones too) has ended; for tests and a CLI about to exit. */
  async settled(): Promise<void> {
    for (;;) {
      const pending: Promise<unknown>[] = [...this.followers.values()].map((f) => f.running);
      if (this.running) pending.push(this.running);
      if (this.next) pending.push(this.next.promise);
      if (pending.length === 0) return;
      await Promise.allSettled(pending);
    }
  }

  /** Stops retries and new runs; a run in progress finishes. */
  async close(): Promise<void> {
    if (this.closed) return this.settled();
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.settled();
    this.status.close();
  }

  private start(options: RunOptions): Promise<PipelineRun> {
    const run = this.run(options).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async run(options: RunOptions): Promise<PipelineRun> {
    const { ctx } = this;
    // The stage a failure is recorded against, as the log names it.
    let step = this.options.sync ? "sync" : "catalog refresh";
    try {
      const counted = new CountedUsages();
      let sync: SyncSummary | null = null;
      if (this.options.sync) {
        const work = () => syncWorkspace(ctx, { ...options, onProgress: this.report, counted });
        sync = await this.stage("syncing", () => (this.options.syncInBackground ? inBackground(work) : work()));
        this.status.succeeded(step);
        if (!sync.unchanged && this.options.logSyncs) ctx.log.info(`[casefile] synced ${sync.workspace}: ${sync.sessions} session(s), ${sync.files_read} source file(s) read, ${sync.files_written} file(s) written`);
      }
      if (sync?.unchanged && this.rowsInStep) {
        for (const [name, stage] of [...this.failed]) this.follow(name, stage.mode, stage.work);
        return { sync, rows: null };
      }
      step = "catalog refresh";
      let rows: CatalogRefresh;
      try {
        rows = await this.stage("cataloguing", () => refreshCatalog(ctx, { counted, onProgress: (done, total, label) => this.report(done, total, `${CATALOG_LABEL_PREFIX}${label}`) }));
        this.status.succeeded(step);
      } catch (error) {
        // The rows are out of step until a refresh succeeds: the next sync, even an unchanged one, refreshes.
        this.rowsInStep = false;
        throw error;
      }
      const first = !this.rowsInStep;
      this.rowsInStep = true;
      // Pages read while the refresh ran were answered from the catalog as it was: they refetch now.
      if (this.options.announce && (rows.sessions_updated > 0 || first)) getChangeFeed(ctx.workspaceRoot).announce();
      const moved = first || rows.sessions_updated > 0;
      if (this.options.fullText === "background") this.follow("full-text index", "background", () => this.fillFullText());
      if (moved) {
        this.follow("risk", this.options.risk, () => requestRiskFill(ctx));
        this.follow("warm-up of big sessions", this.options.warm, () => warmSessionPages(ctx, this.options.warmMinBytes));
      }
      await Promise.all([...this.followers.values()].filter((f) => f.mode === "await").map((f) => f.running));
      return { sync, rows };
    } catch (error) {
      this.status.failed(step, error);
      ctx.log.warn(`[casefile] ${this.options.sync ? "sync" : "catalog refresh"} failed: ${describe(error)}${this.options.retryMs > 0 && !this.closed ? `; retrying in ${Math.round(this.options.retryMs / 1000)} s` : ""}`);
      this.retryLater();
      throw error;
    }
  }

  /** Progress of every stage: recorded for `workspace_status`, then passed to the options' sink. */
  private readonly report: PlanProgress = (done, total, label, bytes) => {
    this.status.progress(stageOfLabel(label), done, total);
    this.options.onProgress?.(done, total, label, bytes);
  };

  /**
   * Runs one stage on the status record. A stage that runs long enough to be watched is announced
   * on the change feed (a server), so an open home page, which stops polling while all is ready,
   * fetches the status and shows its bar.
   */
  private async stage<T>(stage: PipelineStage, work: () => Promise<T>): Promise<T> {
    const run = this.status.begin(stage);
    // A little past the threshold: a timer may fire a millisecond before the clock says it is due.
    const timer = this.options.announce ? setTimeout(() => this.status.watchable(stage, run) && getChangeFeed(this.ctx.workspaceRoot).announce(), WATCH_AFTER_MS + 50) : null;
    timer?.unref();
    try {
      return await work();
    } finally {
      if (timer) clearTimeout(timer);
      this.status.end(stage, run);
    }
  }

  /**
   * Fills the full-text index on its background worker and tells the pages when lines were added.
   * Its coverage is reported every {@link INDEX_POLL_MS} while the fill runs (the fill counts
   * nothing itself: its worker commits as it goes), and once more when the index is complete.
   */
  private async fillFullText(): Promise<void> {
    const coverage = async () => {
      try {
        return await fullTextCoverage(this.ctx);
      } catch {
        // NOTE: a catalog the fill is setting aside cannot be counted this moment; the next poll or the fill's own error says more.
        return null;
      }
    };
    const poll = async () => {
      const now = await coverage();
      if (now && now.sessions_indexed < now.sessions_total) this.report(now.sessions_indexed, now.sessions_total, INDEX_LABEL);
    };
    const done = await this.stage("indexing", async () => {
      await poll();
      const timer = setInterval(() => void poll(), INDEX_POLL_MS);
      timer.unref();
      try {
        return await requestFullTextFill(this.ctx.workspaceRoot);
      } finally {
        clearInterval(timer);
      }
    });
    if (this.options.announce && done.lines_indexed > 0) getChangeFeed(this.ctx.workspaceRoot).announce();
    const after = await coverage();
    // Complete: the sink prints it when the fill was watched (a console's "search index complete").
    if (after && after.sessions_indexed === after.sessions_total) this.report(after.sessions_total, after.sessions_total, INDEX_LABEL);
  }

  /**
   * Runs a stage after the rows, one at a time per stage: asked for during its run, it runs
   * exactly once more. `await` stages are awaited by the run; a failure is logged and retried.
   */
  private follow(name: string, mode: StageMode, work: () => Promise<unknown>): void {
    if (mode === "skip") return;
    this.failed.delete(name);
    const current = this.followers.get(name);
    if (current) {
      current.again = true;
      return;
    }
    const follower: Follower = { mode, again: false, running: Promise.resolve() };
    follower.running = (async () => {
      do {
        follower.again = false;
        try {
          await (mode === "background" ? inBackground(work) : work());
          this.status.succeeded(name);
        } catch (error) {
          this.status.failed(name, error);
          this.ctx.log.warn(`[casefile] ${name} failed: ${describe(error)}`);
          this.failed.set(name, { mode, work });
          this.retryLater();
        }
      } while (follower.again && !this.closed);
    })().finally(() => this.followers.delete(name));
    this.followers.set(name, follower);
  }

  /** A failed run or stage is tried again after `retryMs`, as a whole run (an unchanged sync costs stats). */
  private retryLater(): void {
    if (this.closed || this.options.retryMs <= 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // After a failed rows refresh the next run refreshes even when the sync changed nothing.
      void this.request().catch(() => undefined);
    }, this.options.retryMs);
    this.retryTimer.unref();
  }
}

/** A stage after the rows: how it runs, whether it was asked for again during its run, and its run. */
type Follower = { mode: StageMode; again: boolean; running: Promise<void> };

const describe = (error: unknown): string => (isAppError(error) ? `${error.code}: ${error.message}` : String(error));
