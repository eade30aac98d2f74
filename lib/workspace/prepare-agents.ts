/** Prepare's plan for the agents behind the source contract (issue 38): their sessions found, exported and split into turns. */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, renameSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { projectDir, sessionsDir, stagingDir } from "@/lib/fs/workspace-layout";
import { RangePool } from "@/lib/jsonl/range-pool";
import { rangeCount, startWorker, type LineRange } from "@/lib/jsonl/workers";
import { agentSource } from "@/lib/sources/agents";
import { AGENT_SOURCE_NAMES, type FoundSession, type SourceWarning } from "@/lib/sources/common/agent-source";
import { deriveProjectIdentity, type ProjectIdentity } from "@/lib/sources/common/project-key";
import type { ReportWindow } from "@/lib/sources/common/window";
import { readAgentSession, readIndex, type AgentSessionArg, type AgentSessionRead } from "@/lib/workspace/agent-session-read";
import type { PlanMemo, PlannedSession, SkippedFile } from "@/lib/workspace/prepare-plan";
import { originPath, type AgentRoots, type RootOrigins } from "@/lib/workspace/sources";

/** What {@link planAgentSessions} found: sessions to write, files or sessions skipped with the reason, warnings about what was read. */
export type AgentPlan = { sessions: PlannedSession[]; skipped: SkippedFile[]; warnings: SourceWarning[] };

/**
 * Every session of every agent root (`roots`, by agent): discovered, its workspace lines exported
 * and written at once to the workspace's staging folder (`exported` on the planned session: prepare
 * puts the file in place as `sessions/<source>/<fileName>` with {@link placeAgentSession}; issue 38:
 * no session's lines wait in memory for the others') and read for its turns (a turn per user
 * prompt, lib/sources/common/agent-source), two sessions at once on worker threads when a root's
 * sessions are large enough (lib/workspace/agent-session-read; the same reads, kept in order). With a day
 * `window`, only turns whose prompt falls inside it count (contract §1.5). A session without a
 * turn, or one that ran inside the workspace itself, is skipped with its reason; duplicates of
 * one `(source, session id)` are kept once when their lines are equal, else all skipped (§1.8
 * step 4; the lines are hashed only then). `onProgress` is told each session as it is read. With
 * a `memo` (the incremental sync), a session whose discovery stamp is as recorded and whose
 * workspace file is there with the size written is not read again: its plan is remembered and
 * its file marked `exported: "unchanged"`.
 * Never throws for a session that cannot be read: it is skipped, naming the error.
 */
export async function planAgentSessions(roots: AgentRoots, window: ReportWindow, workspaceRoot: string, onProgress?: (label: string) => void, memo?: PlanMemo, origins?: RootOrigins): Promise<AgentPlan> {
  const out: AgentPlan = { sessions: [], skipped: [], warnings: [] };
  const seen = new Map<string, Planned>();
  const identities: Identities = new Map();
  const stager = new LineStager(stagedLinesDir(workspaceRoot));
  for (const name of AGENT_SOURCE_NAMES) {
    const source = agentSource(name)!;
    for (const root of roots[name] ?? []) {
      const found = await source.discover(path.resolve(root));
      out.warnings.push(...found.warnings);
      // A pushed root's projects are named as on its machine (issue 39: Aider's is the history file's folder).
      const sessions = found.sessions.map((s) => ({ ...s, projectRoot: originPath(origins, path.resolve(root), s.projectRoot) }));
      // A sync reads the few sessions that changed on this thread; a prepare reads them all, ahead on workers.
      const reader = new SessionReader(stager, window, memo?.rememberStamped ? 0 : workersFor(sessions));
      try {
        for (const [i, f] of sessions.entries()) {
          reader.ahead(sessions, i);
          onProgress?.(f.fileName);
          await planFound(f, name, out, seen, workspaceRoot, identities, reader, memo);
        }
      } finally {
        await reader.close();
      }
    }
  }
  return out;
}

