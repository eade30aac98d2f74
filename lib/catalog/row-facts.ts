/** A session's catalog row facts (list summary, usage), read on this thread or ahead on a worker while the refresh writes rows. */
import { statSync } from "node:fs";

import type { CoreContext } from "@/lib/context";
import { createCoreContext } from "@/lib/context";
import { scanSession } from "@/lib/forensics/scan";
import { getSessionSummary } from "@/lib/forensics/session-summary";
import { fileStamp } from "@/lib/fs/file-stamp";
import { resolveInside } from "@/lib/fs/paths";
import { RangePool } from "@/lib/jsonl/range-pool";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";
import { LINE_FACTS_MIN_BYTES, storeAgentLineFacts } from "@/lib/sources/agent-transcripts";
import { agentSource } from "@/lib/sources/agents";
import { BUCKET_MS, type UsageTally } from "@/lib/usage/session-usage";
import { pricingStamp, readSessionUsage, subagentsSignature, type CountedUsage } from "@/lib/workspace/session-usage";
import type { LoadedProject } from "@/lib/workspace/load";
import type { IndexRow } from "@/lib/workspace/schema";
import { listSubagents, workspaceLineFacts, type ResolvedSession } from "@/lib/workspace/sessions";

/** A session's usage as the catalog keeps it: totals for the list, buckets (JSON) for get_usage, the prices' stamp. */
export type SessionUsageFacts = {
  output_tokens: number | null;
  total_tokens: number | null;
  cost_usd: number | null;
  /** The session's usage buckets (lib/usage), JSON; a bucket without a time has `startMs: null`. */
  usage_buckets: string;
  /** End of the session's last timed bucket (epoch ms), null when none is timed. */
  usage_last_ms: number | null;
  /** The price override file's stamp the costs were computed with (lib/workspace/session-usage `pricingStamp`). */
  usage_stamp: string;
};

/**
 * The one function the catalog reads a session's usage through (issue 28 owns the accounting,
 * lib/usage): output and total tokens and cost (null when no request is counted), and the usage
 * buckets get_usage groups (issue 25: the home page's usage summary reads them from the catalog).
 * `usage`: the session's usage when the caller has it, counted under the present price override file.
 */
export async function sessionTokenTotals(ctx: CoreContext, session: ResolvedSession, usage?: UsageTally): Promise<SessionUsageFacts> {
  const stamp = pricingStamp(ctx.workspaceRoot);
  const { totals, buckets } = usage ?? (await readSessionUsage(ctx, session));
  const timed = buckets.filter((b) => !Number.isNaN(b.startMs));
  const facts = { usage_buckets: JSON.stringify(buckets), usage_last_ms: timed.length === 0 ? null : Math.max(...timed.map((b) => b.startMs)) + BUCKET_MS, usage_stamp: stamp };
  if (totals.requests === 0) return { output_tokens: null, total_tokens: null, cost_usd: null, ...facts };
  return { output_tokens: totals.output_tokens, total_tokens: totals.total_tokens, cost_usd: totals.cost_usd, ...facts };
}

/**
 * What a session's catalog row is made of, with the index row path and the resolved file it was
 * read from, and the file's version (`size:mtimeMs`, stat'ed first).
 */
export type RowFacts = { sessionPath: string; filePath: string; fileStamp: string; summary: Awaited<ReturnType<typeof getSessionSummary>>; tokens: SessionUsageFacts };

/**
 * Reads a session's row facts: its list summary (lib/forensics/session-summary) and usage facts
 * ({@link sessionTokenTotals}), the usage counted once for both, stamped with the file's size and
 * mtime as they were before the read. `counted`: the usage prepare counted from the copy's bytes
 * (issue 25), taken instead of reading the transcripts when it is still true of them (same
 * stamp, same subagent transcripts and sizes, same prices). An agent session of 4 MiB or more has
 * its forensics scan stored too (lib/forensics/scan, from the transcript its usage was read from).
 * @throws the fs error when the session file cannot be read.
 */
export async function readRowFacts(ctx: CoreContext, session: ResolvedSession, counted?: CountedUsage): Promise<RowFacts> {
  const st = statSync(session.filePath);
  const version = fileStamp(st);
  const facts = (summary: RowFacts["summary"], usage: UsageTally) => sessionTokenTotals(ctx, session, usage).then((tokens) => ({ sessionPath: session.row.session_path, filePath: session.filePath, fileStamp: version, summary, tokens }));
  if (counted && counted.fileStamp === version && counted.pricingStamp === pricingStamp(ctx.workspaceRoot)) {
    const summary = await getSessionSummary(ctx, session, counted.usage);
    const subagents = summary.subagent_count === 0 ? "" : subagentsSignature((await listSubagents(session)).map((s) => ({ name: s.file_name, size: s.size_bytes })));
    if (subagents === counted.subagents) return facts(summary, counted.usage);
  }
  const usage = await readSessionUsage(ctx, session);
  const summary = await getSessionSummary(ctx, session, usage);
  // An agent session's usage was just counted from its whole transcript, still in memory: a big
  // one's forensics scan is stored now for little more, so its first overview reads it, and its
  // line facts, so its first window reads only its own lines (issue 38).
  if (agentSource(session.row.source) !== null) {
    if (st.size >= SCAN_AHEAD_MIN_BYTES) await scanSession(ctx, session).catch(() => undefined);
    if (st.size >= LINE_FACTS_MIN_BYTES) await storeAgentLineFacts(session.row.source, session.filePath, workspaceLineFacts(ctx));
  }
  return facts(summary, usage);
}

