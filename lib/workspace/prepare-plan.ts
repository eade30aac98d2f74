/** Prepare's plan: which source sessions go in, and which are skipped and why. */
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import path from "node:path";

import { inLanes } from "@/lib/async/lanes";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { PARALLEL_MIN_BYTES } from "@/lib/jsonl/workers";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { claudeCodeFormat } from "@/lib/sources/claude-code/format";
import { discoverClaudeSessions } from "@/lib/sources/claude-code/discover";
import { probeClaudeTranscript } from "@/lib/sources/claude-code/probe";
import type { CodexRecordSink } from "@/lib/sources/codex/analyze";
import type { CodexForkHistory } from "@/lib/sources/codex/fork";
import { discoverCodexSessions } from "@/lib/sources/codex/discover";
import { codexFormat } from "@/lib/sources/codex/format";
import { applyForkInheritance, selectCodexSession, sessionsNeedingForkHistory } from "@/lib/sources/codex/select";
import { deriveProjectIdentity } from "@/lib/sources/common/project-key";
import { sourceFormat } from "@/lib/sources/formats";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { IndexTurn, SourceName } from "@/lib/sources/common/schema";
import type { AgentSourceName, SourceWarning } from "@/lib/sources/common/agent-source";
import type { PricingTable } from "@/lib/usage/pricing";
import { planAgentSessions, type StagedLines } from "@/lib/workspace/prepare-agents";
import { apartByMachine, planAgentsByMachine } from "@/lib/workspace/prepare-machines";
import { rootMachine, type AgentRoots, type RootMachines, type RootOrigins } from "@/lib/workspace/sources";
import { UsageCounter, type UsageTally } from "@/lib/usage/session-usage";
import { subagentsSignature } from "@/lib/workspace/session-usage";

/** One selected root session, before refs are assigned. */
export type PlannedSession = {
  source: SourceName | AgentSourceName;
  sourceSessionId: string;
  sourcePath: string;
  fileName: string;
  projectKey: string;
  projectLabel: string;
  lineCount: number;
  turns: Omit<IndexTurn, "turn_ref">[];
  /** Attached files (subagents, tool-results), relative to the session's own folder. */
  attachments: { sourcePath: string; relative: string }[];
  /** The machine of the root it came from (issue 39, lib/workspace/machines); absent: the local machine. */
  machine?: string;
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
  /** The usage the analysis pass counted (see {@link UsagePricing}), with the source's size and mtime it read. */
  counted?: CountedSource;
  /**
   * An agent behind the source contract (issue 38): the workspace file written ahead to the staging
   * folder, put in place instead of a byte copy of `sourcePath` (prepare-agents placeAgentSession);
   * `"unchanged"` when the session is as the last sync wrote it (its discovery stamp unchanged and
   * its workspace file there): nothing is read or written.
   */
  exported?: StagedLines | "unchanged";
};

/**
 * A session's usage counted by the analysis pass from its source at `size` bytes and `mtimeMs`
 * and its subagent transcripts (`subagents`: {@link subagentsSignature} of what was read), priced
 * under `pricingStamp`.
 */
export type CountedSource = { usage: UsageTally; size: number; mtimeMs: number; subagents: string; pricingStamp: string };

/**
 * The prices a plan counts usage with, and the price override file's stamp they were read under:
 * given, the analysis of a session read on this thread also tallies its usage (a Claude Code
 * session's subagent transcripts read after it; issue 25: the catalog then reads no transcript for it).
 */
export type UsagePricing = { table: PricingTable; stamp: string };

/** A source file (or root) that prepare did not index, with a human-readable reason. */
export type SkippedFile = { path: string; reason: string };

/**
 * Progress callback: `done` of `total` candidate files analysed, `label` the current file name;
 * `bytes`, where the caller knows it, the size of the `done` files (a console's MB/s, issue 36).
 */
export type PlanProgress = (done: number, total: number, label: string, bytes?: number) => void;