/** One found session planned into `out`: kept, skipped with its reason, or a duplicate of one `seen` kept or skipped (see {@link planAgentSessions}). */
async function planFound(f: FoundSession, name: string, out: AgentPlan, seen: Map<string, Planned>, workspaceRoot: string, identities: Identities, reader: SessionReader, memo?: PlanMemo): Promise<void> {
  let planned: Planned | { skip: string };
  try {
    planned = await planRemembered(f, workspaceRoot, out.warnings, identities, reader, memo);
  } catch (error) {
    planned = { skip: `cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  const where = f.part === null ? f.sourcePath : `${f.sourcePath} (${f.part})`;
  if ("skip" in planned) {
    out.skipped.push({ path: where, reason: planned.skip });
    return;
  }
  const key = `${name}/${f.sourceSessionId}`;
  const earlier = seen.get(key);
  if (earlier === undefined) {
    seen.set(key, planned);
    out.sessions.push(planned.session);
    return;
  }
  if (earlier.session.projectKey === planned.session.projectKey && (await linesHash(earlier)) === (await linesHash(planned))) {
    out.skipped.push({ path: where, reason: `identical duplicate of ${earlier.session.sourcePath}` });
  } else {
    out.skipped.push({ path: where, reason: `Conflicting source session ${key}: ${earlier.session.sourcePath} and ${where} have different content or project identities; resolve the source conflict and prepare again` });
  }
  await discardStaged(planned.session);
}

/**
 * A session planned: its `hash` (SHA-256 of its lines joined by `\n`) null until a duplicate asks
 * for it; `bytes` the size of its workspace file.
 */
type Planned = { session: PlannedSession; found: FoundSession; hash: string | null; bytes: number };

/** What a sync remembers of an agent session's plan: all of it but the lines, or why it was skipped (`bytes` is missing from an older sync's memo). */
type RememberedPlan = { session: Omit<PlannedSession, "exported">; hash: string | null; bytes?: number } | { skip: string };

/** The SHA-256 of a planned session's lines (read again from its source when its plan was remembered), computed once. */
async function linesHash(planned: Planned): Promise<string> {
  planned.hash ??= hashLines((await agentSource(planned.found.source)!.exportLines(planned.found)).lines);
  return planned.hash;
}

function hashLines(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n")).digest("hex");
}

/** A session's workspace file written whole to the staging folder (`staged`), to be put in place by {@link placeAgentSession}. */
export type StagedLines = { staged: string };

/** Where {@link planAgentSessions} writes the workspace files ahead (inside the workspace: a rename puts each in place). */
function stagedLinesDir(workspaceRoot: string): string {
  return path.join(stagingDir(workspaceRoot), "agents");
}

/**
 * Removes what {@link planAgentSessions} staged and no session took (a plan dropped by a later
 * rule, a prepare that failed): prepare calls it once the session files are in place. Never throws.
 */
export async function discardStagedAgentLines(workspaceRoot: string): Promise<void> {
  await fs.rm(stagedLinesDir(workspaceRoot), { recursive: true, force: true }).catch(() => undefined);
  // The staging folder itself when nothing else is in it (an incremental prepare stages nothing else).
  await fs.rmdir(stagingDir(workspaceRoot)).catch(() => undefined);
}

/**
 * Names of workspace files written ahead, each whole before its session is placed: a staged file
 * is a temp file that {@link placeAgentSession} renames in place, so it is written as it is (no
 * fsync: prepare rewrites a workspace file whose size is not as planned).
 */
class LineStager {
  private readonly prefix = randomBytes(4).toString("hex");
  private count = 0;
  private made = false;

  constructor(private readonly dir: string) {}

  /** A new staged file's path (its folder made), files spread over {@link STAGING_FOLDERS} folders. */
  next(): string {
    if (!this.made) for (let k = 0; k < STAGING_FOLDERS; k++) mkdirSync(path.join(this.dir, String(k)), { recursive: true });
    this.made = true;
    const n = this.count++;
    return path.join(this.dir, String(n % STAGING_FOLDERS), `${this.prefix}-${n}.jsonl`);
  }
}

/** Folders the staged files are spread over: two workers creating files in one folder wait for each other (its lock). */
const STAGING_FOLDERS = 16;

/**
 * Puts a planned agent session's workspace file at `sessionFile`: its staged file moved in place,
 * or dropped when `sessionFile` already holds the same bytes; nothing for an `"unchanged"` one.
 * The session is `"unchanged"` after. Returns 1 when the file was written, else 0. `madeDirs`: folders
 * made already (this one is added), so each is made once.
 * @throws the fs error of the comparison or the move.
 */
export async function placeAgentSession(session: PlannedSession, sessionFile: string, madeDirs?: Set<string>): Promise<number> {
  const exported = session.exported;
  if (exported === undefined || exported === "unchanged") return 0;
  session.exported = "unchanged";
  const { staged } = exported;
  const there = statSync(sessionFile, { throwIfNoEntry: false });
  if (there !== undefined && there.size === statSync(staged).size && (await fs.readFile(sessionFile)).equals(await fs.readFile(staged))) {
    await fs.rm(staged, { force: true });
    return 0;
  }
  const dir = path.dirname(sessionFile);
  if (madeDirs?.has(dir) !== true) {
    mkdirSync(dir, { recursive: true });
    madeDirs?.add(dir);
  }
  renameSync(staged, sessionFile);
  return 1;
}

/** Drops a planned session's staged file (a session not kept). Never throws. */
async function discardStaged(session: PlannedSession): Promise<void> {
  if (typeof session.exported === "object") await fs.rm(session.exported.staged, { force: true }).catch(() => undefined);
}

/** Bytes of a root's sessions from which they are read on worker threads (a worker costs ~0.1-0.5 s to start). */
const READ_WORKERS_MIN_BYTES = 64 << 20;
/** Sessions read on workers at once; the plan's thread hands them out and keeps their turns (2: the reference machine's cores). */
const READ_WORKERS = 2;
/**
 * Sessions whose reads are started ahead of the one the plan waits for: a read hands back only its
 * turns and line index (its file is written by the reader), so many cost little, and a long
 * session on one worker leaves the other enough to do meanwhile.
 */
const READ_AHEAD = 32;

/**
 * Worker threads to read `sessions` on: none below {@link READ_WORKERS_MIN_BYTES} of their files
 * (each counted once; `CASEFILE_WORKERS_MIN_BYTES` replaces it) or with workers off
 * (`CASEFILE_WORKERS=1`): lib/jsonl/workers' rangeCount decides, as for a file's ranges.
 */
function workersFor(sessions: readonly FoundSession[]): number {
  let bytes = 0;
  for (const file of new Set(sessions.map((s) => s.sourcePath))) bytes += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  const threads = rangeCount(bytes, READ_WORKERS_MIN_BYTES);
  return threads > 1 ? Math.min(READ_WORKERS, threads) : 0;
}

/** The range a session's read is posted with (lib/jsonl/range-pool maps ranges; a session is one job). */
const WHOLE: LineRange = { firstLine: 1, lastLine: 1, startByte: 0, endByte: 0 };

/** A read started ahead: its argument and how to settle the promise the plan waits on. */
type Pending = { arg: AgentSessionArg; settle: (read: Promise<AgentSessionRead>) => void };

/**
 * Reads of one root's sessions ({@link readAgentSession}): on this thread, or started ahead in
 * discovery order on worker threads (lib/jsonl/range-pool: one pool of one worker each, each
 * taking the next waiting session when it is free; a worker that cannot start leaves its sessions
 * to this thread). Each read is taken once, in order. Call {@link close} when done.
 */
class SessionReader {
  private readonly pools: RangePool<AgentSessionArg, AgentSessionRead>[];
  private readonly idle: RangePool<AgentSessionArg, AgentSessionRead>[];
  private readonly running = new Set<Promise<unknown>>();
  private readonly waiting: Pending[] = [];
  private readonly started = new Map<FoundSession, Promise<{ read: AgentSessionRead; staged: string }>>();
  private next = 0;

  constructor(
    private readonly stager: LineStager,
    private readonly window: ReportWindow,
    workers: number,
  ) {
    this.pools = Array.from({ length: workers }, () => new RangePool<AgentSessionArg, AgentSessionRead>(() => startWorker(import.meta.url, "./agent-session-worker.ts"), 1, { workersOnly: true }));
    this.idle = [...this.pools];
  }

  /** Starts the reads of `sessions` up to {@link READ_AHEAD} past `at` (none without workers). */
  ahead(sessions: readonly FoundSession[], at: number): void {
    if (this.pools.length === 0) return;
    for (; this.next < sessions.length && this.next <= at + READ_AHEAD; this.next++) {
      const f = sessions[this.next]!;
      const arg = { found: f, window: this.window, staged: this.stager.next() };
      const job = new Promise<AgentSessionRead>((resolve) => this.waiting.push({ arg, settle: resolve })).then((read) => ({ read, staged: arg.staged }));
      // Handled here (a read never taken, the plan having failed, rejects unseen); taken, it rejects for the taker.
      job.catch(() => undefined);
      this.started.set(f, job);
    }
    this.pump();
  }

  /** Gives each idle worker the next waiting session. */
  private pump(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) {
      const pool = this.idle.shift()!;
      const { arg, settle } = this.waiting.shift()!;
      const read = (async () => {
        let result: AgentSessionRead | null = null;
        await pool.map(readAgentSession, arg.found.sourcePath, [WHOLE], arg, (r) => (result = r));
        return result!;
      })();
      settle(read);
      const done = read.then(
        () => undefined,
        () => undefined,
      );
      this.running.add(done);
      void done.then(() => {
        this.running.delete(done);
        this.idle.push(pool);
        this.pump();
      });
    }
  }

  /** The read of `f`: the one started ahead, else made now on this thread. */
  read(f: FoundSession): Promise<{ read: AgentSessionRead; staged: string }> {
    const started = this.started.get(f);
    this.started.delete(f);
    if (started !== undefined) return started;
    const staged = this.stager.next();
    return readAgentSession(f.sourcePath, WHOLE, { found: f, window: this.window, staged }).then((read) => ({ read, staged }));
  }

  /** Drops the reads not started, waits for those running and stops the workers; the files of reads never taken stay in the staging folder (removed with it). */
  async close(): Promise<void> {
    for (const { settle } of this.waiting.splice(0)) settle(Promise.reject(new Error("prepare stopped before this session was read")));
    this.started.clear();
    while (this.running.size > 0) await Promise.all(this.running);
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

/**
 * {@link planOne} through the sync's memo: a session whose stamp is unchanged and whose
 * workspace file has the size it was written with is planned from memory, its file left as it
 * is (a file cut short, or written without the fsync a crash would have needed, is written again).
 */
async function planRemembered(f: FoundSession, workspaceRoot: string, warnings: SourceWarning[], identities: Identities, reader: SessionReader, memo?: PlanMemo): Promise<Planned | { skip: string }> {
  if (!memo?.rememberStamped) return planOne(f, workspaceRoot, warnings, identities, reader);
  let fresh: Planned | { skip: string } | null = null;
  const key = `agent:${f.source}:${f.sourcePath}#${f.part ?? ""}`;
  const remembered = await memo.rememberStamped<RememberedPlan>(key, f.stamp, async () => {
    fresh = await planOne(f, workspaceRoot, warnings, identities, reader);
    if ("skip" in fresh) return fresh;
    const { exported: _staged, sourceIndex: _index, ...session } = fresh.session;
    return { session, hash: fresh.hash, bytes: fresh.bytes };
  });
  if (fresh !== null) return fresh;
  if ("skip" in remembered) return remembered;
  const file = path.join(sessionsDir(projectDir(workspaceRoot, remembered.session.projectKey)), f.source, f.fileName);
  // The workspace file went away (a rebuild) or is not as written: read the session again.
  if (remembered.bytes === undefined || statSync(file, { throwIfNoEntry: false })?.size !== remembered.bytes) return planOne(f, workspaceRoot, warnings, identities, reader);
  return { session: { ...remembered.session, exported: "unchanged" }, found: f, hash: remembered.hash, bytes: remembered.bytes };
}

/** Project identities by project root, for one plan: thousands of sessions share a few roots (each identity is a stat and a realpath). */
type Identities = Map<string, Promise<ProjectIdentity>>;

/** One session read (its workspace file staged when it has a turn), then placed in its project or skipped. */
async function planOne(f: FoundSession, workspaceRoot: string, warnings: SourceWarning[], identities: Identities, reader: SessionReader): Promise<Planned | { skip: string }> {
  const { read, staged } = await reader.read(f);
  warnings.push(...read.warnings);
  if (read.skip !== null) return { skip: read.skip };
  let identity: ProjectIdentity;
  if (f.projectRoot === null || f.projectRoot.trim() === "") identity = await deriveProjectIdentity(f.projectRoot, f.source, f.sourceSessionId);
  else {
    let known = identities.get(f.projectRoot);
    if (known === undefined) identities.set(f.projectRoot, (known = deriveProjectIdentity(f.projectRoot, f.source, f.sourceSessionId)));
    identity = await known;
  }
  if (!identity.isUnknown && isInside(identity.canonicalRoot, workspaceRoot)) {
    await fs.rm(staged, { force: true });
    return { skip: "session ran inside the Casefile workspace itself" };
  }
  return {
    found: f,
    hash: null,
    bytes: read.bytes,
    session: {
      source: f.source,
      sourceSessionId: f.sourceSessionId,
      sourcePath: f.sourcePath,
      fileName: f.fileName,
      projectKey: identity.projectKey,
      projectLabel: identity.projectLabel,
      lineCount: read.lineCount,
      turns: read.turns,
      attachments: [],
      exported: { staged },
      sourceIndex: readIndex(read),
    },
  };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
