/** Prepare's plan: which source sessions go in, and which are skipped and why. */
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";

import type { LineIndex } from "@/lib/jsonl/line-index";
import { RangePool } from "@/lib/jsonl/range-pool";
import { PARALLEL_MIN_BYTES, startWorker, type LineRange } from "@/lib/jsonl/workers";
import { AppError, isAppError } from "@/lib/errors";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { discoverClaudeSessions } from "@/lib/sources/claude-code/discover";
import { probeClaudeTranscript } from "@/lib/sources/claude-code/probe";
import type { CodexForkHistory } from "@/lib/sources/codex/fork";
import { discoverCodexSessions } from "@/lib/sources/codex/discover";
import { applyForkInheritance, codexForkHistory, selectCodexSession, sessionsNeedingForkHistory } from "@/lib/sources/codex/select";
import { deriveProjectIdentity } from "@/lib/sources/common/project-key";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { IndexTurn, SourceName } from "@/lib/sources/common/schema";

/** One selected root session, before refs are assigned. */
export type PlannedSession = {
  source: SourceName;
  sourceSessionId: string;
  sourcePath: string;
  fileName: string;
  projectKey: string;
  projectLabel: string;
  lineCount: number;
  turns: Omit<IndexTurn, "turn_ref">[];
  /** Attached files (subagents, tool-results), relative to the session's own folder. */
  attachments: { sourcePath: string; relative: string }[];
  /**
   * Codex fork history (contract §1.8 step 5); null or absent when the session cannot be a proven
   * fork or when fork inheritance never reads it (fingerprints are computed only for forks and
   * their selected ancestors, issue 13).
   */
  fork?: CodexForkHistory | null;
  /** Codex: set when the file qualifies for fork inheritance, with its parent id. */
  forkCandidate?: { parentId: string | null } | null;
  /** The source's line index, built by the analysis pass when it read the file in this run: prepare adopts it for the byte copy (issue 13). */
  sourceIndex?: LineIndex;
};

/** A source file (or root) that prepare did not index, with a human-readable reason. */
export type SkippedFile = { path: string; reason: string };

/** Progress callback: `done` of `total` candidate files analysed, `label` the current file name. */
export type PlanProgress = (done: number, total: number, label: string) => void;

/**
 * Per-file work remembered across runs (the incremental sync, issue 12): `remember` returns what
 * was recorded for `(kind, file)` while the file's size, mtime and inode are unchanged, else runs
 * `compute` (which reads the file) and records its JSON-serializable result. Prepare without a
 * memo reads every file, as before.
 */
export type PlanMemo = {
  remember<T>(kind: MemoKind, file: string, compute: () => Promise<T>): Promise<T>;
  /** Whether `remember(kind, file, …)` would answer without computing (the file unchanged since it was recorded). */
  known(kind: MemoKind, file: string): boolean;
};

/** What {@link PlanMemo} remembers per file: a Claude probe, the analysis, the SHA-256, a Codex fork history. */
export type MemoKind = "probe" | "analysis" | "sha256" | "fork";

/** Source roots by source: each a root directory or one `.jsonl` file. */
export type SourceRoots = { claude: string[]; codex: string[] };

/** Small source files analysed at once by {@link planSources}. */
const ANALYSIS_LANES = 3;
/** Fewest small files to analyse that start a worker to share them ({@link analysisPool}); fewer are read on this thread. */
const POOL_MIN_FILES = 8;

type Candidate =
  | { source: "claude-code"; path: string; sessionId: string; subagents: string[]; toolResults: string[] }
  | { source: "codex"; path: string };

type Analysed = {
  sourceSessionId: string;
  projectRoot: string | null;
  lineCount: number;
  turns: PlannedSession["turns"];
  attachments: PlannedSession["attachments"];
  forkCandidate?: { parentId: string | null } | null;
};

/**
 * Discovers and analyses every Claude Code and Codex source, applies selection (contract §1.8:
 * subagent and report-session exclusion, the window, own-workspace exclusion, dedup by
 * session id, Codex fork inheritance, filename collisions) and returns the sessions to write
 * plus every skipped file with its reason. Conflicting duplicates and colliding filenames are
 * skipped, naming both paths, instead of aborting the whole run. `onRead` is told each file
 * whose analysis reads it in this run (not a remembered one), as its reading starts.
 */