/**
 * Per-file work remembered across runs (the incremental sync, issue 12): `remember` returns what
 * was recorded for `(kind, file)` while the file's size, mtime and inode are unchanged, else runs
 * `compute` (which reads the file) and records its JSON-serializable result. Prepare without a
 * memo reads every file, as before.
 */
export type PlanMemo = {
  remember<T>(kind: MemoKind, file: string, compute: () => Promise<T>): Promise<T>;
  /** The same for work whose version the caller stamps itself (`key` names it; an agent session, lib/workspace/prepare-agents). */
  rememberStamped?<T>(key: string, stamp: string, compute: () => Promise<T>): Promise<T>;
};

/** What {@link PlanMemo} remembers per file: a Claude probe, the analysis, the SHA-256, a Codex fork history. */
export type MemoKind = "probe" | "analysis" | "sha256" | "fork";

/**
 * Source roots by source: each a root directory or one `.jsonl` file; `agents`: the other agents'
 * roots; `machines`: the machine of each root not the local machine's, `origins`: where a pushed
 * root is on its machine (lib/workspace/sources).
 */
export type SourceRoots = { claude: string[]; codex: string[]; agents?: AgentRoots; machines?: RootMachines; origins?: RootOrigins };

/** Small source files analysed at once by {@link planSources}. */
const ANALYSIS_LANES = 3;

type Analyse = (window: ReportWindow, remember: NonNullable<PlanMemo>["remember"], onIndex: (index: LineIndex) => void, pricing?: UsagePricing) => Promise<Analysed | { skip: string }>;

/** A transcript discovery found, with the analysis of its source (bound where its source's roots are walked). */
type Candidate = { source: SourceName; path: string; analyse: Analyse };

/** What Claude Code's discovery found of one session: the main transcript, its subagents and persisted tool results. */
type ClaudeCandidate = { source: SourceName; path: string; sessionId: string; subagents: string[]; toolResults: string[] };

type Analysed = {
  sourceSessionId: string;
  projectRoot: string | null;
  lineCount: number;
  turns: PlannedSession["turns"];
  attachments: PlannedSession["attachments"];
  forkCandidate?: { parentId: string | null } | null;
  counted?: CountedSource;
};

/**
 * Discovers and analyses every Claude Code and Codex source, applies selection (contract §1.8:
 * subagent and report-session exclusion, the window, own-workspace exclusion, dedup by
 * session id, Codex fork inheritance, filename collisions) and returns the sessions to write
 * plus every skipped file with its reason. Conflicting duplicates and colliding filenames are
 * skipped, naming both paths, instead of aborting the whole run. `onRead` is told each file
 * whose analysis reads it in this run (not a remembered one), as its reading starts. With
 * `pricing`, sessions read in this run have their usage counted too ({@link UsagePricing}).
 * The other agents' sessions (`roots.agents`) are planned by lib/workspace/prepare-agents; what
 * their readers warned about comes back as `warnings`. `cleared`: the workspace is emptied once
 * the plan is made (`prepare --force`), so no agent session is planned from `memo` as unchanged.
 */
