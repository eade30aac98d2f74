/**
 * What the workspace pipeline is doing, for the home page's progress bar and `workspace_status`
 * (issue 36 item 2: a first start you can watch). The pipeline records its stages per workspace
 * root, process-wide (lib/cache/process-wide: the server's instrumentation and its routes are
 * separate bundle copies of this module); the status is read from that record and the catalog.
 */
import { processWide } from "@/lib/cache/process-wide";
import { ensureProjects } from "@/lib/catalog/ensure";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { fullTextCoverage } from "@/lib/catalog/full-text-index";
import type { CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import type { PipelineError, WorkspacePhase, WorkspaceStatus } from "@/lib/pipeline/schema";

/** A stage of the pipeline the status reports, in the order a run goes through them. */
export type PipelineStage = Exclude<WorkspacePhase, "ready">;
const STAGES: readonly PipelineStage[] = ["syncing", "cataloguing", "indexing"];

/**
 * How long a stage runs before it is worth watching, in ms: the status reports it, the console
 * prints it. A live sync of one session (done in well under this) shows and prints nothing.
 */
export const WATCH_AFTER_MS = 2_000;

/** The pipeline's progress labels: the catalog's rows are prefixed `catalog ` (the project's label follows); the full-text fill's is {@link INDEX_LABEL}. */
export const CATALOG_LABEL_PREFIX = "catalog ";
export const INDEX_LABEL = "search index";

/** The stage a pipeline progress label belongs to (a source file's name: the sync). */
export function stageOfLabel(label: string): PipelineStage {
  if (label === INDEX_LABEL) return "indexing";
  return label.startsWith(CATALOG_LABEL_PREFIX) ? "cataloguing" : "syncing";
}

/** One stage in progress: since when (ms since the epoch), and how far (`done` of `total`). */
export type StageRun = { since: number; done: number; total: number };

/** What the process's pipelines recorded of one workspace: plain data, shared by every module copy. */
type Recorded = {
  /** Pipelines of the workspace alive in this process. */
  pipelines: number;
  stages: Partial<Record<PipelineStage, StageRun>>;
  /** When the stages now running began (the first of them), ms; null when none runs. */
  busySince: number | null;
  /** The last failure of each stage that has not run without one since. */
  errors: Record<string, PipelineError>;
};
const records = processWide("pipeline:workspace-status", () => new Map<string, Recorded>());

/**
 * A pipeline's pen on its workspace's record: opened when the pipeline is made, closed with it.
 * While one is open, `workspace_status` in this process reports the stages it records.
 */
export class StatusRecorder {
  constructor(
    private readonly workspaceRoot: string,
    private readonly now: () => number,
  ) {}

  private get record(): Recorded {
    let record = records.get(this.workspaceRoot);
    if (!record) records.set(this.workspaceRoot, (record = { pipelines: 0, stages: {}, busySince: null, errors: {} }));
    return record;
  }

  /** Announces a pipeline of the workspace in this process. */
  open(): void {
    this.record.pipelines += 1;
  }

  /** The pipeline is closed: when it was the last, the record goes (the status is read from the catalog again). */
  close(): void {
    const record = records.get(this.workspaceRoot);
    if (record && --record.pipelines <= 0) records.delete(this.workspaceRoot);
  }

  /** A stage starts; pass what this returns to {@link end}. */
  begin(stage: PipelineStage): StageRun {
    const record = this.record;
    const run: StageRun = { since: this.now(), done: 0, total: 0 };
    record.stages[stage] = run;
    record.busySince ??= run.since;
    return run;
  }

  /** How far the running `stage` is. */
  progress(stage: PipelineStage, done: number, total: number): void {
    const run = records.get(this.workspaceRoot)?.stages[stage];
    if (!run) return;
    run.done = done;
    run.total = total;
  }

  /** The stage `run` ended (a later run of the same stage is left alone). */
  end(stage: PipelineStage, run: StageRun): void {
    const record = records.get(this.workspaceRoot);
    if (!record || record.stages[stage] !== run) return;
    delete record.stages[stage];
    if (!STAGES.some((s) => record.stages[s])) record.busySince = null;
  }

  /** Whether `run` still runs and has run long enough to be watched ({@link WATCH_AFTER_MS}). */
  watchable(stage: PipelineStage, run: StageRun): boolean {
    return records.get(this.workspaceRoot)?.stages[stage] === run && this.now() - run.since >= WATCH_AFTER_MS;
  }

  /** `name` (a stage as the log names it) failed with `error`. */
  failed(name: string, error: unknown): void {
    const message = isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
    this.record.errors[name] = { stage: name, message, at: new Date(this.now()).toISOString() };
  }

  /** `name` ran without failing: its last failure is forgotten. */
  succeeded(name: string): void {
    const record = records.get(this.workspaceRoot);
    if (record) delete record.errors[name];
  }
}

/**
 * The workspace's status. In a process whose pipeline runs (the dashboard server), the first
 * stage that has run for {@link WATCH_AFTER_MS} (syncing, then cataloguing, then indexing),
 * else `ready`; `started_at` is when the running stages began; `last_error` the latest failure of
 * a stage that has not run without one since. In a process without one (the CLI, the MCP server)
 * the answer is the catalog's: its rows are brought in step with moved projects first (stats
 * only), then `indexing` while the full-text index covers fewer sessions than the catalog holds,
 * else `ready`. `done` of `total` counts the phase's work: source files analysed, sessions
 * catalogued, or sessions indexed (indexing and ready).
 * @throws AppError not_found | parse_error when the workspace cannot be loaded (without a running pipeline).
 */
export async function getWorkspaceStatus(ctx: CoreContext): Promise<WorkspaceStatus> {
  const record = records.get(ctx.workspaceRoot);
  // A running pipeline owns the rows: ensureProjects would queue behind its refresh (minutes on a first start).
  if (!record || record.pipelines <= 0) await ensureProjects(ctx);
  const coverage = await fullTextCoverage(ctx);
  const indexed = { done: coverage.sessions_indexed, total: coverage.sessions_total, ...coverage };
  // A long-running process whose index falls short with no stage at work (a workspace without
  // recorded sources has no watcher's run to fill it) has the rest indexed, as a search does.
  const working = record !== undefined && STAGES.some((s) => record.stages[s] !== undefined);
  if (!ctx.oneShot && !working && coverage.sessions_indexed < coverage.sessions_total) {
    void requestFullTextFill(ctx.workspaceRoot).catch((error: unknown) => ctx.log.warn(`[casefile] full-text fill failed: ${String(error)}`));
  }
  if (!record || record.pipelines <= 0) {
    return { phase: coverage.sessions_indexed < coverage.sessions_total ? "indexing" : "ready", ...indexed, started_at: null, last_error: null };
  }
  const now = ctx.now().getTime();
  const phase = STAGES.find((s) => {
    const run = record.stages[s];
    return run !== undefined && now - run.since >= WATCH_AFTER_MS;
  });
  const run = phase && phase !== "indexing" ? record.stages[phase] : undefined;
  const lastError = Object.values(record.errors).reduce<PipelineError | null>((latest, e) => (latest === null || e.at >= latest.at ? e : latest), null);
  // No stage at work (before the watcher's first run, or after a failed one) while the index falls
  // short: indexing, not ready. A stage younger than WATCH_AFTER_MS (a live sync) stays quiet.
  const busy = STAGES.some((s) => record.stages[s] !== undefined);
  const idle = !busy && coverage.sessions_indexed < coverage.sessions_total ? "indexing" : "ready";
  return {
    phase: phase ?? idle,
    ...indexed,
    ...(run ? { done: run.done, total: run.total } : {}),
    started_at: phase && record.busySince !== null ? new Date(record.busySince).toISOString() : null,
    last_error: lastError,
  };
}
