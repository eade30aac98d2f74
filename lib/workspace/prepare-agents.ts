/** Prepare's plan for the agents behind the source contract (issue 38): their sessions found, exported and split into turns. */
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, renameSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { projectDir, sessionsDir, stagingDir } from "@/lib/fs/workspace-layout";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { agentSource } from "@/lib/sources/agents";
import { AGENT_SOURCE_NAMES, type AgentTranscript, type ExportedLines, type FoundSession, type SourceWarning } from "@/lib/sources/common/agent-source";
import { deriveProjectIdentity, type ProjectIdentity } from "@/lib/sources/common/project-key";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { PlanMemo, PlannedSession, SkippedFile } from "@/lib/workspace/prepare-plan";
import { originPath, type AgentRoots, type RootOrigins } from "@/lib/workspace/sources";

/** What {@link planAgentSessions} found: sessions to write, files or sessions skipped with the reason, warnings about what was read. */
export type AgentPlan = { sessions: PlannedSession[]; skipped: SkippedFile[]; warnings: SourceWarning[] };

/**
 * Every session of every agent root (`roots`, by agent): discovered, its workspace lines exported
 * and written at once to the workspace's staging folder (`exported` on the planned session: prepare
 * puts the file in place as `sessions/<source>/<fileName>` with {@link placeAgentSession}; issue 38:
 * no session's lines wait in memory for the others') and read for its turns (a turn per user prompt, lib/sources/common/agent-source). With a day
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
      for (const f of found.sessions.map((s) => ({ ...s, projectRoot: originPath(origins, path.resolve(root), s.projectRoot) }))) {
        onProgress?.(f.fileName);
        let planned: Planned | { skip: string };
        try {
          planned = await planRemembered(f, window, workspaceRoot, out.warnings, identities, stager, memo);
        } catch (error) {
          planned = { skip: `cannot be read: ${error instanceof Error ? error.message : String(error)}` };
        }
        const where = f.part === null ? f.sourcePath : `${f.sourcePath} (${f.part})`;
        if ("skip" in planned) {
          out.skipped.push({ path: where, reason: planned.skip });
          continue;
        }
        const key = `${name}/${f.sourceSessionId}`;
        const earlier = seen.get(key);
        if (earlier === undefined) {
          seen.set(key, planned);
          out.sessions.push(planned.session);
          continue;
        }
        if (earlier.session.projectKey === planned.session.projectKey && (await linesHash(earlier)) === (await linesHash(planned))) {
          out.skipped.push({ path: where, reason: `identical duplicate of ${earlier.session.sourcePath}` });
        } else {
          out.skipped.push({ path: where, reason: `Conflicting source session ${key}: ${earlier.session.sourcePath} and ${where} have different content or project identities; resolve the source conflict and prepare again` });
        }
        await discardStaged(planned.session);
      }
    }
  }
  await stager.settled();
  return out;
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

/** A session's workspace file written ahead to the staging folder: `file` once written (rejected with the write's error). */
export type StagedLines = { staged: Promise<string> };

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
}

/** Bytes of staged writes left running while the plan goes on: the thread pool writes one session while the next is read. */
const STAGING_BYTES = 64 << 20;

/**
 * Workspace files written ahead, each whole before its session is placed: a staged file is a
 * temp file that {@link placeAgentSession} renames in place, so it is written as it is (no fsync:
 * prepare rewrites a workspace file whose size is not as planned).
 */
class LineStager {
  private readonly prefix = randomBytes(4).toString("hex");
  private count = 0;
  private running: { done: Promise<unknown>; bytes: number }[] = [];
  private runningBytes = 0;
  private made = false;

  constructor(private readonly dir: string) {}