export async function planSources(
  roots: SourceRoots,
  window: ReportWindow,
  workspaceRoot: string,
  onProgress?: PlanProgress,
  memo?: PlanMemo,
  onRead?: (file: string) => void,
  pricing?: UsagePricing,
  cleared = false,
): Promise<{ sessions: PlannedSession[]; skipped: SkippedFile[]; warnings: SourceWarning[] }> {
  const remember = <T>(kind: MemoKind, file: string, compute: () => Promise<T>) => {
    const run = kind === "analysis" && onRead ? () => (onRead(file), compute()) : compute;
    return memo ? memo.remember(kind, file, run) : run();
  };
  const skipped: SkippedFile[] = [];
  const candidates = new Map<string, Candidate>();
  // Each candidate's machine: its root's (issue 39), the first root that found it.
  const machineOf = new Map<string, string>();
  for (const root of roots.claude) {
    const found = await discoverClaudeSessions(path.resolve(root), (file) => remember("probe", file, () => probeClaudeTranscript(file)));
    skipped.push(...found.skipped);
    for (const one of found.candidates) {
      const c: ClaudeCandidate = { source: claudeCodeFormat.name, ...one };
      const key = `${c.source}:${c.path}`;
      if (candidates.has(key)) continue;
      candidates.set(key, { source: c.source, path: c.path, analyse: (...args) => analyseClaude(c, ...args) });
      machineOf.set(key, rootMachine(roots, root));
    }
  }
  for (const root of roots.codex) {
    const found = await discoverCodexSessions(path.resolve(root));
    skipped.push(...found.skipped);
    for (const { path: file } of found.candidates) {
      const key = `${codexFormat.name}:${file}`;
      if (candidates.has(key)) continue;
      candidates.set(key, { source: codexFormat.name, path: file, analyse: (...args) => analyseCodex(file, ...args) });
      machineOf.set(key, rootMachine(roots, root));
    }
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
  let startedBytes = 0;
  let big: Promise<unknown> = Promise.resolve();
  const analyseAt = async (i: number): Promise<Analysed | { skip: string }> => {
    const c = ordered[i]!;
    const size = statSync(c.path, { throwIfNoEntry: false })?.size ?? 0;
    onProgress?.(started, ordered.length, path.basename(c.path), startedBytes);
    started += 1;
    startedBytes += size;
    const run = () => c.analyse(window, remember, keepIndex(c.path), pricing);
    if (size < PARALLEL_MIN_BYTES) return run();
    const alone = big.then(run);
    big = alone.catch(() => undefined);
    return alone;
  };
  await inLanes(ordered, ANALYSIS_LANES, async (_, i) => {
    analysed[i] = analyseAt(i);
    await analysed[i].catch(() => undefined);
  });
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
      counted: result.counted,
      machine: machineOf.get(`${c.source}:${c.path}`),
    });
  }
  onProgress?.(ordered.length, ordered.length, "analysed", startedBytes);
  const unique = await dedupe(selected, skipped, (file) => remember("sha256", file, () => sha256File(file)));
  // Fork fingerprints cost more than the rest of a Codex analysis: only forks and their
  // ancestors get them, in a second pass over just those files (issue 13).
  const needed = sessionsNeedingForkHistory(unique);
  for (const s of unique) {
    const forkHistory = sourceFormat(s.source)?.forkHistory;
    if (forkHistory !== undefined && needed.has(s.sourceSessionId)) s.fork = await remember("fork", s.sourcePath, () => forkHistory(s.sourcePath));
  }
  const kept = applyForkInheritance(unique, skipped);
  // An agent session remembered as unchanged keeps the workspace file it has: none when the workspace is cleared.
  const agents = await planAgentsByMachine(roots, (agentRoots, fresh) => planAgentSessions(agentRoots, window, workspaceRoot, (label) => onProgress?.(ordered.length, ordered.length, label, startedBytes), fresh || cleared ? undefined : memo, roots.origins));
  skipped.push(...agents.skipped);
  const apart = await apartByMachine([...kept, ...agents.sessions], workspaceRoot, agents.replan);
  return { sessions: rejectFilenameCollisions(apart, skipped), skipped, warnings: agents.warnings };
}