export async function planSources(
  roots: SourceRoots,
  window: ReportWindow,
  workspaceRoot: string,
  onProgress?: PlanProgress,
  memo?: PlanMemo,
  onRead?: (file: string) => void,
): Promise<{ sessions: PlannedSession[]; skipped: SkippedFile[] }> {
  const remember = <T>(kind: MemoKind, file: string, compute: () => Promise<T>) => {
    const run = kind === "analysis" && onRead ? () => (onRead(file), compute()) : compute;
    return memo ? memo.remember(kind, file, run) : run();
  };
  const skipped: SkippedFile[] = [];
  const candidates = new Map<string, Candidate>();
  for (const root of roots.claude) {
    const found = await discoverClaudeSessions(path.resolve(root), (file) => remember("probe", file, () => probeClaudeTranscript(file)));
    skipped.push(...found.skipped);
    for (const c of found.candidates) if (!candidates.has(`claude-code:${c.path}`)) candidates.set(`claude-code:${c.path}`, { source: "claude-code", ...c });
  }
  for (const root of roots.codex) {
    const found = await discoverCodexSessions(path.resolve(root));
    skipped.push(...found.skipped);
    for (const c of found.candidates) if (!candidates.has(`codex:${c.path}`)) candidates.set(`codex:${c.path}`, { source: "codex", path: c.path });
  }
  const ordered = [...candidates.values()].sort((a, b) => (a.source === b.source ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.source < b.source ? -1 : 1));
  const selected: PlannedSession[] = [];
  // Line indexes built by this run's analysis passes (never remembered: the memo holds JSON).
  const indexes = new Map<string, LineIndex>();
  const keepIndex = (file: string) => (index: LineIndex) => void indexes.set(file, index);
  // Small files are analysed a few at a time: one file's reads overlap another's parsing, where one
  // at a time left the thread waiting on the disk for a third of a sync of many small sessions.
  // Files large enough for range workers take turns (each one's workers already use every core).
  const analysed = new Array<Promise<Analysed | { skip: string }>>(ordered.length);
  let started = 0;
  let big: Promise<unknown> = Promise.resolve();
  const sizes = ordered.map((c) => statSync(c.path, { throwIfNoEntry: false })?.size ?? 0);
  // Small files the memo does not know are analysed on this thread and a worker side by side.
  const pooled = analysisPool(
    ordered.filter((c, i) => sizes[i]! < PARALLEL_MIN_BYTES && !memo?.known("analysis", c.path)),
    window,
  );
  const analyseAt = async (i: number): Promise<Analysed | { skip: string }> => {
    const c = ordered[i]!;
    onProgress?.(started, ordered.length, path.basename(c.path));
    started += 1;
    const facts = pooled?.facts.get(c.path);
    const run = () =>
      c.source === "codex"
        ? remember("analysis", c.path, () => (facts ? facts.then((f) => adoptFacts(f, keepIndex(c.path)) as Analysed | { skip: string }) : analyseCodex(c.path, window, keepIndex(c.path))))
        : analyseClaude(c, window, remember, keepIndex(c.path), facts?.then((f) => adoptFacts(f, keepIndex(c.path)) as ClaudeFacts));
    if (sizes[i]! < PARALLEL_MIN_BYTES) return run();
    const alone = big.then(run);
    big = alone.catch(() => undefined);
    return alone;
  };
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < ordered.length; i = next++) {
      analysed[i] = analyseAt(i);
      await analysed[i]!.catch(() => undefined);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(ANALYSIS_LANES, ordered.length) }, lane));
  } finally {
    await pooled?.close();
  }
  for (const [i, c] of ordered.entries()) {
    const result = await analysed[i]!;
    if ("skip" in result) {
      skipped.push({ path: c.path, reason: result.skip });
      continue;
    }
    const identity = await deriveProjectIdentity(result.projectRoot, c.source, result.sourceSessionId);
    if (!identity.isUnknown && isInside(identity.canonicalRoot, workspaceRoot)) {
      skipped.push({ path: c.path, reason: "session ran inside the Casefile workspace itself" });
      continue;
    }
    selected.push({
      source: c.source,
      sourceSessionId: result.sourceSessionId,
      sourcePath: c.path,
      fileName: path.basename(c.path),
      projectKey: identity.projectKey,
      projectLabel: identity.projectLabel,
      lineCount: result.lineCount,
      turns: result.turns,
      attachments: result.attachments,
      forkCandidate: result.forkCandidate,
      sourceIndex: indexes.get(c.path),
    });
  }
  onProgress?.(ordered.length, ordered.length, "analysed");
  const unique = await dedupe(selected, skipped, (file) => remember("sha256", file, () => sha256File(file)));
  // Fork fingerprints cost more than the rest of a Codex analysis: only forks and their
  // ancestors get them, in a second pass over just those files (issue 13).
  const needed = sessionsNeedingForkHistory(unique);
  for (const s of unique) {
    if (s.source === "codex" && needed.has(s.sourceSessionId)) s.fork = await remember("fork", s.sourcePath, () => codexForkHistory(s.sourcePath));
  }
  const kept = applyForkInheritance(unique, skipped);
  return { sessions: rejectFilenameCollisions(kept, skipped), skipped };
}