  /** Starts writing `content`; waits first while more than {@link STAGING_BYTES} are being written. */
  async stage(content: Buffer): Promise<StagedLines> {
    while (this.runningBytes > STAGING_BYTES && this.running.length > 0) {
      const oldest = this.running.shift()!;
      this.runningBytes -= oldest.bytes;
      await oldest.done;
    }
    if (!this.made) mkdirSync(this.dir, { recursive: true });
    this.made = true;
    const file = path.join(this.dir, `${this.prefix}-${this.count++}.jsonl`);
    const staged = fs.writeFile(file, content).then(() => file);
    const done = staged.catch(() => undefined); // the error is the placing's (placeAgentSession)
    this.running.push({ done, bytes: content.length });
    this.runningBytes += content.length;
    return { staged };
  }

  /** Waits for every staged write (their errors are left for {@link placeAgentSession}). */
  async settled(): Promise<void> {
    await Promise.all(this.running.map((r) => r.done));
    this.running = [];
    this.runningBytes = 0;
  }
}

/**
 * Puts a planned agent session's workspace file at `sessionFile`: its staged file moved in place,
 * or dropped when `sessionFile` already holds the same bytes; nothing for an `"unchanged"` one.
 * The session is `"unchanged"` after. Returns 1 when the file was written, else 0.
 * @throws the error of the staged write, or the fs error of the move.
 */
export async function placeAgentSession(session: PlannedSession, sessionFile: string): Promise<number> {
  const exported = session.exported;
  if (exported === undefined || exported === "unchanged") return 0;
  session.exported = "unchanged";
  const staged = await exported.staged;
  const there = statSync(sessionFile, { throwIfNoEntry: false });
  if (there !== undefined && there.size === statSync(staged).size && (await fs.readFile(sessionFile)).equals(await fs.readFile(staged))) {
    await fs.rm(staged, { force: true });
    return 0;
  }
  mkdirSync(path.dirname(sessionFile), { recursive: true });
  renameSync(staged, sessionFile);
  return 1;
}

/** Drops a planned session's staged file (a duplicate not kept). Never throws. */
async function discardStaged(session: PlannedSession): Promise<void> {
  if (typeof session.exported !== "object") return;
  const staged = await session.exported.staged.catch(() => null);
  if (staged !== null) await fs.rm(staged, { force: true });
}

/** A line break of contract §1.6 (Python's `splitlines`): a line holding one would be several physical lines. */
const BREAK = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/**
 * The bytes of the workspace file of an exported session (its lines, each followed by `\n`) and
 * their line index (`mtimeMs` left for the writer to set), or no index when a line holds a break
 * (the file is then indexed by reading it).
 */
function fileContent(exported: ExportedLines): { content: Buffer; index: LineIndex | undefined } {
  const { lines, bytes } = exported;
  const starts = new Float64Array(lines.length);
  let exact = true;
  let size = 0;
  if (bytes !== undefined) {
    // The exporter's bytes are its lines, each followed by `\n`.
    for (let i = 0; i < lines.length; i++) {
      starts[i] = size;
      const nl = bytes.indexOf(0x0a, size);
      size = nl === -1 ? bytes.length : nl + 1;
    }
    return { content: bytes, index: { size, mtimeMs: Number.NaN, lineCount: lines.length, starts } };
  }
  for (let i = 0; i < lines.length; i++) {
    starts[i] = size;
    const line = lines[i]!;
    size += Buffer.byteLength(line) + 1;
    if (exact && BREAK.test(line)) exact = false;
  }
  // Each line encoded in place: no text of the whole file is made.
  const content = Buffer.allocUnsafe(size);
  for (let i = 0; i < lines.length; i++) {
    const end = starts[i]! + content.write(lines[i]!, starts[i]!);
    content[end] = 0x0a;
  }
  return { content, index: exact ? { size, mtimeMs: Number.NaN, lineCount: lines.length, starts } : undefined };
}

/**
 * {@link planOne} through the sync's memo: a session whose stamp is unchanged and whose
 * workspace file has the size it was written with is planned from memory, its file left as it
 * is (a file cut short, or written without the fsync a crash would have needed, is written again).
 */