/** Agent sessions at least this long have their forensics scan stored by {@link readRowFacts} (as big as their usage is stored from). */
const SCAN_AHEAD_MIN_BYTES = 4 << 20;

/**
 * The sessions of one pass, as the refresh loaded them: `range.firstLine` of each job indexes
 * `sessions`, each naming a project of `projects` and a row of its `rows` (the worker resolves no
 * workspace: loading it stats every project's index, 400 stats a session for 200 projects).
 */
export type RowFactsArg = { workspaceRoot: string; projects: LoadedProject[]; sessions: { project: number; row: number; counted?: CountedUsage }[] };

/** The worker's own contexts, one per workspace (their caches live and die with the worker). */
const contexts = new Map<string, CoreContext>();

/**
 * The range-pool task (lib/jsonl/range-pool) of {@link RowFactsAhead}: the row facts of session
 * `arg.sessions[range.firstLine]`, or null when it cannot be resolved or read (the refresh then
 * reads it itself and meets the error there). `filePath` is unused.
 */
export async function rowFactsTask(_filePath: string, range: LineRange, arg: RowFactsArg): Promise<RowFacts | null> {
  const s = arg.sessions[range.firstLine]!;
  let ctx = contexts.get(arg.workspaceRoot);
  if (!ctx) contexts.set(arg.workspaceRoot, (ctx = createCoreContext(arg.workspaceRoot)));
  const project = arg.projects[s.project]!;
  const row = project.rows[s.row]!;
  try {
    // The same containment check as the refresh's (lib/fs/paths).
    const filePath = await resolveInside(project.dir, row.session_path);
    return statSync(filePath, { throwIfNoEntry: false })?.isFile() ? await readRowFacts(ctx, { project, row, filePath }, s.counted) : null;
  } catch {
    return null;
  }
}

/** Fewest sessions worth a worker (its start costs ~0.1–0.5 s): fewer are read on the refresh's thread. */
export const ROW_FACTS_MIN_SESSIONS = 8;

/**
 * Row facts of many sessions read ahead by this thread and one worker side by side (issue 25: the
 * catalog's rows of 20,000 new sessions were read on one core), in the order given; in a process
 * that keeps its main thread free (the dashboard) by the worker alone. {@link get} is the promise
 * of one session's facts. Close it when done (also on error).
 */
export class RowFactsAhead {
  private readonly pool: RangePool<RowFactsArg, RowFacts | null>;
  private readonly facts = new Map<string, Promise<RowFacts | null>>();
  private readonly done: Promise<void>;

  /** `sessions`: rows of the workspace's loaded projects, in the order the refresh writes them, with the usage prepare counted of each (see {@link readRowFacts}). */
  constructor(workspaceRoot: string, sessions: { project: LoadedProject; row: IndexRow; counted?: CountedUsage }[]) {
    // Six in flight, three read at once by the worker (row-facts-worker.ts): it stays busy while
    // this thread writes rows and reads facts itself, and its small reads overlap.
    this.pool = new RangePool(() => startWorker(import.meta.url, "./row-facts-worker.ts"), 1, { depth: 6 });
    const projects: LoadedProject[] = [];
    const projectIndex = new Map<LoadedProject, number>();
    const jobs: RowFactsArg["sessions"] = [];
    const settle: ((facts: RowFacts | null) => void)[] = [];
    for (const [i, s] of sessions.entries()) {
      let p = projectIndex.get(s.project);
      if (p === undefined) projectIndex.set(s.project, (p = projects.push(s.project) - 1));
      jobs.push({ project: p, row: s.project.rows.indexOf(s.row), counted: s.counted });
      this.facts.set(`${s.project.projectKey}\u0000${s.row.session_ref}`, new Promise((resolve) => (settle[i] = resolve)));
    }
    const ranges = sessions.map((_, i) => ({ firstLine: i, lastLine: i, startByte: 0, endByte: 0 }));
    this.done = this.pool.map(rowFactsTask, "", ranges, { workspaceRoot, projects, sessions: jobs }, (facts, i) => settle[i]!(facts)).catch(() => {
      // A pass that failed as a whole: what is not answered is read by the refresh itself.
      for (const resolve of settle) resolve(null);
    });
  }

  /** The facts read ahead for a session, handed over once (not kept for the whole refresh), null when it was not asked for or could not be read. */
  get(projectKey: string, sessionRef: string): Promise<RowFacts | null> {
    const key = `${projectKey}\u0000${sessionRef}`;
    const facts = this.facts.get(key);
    this.facts.delete(key);
    return facts ?? Promise.resolve(null);
  }

  /** Waits for the pass to end and ends the worker. */
  async close(): Promise<void> {
    await this.done;
    await this.pool.close();
  }
}