/** What prepare remembers of a Claude Code transcript's analysis (the memo's JSON). */
type ClaudeFacts = { isSidechain: boolean; projectRoot: string | null; lineCount: number; turns: PlannedSession["turns"] };

async function claudeFacts(filePath: string, window: ReportWindow, onIndex: (index: LineIndex) => void): Promise<ClaudeFacts> {
  const a = await analyzeClaudeTranscript(filePath, window, { onIndex });
  return {
    isSidechain: a.isSidechain,
    projectRoot: a.projectRoot,
    lineCount: a.lineCount,
    turns: a.turns.map((t) => ({ turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line })),
  };
}

/** `facts`: the file's analysis already under way on the {@link analysisPool}; else it is read here. */
async function analyseClaude(
  c: Extract<Candidate, { source: "claude-code" }>,
  window: ReportWindow,
  remember: NonNullable<PlanMemo>["remember"],
  onIndex: (index: LineIndex) => void,
  facts?: Promise<ClaudeFacts>,
): Promise<Analysed | { skip: string }> {
  // Only the file's own facts are remembered: its attachments are re-listed on every run.
  const analysis = await remember("analysis", c.path, () => facts ?? claudeFacts(c.path, window, onIndex));
  if (analysis.isSidechain) return { skip: "subagent transcript (isSidechain records) with no parent session found" };
  if (analysis.turns.length === 0) return { skip: window ? "no human trigger inside the report window" : "no human trigger (no user turn to index)" };
  const sessionDir = path.join(path.dirname(c.path), c.sessionId);
  return {
    sourceSessionId: c.sessionId,
    projectRoot: analysis.projectRoot,
    lineCount: analysis.lineCount,
    turns: analysis.turns,
    attachments: [
      ...c.subagents.map((p) => ({ sourcePath: p, relative: path.join("subagents", path.basename(p)) })),
      ...c.toolResults.map((p) => ({ sourcePath: p, relative: isInside(p, sessionDir) ? path.relative(sessionDir, p) : path.join("tool-results", path.basename(p)) })),
    ],
  };
}

async function analyseCodex(filePath: string, window: ReportWindow, onIndex: (index: LineIndex) => void): Promise<Analysed | { skip: string }> {
  const result = await selectCodexSession(filePath, window, { fingerprints: false, onIndex });
  if ("skip" in result) return result;
  const { fork: _none, ...selected } = result.selected;
  return { ...selected, attachments: [] };
}

/** The files of one {@link analysisPool} pass, and the window they are analysed for. */
export type AnalysisArg = { window: ReportWindow; files: { source: "claude-code" | "codex"; path: string }[] };
/** One file's analysis from the pool: what prepare remembers of it and its line index, or the error that stopped it. */
export type AnalysisAnswer = { value: unknown; index: LineIndex | null } | { error: { code: string | null; message: string; details?: object } };

/**
 * The range-pool task (lib/jsonl/range-pool) of {@link analysisPool}: analyses file
 * `arg.files[range.firstLine]` as prepare does on its own thread (Claude Code facts, or a Codex
 * selection), with the line index the pass built. An error is answered, not thrown, so the
 * caller rethrows it with its code. `filePath` is unused (a pass is a list of files).
 */
export async function analysisTask(_filePath: string, range: LineRange, arg: AnalysisArg): Promise<AnalysisAnswer> {
  const f = arg.files[range.firstLine]!;
  let index: LineIndex | null = null;
  const onIndex = (built: LineIndex) => void (index = built);
  try {
    const value = f.source === "codex" ? await analyseCodex(f.path, arg.window, onIndex) : await claudeFacts(f.path, arg.window, onIndex);
    return { value, index };
  } catch (error) {
    return { error: { code: isAppError(error) ? error.code : null, message: error instanceof Error ? error.message : String(error), ...(isAppError(error) ? { details: error.details } : {}) } };
  }
}

/** The buffers an {@link AnalysisAnswer} moves to the calling thread without a copy. */
export function analysisTransfer(answer: AnalysisAnswer): ArrayBuffer[] {
  return "index" in answer && answer.index ? [answer.index.starts.buffer as ArrayBuffer] : [];
}