async function planRemembered(f: FoundSession, window: ReportWindow, workspaceRoot: string, warnings: SourceWarning[], identities: Identities, stager: LineStager, memo?: PlanMemo): Promise<Planned | { skip: string }> {
  if (!memo?.rememberStamped) return planOne(f, window, workspaceRoot, warnings, identities, stager);
  let fresh: Planned | { skip: string } | null = null;
  const key = `agent:${f.source}:${f.sourcePath}#${f.part ?? ""}`;
  const remembered = await memo.rememberStamped<RememberedPlan>(key, f.stamp, async () => {
    fresh = await planOne(f, window, workspaceRoot, warnings, identities, stager);
    if ("skip" in fresh) return fresh;
    const { exported: _staged, sourceIndex: _index, ...session } = fresh.session;
    return { session, hash: fresh.hash, bytes: fresh.bytes };
  });
  if (fresh !== null) return fresh;
  if ("skip" in remembered) return remembered;
  const file = path.join(sessionsDir(projectDir(workspaceRoot, remembered.session.projectKey)), f.source, f.fileName);
  // The workspace file went away (a rebuild) or is not as written: read the session again.
  if (remembered.bytes === undefined || statSync(file, { throwIfNoEntry: false })?.size !== remembered.bytes) return planOne(f, window, workspaceRoot, warnings, identities, stager);
  return { session: { ...remembered.session, exported: "unchanged" }, found: f, hash: remembered.hash, bytes: remembered.bytes };
}

/** Project identities by project root, for one plan: thousands of sessions share a few roots (each identity is a stat and a realpath). */
type Identities = Map<string, Promise<ProjectIdentity>>;

/** One session read, and its workspace file staged when it is kept (its lines are let go on return). */
async function planOne(f: FoundSession, window: ReportWindow, workspaceRoot: string, warnings: SourceWarning[], identities: Identities, stager: LineStager): Promise<Planned | { skip: string }> {
  const source = agentSource(f.source)!;
  const exported = await source.exportLines(f);
  warnings.push(...exported.warnings);
  const transcript = source.parseLines(exported.lines, `sessions/${f.source}/${f.fileName}`, exported.objects);
  warnings.push(...transcript.warnings);
  const turns = turnsInWindow(transcript, window);
  if (turns.length === 0) return { skip: window ? "no user prompt inside the report window" : "no user prompt (no turn to index)" };
  let identity: ProjectIdentity;
  if (f.projectRoot === null || f.projectRoot.trim() === "") identity = await deriveProjectIdentity(f.projectRoot, f.source, f.sourceSessionId);
  else {
    let known = identities.get(f.projectRoot);
    if (known === undefined) identities.set(f.projectRoot, (known = deriveProjectIdentity(f.projectRoot, f.source, f.sourceSessionId)));
    identity = await known;
  }
  if (!identity.isUnknown && isInside(identity.canonicalRoot, workspaceRoot)) return { skip: "session ran inside the Casefile workspace itself" };
  const file = fileContent(exported);
  return {
    found: f,
    hash: null,
    bytes: file.content.length,
    session: {
      source: f.source,
      sourceSessionId: f.sourceSessionId,
      sourcePath: f.sourcePath,
      fileName: f.fileName,
      projectKey: identity.projectKey,
      projectLabel: identity.projectLabel,
      lineCount: exported.lines.length,
      turns,
      attachments: [],
      exported: await stager.stage(file.content),
      sourceIndex: file.index,
    },
  };
}

/** The transcript's turns whose prompt line's time falls in `window` (all of them without one). */
function turnsInWindow(transcript: AgentTranscript, window: ReportWindow): PlannedSession["turns"] {
  if (window === null) return transcript.turns;
  return transcript.turns.filter((t) => {
    const time = transcript.records[t.turn_start_line - 1]?.time;
    const ms = time ? Date.parse(time) : NaN;
    return ms >= window.startMs && ms < window.endMs;
  });
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