async function analyseClaude(
  c: ClaudeCandidate,
  window: ReportWindow,
  remember: NonNullable<PlanMemo>["remember"],
  onIndex: (index: LineIndex) => void,
  pricing?: UsagePricing,
): Promise<Analysed | { skip: string }> {
  const counter = pricing ? new UsageCounter(c.source) : null;
  const read: { index?: LineIndex } = {};
  let counted: CountedSource | undefined;
  // Only the file's own facts are remembered: its attachments are re-listed on every run.
  const analysis = await remember("analysis", c.path, async () => {
    const onRecord = counter ? counter.line.bind(counter) : undefined;
    const a = await analyzeClaudeTranscript(c.path, window, { onIndex: (index) => ((read.index = index), onIndex(index)), onRecord });
    if (counter && pricing && a.recordsGiven && read.index) counted = await withSubagents(counter, c.subagents, pricing, read.index);
    return {
      isSidechain: a.isSidechain,
      projectRoot: a.projectRoot,
      lineCount: a.lineCount,
      turns: a.turns.map((t) => ({ turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line })),
    };
  });
  if (analysis.isSidechain) return { skip: "subagent transcript (isSidechain records) with no parent session found" };
  if (analysis.turns.length === 0) return { skip: window ? "no human trigger inside the report window" : "no human trigger (no user turn to index)" };
  const sessionDir = path.join(path.dirname(c.path), c.sessionId);
  return {
    sourceSessionId: c.sessionId,
    projectRoot: analysis.projectRoot,
    lineCount: analysis.lineCount,
    turns: analysis.turns,
    counted,
    attachments: [
      ...c.subagents.map((p) => ({ sourcePath: p, relative: path.join("subagents", path.basename(p)) })),
      ...c.toolResults.map((p) => ({ sourcePath: p, relative: isInside(p, sessionDir) ? path.relative(sessionDir, p) : path.join("tool-results", path.basename(p)) })),
    ],
  };
}

/**
 * The usage of a session whose main transcript `counter` counted (from `main`'s bytes), its
 * subagent transcripts read after it in the order the workspace lists their copies
 * (`subagents/<name>`, by name); undefined when one cannot be read (the catalog then counts).
 */
async function withSubagents(counter: UsageCounter, subagents: string[], pricing: UsagePricing, main: LineIndex): Promise<CountedSource | undefined> {
  const byName = subagents.map((p) => ({ path: p, name: path.basename(p) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const read: { name: string; size: number }[] = [];
  try {
    for (const s of byName) read.push({ name: s.name, size: await counter.readSubagent(s.path) });
  } catch {
    return undefined;
  }
  return { usage: counter.tally(pricing.table), size: main.size, mtimeMs: main.mtimeMs, subagents: subagentsSignature(read), pricingStamp: pricing.stamp };
}

async function analyseCodex(
  filePath: string,
  window: ReportWindow,
  remember: NonNullable<PlanMemo>["remember"],
  onIndex: (index: LineIndex) => void,
  pricing?: UsagePricing,
): Promise<Analysed | { skip: string }> {
  const counter = pricing ? new UsageCounter(codexFormat.name) : null;
  const read: { index?: LineIndex } = {};
  // The usage counts only when the pass gave every line, in order, on this thread.
  let seen = 0;
  let inOrder = true;
  let counted: CountedSource | undefined;
  const result = await remember("analysis", filePath, async () => {
    const onRecord: CodexRecordSink | undefined = counter
      ? (line, record, timestampMs, bytes, start, end) => {
          inOrder &&= line === seen + 1;
          seen = line;
          if (record !== null) counter.line(line, record, timestampMs, bytes, start, end);
        }
      : undefined;
    const selection = await selectCodexSession(filePath, window, { fingerprints: false, onIndex: (index) => ((read.index = index), onIndex(index)), onRecord });
    if ("skip" in selection) return selection;
    const { fork: _none, ...selected } = selection.selected;
    if (counter && pricing && read.index && inOrder && seen === selected.lineCount) counted = { usage: counter.tally(pricing.table), size: read.index.size, mtimeMs: read.index.mtimeMs, subagents: "", pricingStamp: pricing.stamp };
    return { ...selected, attachments: [] };
  });
  return "skip" in result ? result : { ...result, counted };
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
    // Two machines' copies of a session are each their machine's record (issue 39): apart.
    const key = `${s.source}/${s.sourceSessionId}`;
    const group = `${s.machine ?? ""}\u0000${key}`;
    groups.set(group, [...(groups.get(group) ?? []), s]);
  }
  const kept: PlannedSession[] = [];
  for (const group of groups.values()) {
    const first = group[0]!;
    const key = `${first.source}/${first.sourceSessionId}`;
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