/** An analysis from the pool as the reader wants it: its line index handed to `onIndex`, an error thrown again. */
function adoptFacts(answer: AnalysisAnswer, onIndex: (index: LineIndex) => void): unknown {
  if ("error" in answer) {
    const e = answer.error;
    throw e.code ? new AppError(e.code as ConstructorParameters<typeof AppError>[0], e.message, e.details as ConstructorParameters<typeof AppError>[2]) : new Error(e.message);
  }
  if (answer.index) onIndex(answer.index);
  return answer.value;
}

/**
 * Analyses many small source files on this thread and one worker side by side (a sync of a heavy
 * user's 20,000 sessions used one core; issue 25): `facts` has, per file, the promise of its
 * answer, settled in file order as each is known. Null for fewer than {@link POOL_MIN_FILES}
 * files (a worker's start costs more than it saves). Close it when done.
 */
function analysisPool(files: Candidate[], window: ReportWindow): { facts: Map<string, Promise<AnalysisAnswer>>; close: () => Promise<void> } | null {
  if (files.length < POOL_MIN_FILES) return null;
  const pool = new RangePool<AnalysisArg, AnalysisAnswer>(() => startWorker(import.meta.url, "./analysis-worker.ts"), 1);
  const settle: ((answer: AnalysisAnswer) => void)[] = [];
  const facts = new Map(files.map((f, i) => [f.path, new Promise<AnalysisAnswer>((resolve) => (settle[i] = resolve))]));
  const ranges = files.map((_, i) => ({ firstLine: i, lastLine: i, startByte: 0, endByte: 0 }));
  const arg: AnalysisArg = { window, files: files.map((f) => ({ source: f.source, path: f.path })) };
  const done = pool.map(analysisTask, "", ranges, arg, (answer, i) => settle[i]!(answer)).catch((error: unknown) => {
    // A pool that failed as a whole: every file not yet answered carries its error.
    const message = error instanceof Error ? error.message : String(error);
    for (const resolve of settle) resolve({ error: { code: null, message } });
  });
  return {
    facts,
    close: async () => {
      await done;
      await pool.close();
    },
  };
}

/**
 * Two different selected sessions mapping to the same `projects/<key>/sessions/<source>/<file>`
 * (contract §1.8 step 7) would overwrite each other: all of them are skipped, naming the paths.
 */
function rejectFilenameCollisions(sessions: PlannedSession[], skipped: SkippedFile[]): PlannedSession[] {
  const groups = new Map<string, PlannedSession[]>();
  for (const s of sessions) {
    const key = `${s.projectKey}/sessions/${s.source}/${s.fileName}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const kept: PlannedSession[] = [];
  for (const [key, group] of groups) {
    if (group.length === 1) kept.push(group[0]!);
    else for (const s of group) skipped.push({ path: s.sourcePath, reason: `Session filename collision while preparing workspace: ${key} (${group.map((g) => g.sourcePath).join(" and ")}); rename one of the files and prepare again` });
  }
  return kept;
}

async function dedupe(sessions: PlannedSession[], skipped: SkippedFile[], hashOf: (file: string) => Promise<string>): Promise<PlannedSession[]> {
  const groups = new Map<string, PlannedSession[]>();
  for (const s of sessions) {
    const key = `${s.source}/${s.sourceSessionId}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const kept: PlannedSession[] = [];
  for (const [key, group] of groups) {
    const first = group[0]!;
    if (group.length === 1) {
      kept.push(first);
      continue;
    }
    const firstHash = await hashOf(first.sourcePath);
    const conflicts: PlannedSession[] = [];
    for (const other of group.slice(1)) {
      const same = other.projectKey === first.projectKey && (await hashOf(other.sourcePath)) === firstHash;
      if (same) skipped.push({ path: other.sourcePath, reason: `identical duplicate of ${first.sourcePath}` });
      else conflicts.push(other);
    }
    if (conflicts.length === 0) {
      kept.push(first);
      continue;
    }
    for (const other of [first, ...conflicts]) {
      const peer = other === first ? conflicts[0]! : first;
      skipped.push({
        path: other.sourcePath,
        reason: `Conflicting source session ${key}: ${first.sourcePath} and ${peer === first ? other.sourcePath : peer.sourcePath} have different content or project identities; resolve the source conflict and prepare again`,
      });
    }
  }
  return kept;
}

/** SHA-256 hex of a file, streamed. */
export function sha256File(filePath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(filePath)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
