/** `prepare` (contract §1.1–1.5): sources discovered, sessions selected, the schema-3 workspace written. */
import { statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { inLanes } from "@/lib/async/lanes";
import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { fileStamp } from "@/lib/fs/file-stamp";
import { configPath, derivedPath, metadataPath, projectDir as projectDirOf, projectJsonPath, projectsDir, REBUILT_ENTRIES, sessionsDir, sessionsIndexPath, stagingDir } from "@/lib/fs/workspace-layout";
import { adoptLineIndex, getLineIndex } from "@/lib/jsonl/line-index";
import { textRecords } from "@/lib/jsonl/text-lines";
import { dayWindow } from "@/lib/sources/common/window";
import { buildMetadata, sameTarget, type PrepareTarget } from "@/lib/workspace/metadata";
import { planSources, type CountedSource, type PlanMemo, type PlannedSession, type PlanProgress, type SkippedFile, type UsagePricing } from "@/lib/workspace/prepare-plan";
import { serializeIndex, assignRefs, type ExistingRows } from "@/lib/workspace/prepare-refs";
import type { IndexRow } from "@/lib/workspace/schema";
import { copyIfChanged, StagedCopies } from "@/lib/workspace/copy";
import { attachExports, type ExportsSummary } from "@/lib/workspace/prepare-exports";
import { discardStagedAgentLines, placeAgentSession } from "@/lib/workspace/prepare-agents";
import type { CountedUsages } from "@/lib/workspace/session-usage";
import { pricingStamp } from "@/lib/workspace/session-usage";
import { localMachine, readSessionMachines, writeSessionMachines } from "@/lib/workspace/machines";
import { pricingOverrideFile, type AgentRoots, type RootMachines, type RootOrigins } from "@/lib/workspace/sources";
import type { SourceWarning } from "@/lib/sources/common/agent-source";
import { loadPricing } from "@/lib/usage/pricing";

export type PrepareOptions = {
  /** Claude Code sources: a projects root, one project directory or one `.jsonl` file each. */
  claudeRoots: string[];
  /**
   * Codex sources: a `sessions` root (`YYYY/MM/DD/rollout-*.jsonl`), `archived_sessions`, a
   * Codex home (`~/.codex`: both folders), any directory of `.jsonl` files, or one file.
   */
  codexRoots?: string[];
  /** The other agents' roots (issue 38), by agent: see each agent's `discover` in lib/sources/<agent>. */
  agentRoots?: AgentRoots;
  /** The machine of each root that is not the local machine's (issue 39, lib/workspace/sources); each session records its root's. */
  machines?: RootMachines;
  /** Where each pushed root is on its machine (issue 39, lib/workspace/sources `RootOrigins`): project roots found inside it are named by it. */
  origins?: RootOrigins;
  /** `--exports DIR`: folders (or `.txt` files) of `/export` chat exports, paired by Workscope ID (seed 003 Q2). */
  exportRoots?: string[];
  /** `--date D --timezone TZ`: prompt-diary's one-day window. Both or neither. */
  date?: string;
  timezone?: string;
  force?: boolean;
  onProgress?: PlanProgress;
  /** Remembered per-file work of earlier runs (the incremental sync); without it every file is read. */
  memo?: PlanMemo;
  /**
   * Filled with the usage of each session copied in this run whose analysis counted it (one read
   * on this thread; a Claude Code session's subagent transcripts counted after it): the catalog
   * refresh that follows takes it instead of reading the copy again (issue 25).
   */
  counted?: CountedUsages;
};

export type PrepareSummary = {
  workspace: string;
  window: { kind: "all" } | { kind: "day"; date: string; timezone: string };
  projects: { project_key: string; project_label: string; sessions: number; turns: number }[];
  sessions: number;
  turns: number;
  lines: number;
  files_written: number;
  unchanged: boolean;
  skipped: SkippedFile[];
  /** Chat exports found beside the transcripts or under `--exports`, paired and unpaired. */
  exports: ExportsSummary;
  /** What the other agents' readers could not read in files that were prepared (a malformed line, a locked database), each naming the file and where. */
  warnings: SourceWarning[];
};

/**
 * `prepare` (contract §1.1–1.5): discovers Claude Code and Codex sources, selects sessions
 * (§1.8) and writes a schema-3 workspace: metadata.json, projects/<key>/{project.json,
 * sessions.index.jsonl}, byte copies under sessions/<source>/, and the attached subagent and
 * tool-result files beside them (sessions/<source>/<stem>/{subagents,tool-results}/), and the
 * chat exports paired by Workscope ID (sessions/<source>/<stem>/exports/, seed 003 Q2).
 * Re-running on unchanged sources writes nothing; refs of sessions already in the index are
 * kept and new sessions get the next free S-number. `force` rebuilds the workspace from scratch
 * (deleting it only after every source parsed). Line indexes are built for every copied file so
 * the first read is warm.
 * @throws AppError invalid_input (bad date/timezone, mismatching existing workspace),
 *   parse_error (an existing workspace file is malformed).
 */
export async function prepareWorkspace(ctx: CoreContext, options: PrepareOptions): Promise<PrepareSummary> {
  const target = resolveTarget(options);
  const root = ctx.workspaceRoot;
  const metadata = buildMetadata(target, ctx.now(), Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  const existingMeta = options.force ? null : await readJsonObject(metadataPath(root));
  if (existingMeta) {
    const mismatches = sameTarget(existingMeta, metadata, target);
    if (mismatches.length > 0) {
      throw new AppError("invalid_input", `Existing workspace ${root} does not match the requested target (${mismatches.join("; ")}).`, {
        hint: "run casefile prepare again with --force to rebuild it, or choose another --workspace",
      });
    }
  }
  // A fresh or forced workspace copies every selected session: large sources start copying on
  // the other core while they are analysed (issue 13). An incremental run copies only what
  // changed, so it stages nothing.
  const staging = existingMeta === null ? new StagedCopies(stagingDir(root)) : null;
  try {
    return await prepareInto(ctx, options, target, metadata, existingMeta, staging);
  } finally {
    await staging?.dispose();
    await discardStagedAgentLines(root);
  }
}

/** Sources at least this large are copied while they are analysed (see {@link StagedCopies}). */
const STAGE_MIN_BYTES = 16 << 20;

async function prepareInto(
  ctx: CoreContext,
  options: PrepareOptions,
  target: PrepareTarget,
  metadata: ReturnType<typeof buildMetadata>,
  existingMeta: Record<string, unknown> | null,
  staging: StagedCopies | null,
): Promise<PrepareSummary> {
  const root = ctx.workspaceRoot;
  const onRead = staging ? (file: string) => (statSync(file, { throwIfNoEntry: false })?.size ?? 0) >= STAGE_MIN_BYTES && staging.stage(file) : undefined;
  const plan = await planSources({ claude: options.claudeRoots, codex: options.codexRoots ?? [], agents: options.agentRoots, machines: options.machines, origins: options.origins }, target.kind === "day" ? target.window : null, root, options.onProgress, options.memo, onRead, options.counted ? await usagePricing(root) : undefined, options.force === true);
  const exports = await attachExports(plan.sessions, options.claudeRoots, options.exportRoots ?? []);
  if (options.force) await clearWorkspace(root);
  let written = 0;
  const byProject = groupByProject(plan.sessions);
  const projects: PrepareSummary["projects"] = [];
  let turns = 0;
  let lines = 0;
  // A few projects at once: each ends with durable writes (project.json, its index), whose fsyncs
  // one after another left this thread waiting ~0.3 s of a 2,000-session prepare (issue 38).
  const entries = [...byProject];
  const results = new Map<string, Awaited<ReturnType<typeof writeProject>>>();
  await inLanes(entries, PROJECT_LANES, async ([projectKey, sessions]) => void results.set(projectKey, await writeProject(ctx, projectKey, sessions, options, staging)));
  for (const [projectKey, sessions] of entries) {
    const done = results.get(projectKey)!;
    written += done.written;
    lines += done.lines;
    const projectTurns = done.rows.reduce((n, r) => n + r.turns.length, 0);
    turns += projectTurns;
    projects.push({ project_key: projectKey, project_label: sessions[0]!.projectLabel, sessions: done.rows.length, turns: projectTurns });
  }
  await fs.mkdir(projectsDir(root), { recursive: true });
  const metaPath = metadataPath(root);
  if (!existingMeta || written > 0) {
    await writeFileAtomic(metaPath, toPrettyJson(metadata));
    written += 1;
  }
  return {
    workspace: root,
    window: target.kind === "all" ? { kind: "all" } : { kind: "day", date: target.date, timezone: target.timezone },
    projects: projects.sort((a, b) => a.project_key.localeCompare(b.project_key)),
    sessions: plan.sessions.length,
    turns,
    lines,
    files_written: written,
    unchanged: written === 0,
    skipped: plan.skipped,
    exports,
    warnings: plan.warnings,
  };
}

/** Sessions {@link writeProject} copies at once. */
const COPY_LANES = 4;
/** Projects written at once. */
const PROJECT_LANES = 4;

/**
 * Writes one project: its `project.json`, each session's copy (and attachments, copied side by
 * side; {@link COPY_LANES} sessions at once) with its line index, then its
 * `sessions.index.jsonl`. Returns the files written, the physical lines and the index rows. An
 * index the analysis built is adopted while the next files are copied and the rows written
 * (their fsyncs overlap), and every adoption is settled before this returns or throws; an index
 * still to build is built in its session's turn.
 * @throws the fs error of a copy, a write or an adoption.
 */
async function writeProject(
  ctx: CoreContext,
  projectKey: string,
  sessions: PlannedSession[],
  options: PrepareOptions,
  staging: StagedCopies | null,
): Promise<{ written: number; lines: number; rows: IndexRow[] }> {
  const root = ctx.workspaceRoot;
  const adopting: Promise<unknown>[] = [];
  const write = async () => {
    let written = 0;
    let lines = 0;
    const projectDir = projectDirOf(root, projectKey);
    const label = sessions[0]!.projectLabel;
    written += await writeIfChanged(projectJsonPath(projectDir), toPrettyJson({ schema_version: 3, project_key: projectKey, project_label: label }));
    const existing: ExistingRows = options.force ? [] : await readExistingRows(sessionsIndexPath(projectDir));
    const local = localMachine();
    const recorded = options.force ? new Map<string, string>() : recordedMachines(projectDir);
    const rows = assignRefs(sessions, existing, (ref) => (ref === undefined ? local : (recorded.get(ref) ?? local)));
    // Each planned session's ref, by its workspace file (two machines' copies of a session have one id, two files).
    const refs = new Map(rows.map((r) => [r.session_path, r.session_ref]));
    const refOf = (s: PlannedSession) => refs.get(`sessions/${s.source}/${s.fileName}`);
    // The folders agent sessions were moved into (made once each).
    const madeDirs = new Set<string>();
    const copyOne = async (s: PlannedSession) => {
      const sessionFile = path.join(sessionsDir(projectDir), s.source, s.fileName);
      // An agent behind the source contract has its workspace file, written while planned, put in
      // place (issue 38), the others a byte copy.
      const copied = s.exported !== undefined ? await placeAgentSession(s, sessionFile, madeDirs) : await copyIfChanged(s.sourcePath, sessionFile, staging ?? undefined);
      written += copied;
      if (copied && s.counted && options.counted) handOverUsage(options.counted, projectKey, refOf(s), sessionFile, s.counted);
      const attachDir = path.join(sessionsDir(projectDir), s.source, path.basename(s.fileName, ".jsonl"));
      // Added after the await: `written` moves while this copy waits (other lanes).
      const attached = await copyAll(s.attachments.map((a) => [a.sourcePath, path.join(attachDir, a.relative)]));
      written += attached;
      // An unchanged copy already has its index (or gets it on first read): a sync stays stat-only.
      // The analysis pass already indexed the source: its copy adopts that index (issue 13); an
      // agent's session the index of the lines it was written from, with the file's own mtime.
      if (copied) {
        const cacheDir = derivedPath(root, "index");
        const placed = s.sourceIndex && s.exported !== undefined ? statSync(sessionFile) : undefined;
        const index = placed ? { ...s.sourceIndex!, mtimeMs: placed.mtimeMs } : s.sourceIndex;
        if (index) {
          const adopted = adoptLineIndex(sessionFile, cacheDir, index, placed);
          adopted.catch(() => undefined); // settled below: never an unhandled rejection meanwhile
          adopting.push(adopted);
        } else await getLineIndex(sessionFile, cacheDir);
      }
      lines += s.lineCount;
    };
    // A few sessions are copied at once: one at a time, each copy's round trips to the thread
    // pool (mkdir, copy, utimes, rename) left this thread waiting most of a sync of many small files.
    await inLanes(sessions, COPY_LANES, copyOne);
    written += await writeIfChanged(sessionsIndexPath(projectDir), serializeIndex(rows));
    // Each session's machine (issue 39): its root's; a kept row whose source is gone keeps what was recorded.
    const machines = new Map(rows.map((r) => [r.session_ref, recorded.get(r.session_ref) ?? local]));
    for (const s of sessions) {
      const ref = refOf(s);
      if (ref !== undefined) machines.set(ref, s.machine ?? local);
    }
    written += await writeSessionMachines(projectDir, machines);
    return { written, lines, rows };
  };
  let done;
  try {
    done = await write();
  } catch (error) {
    await Promise.allSettled(adopting);
    throw error;
  }
  for (const r of await Promise.allSettled(adopting)) if (r.status === "rejected") throw r.reason;
  return done;
}

/** The prices usage is counted with in the plan, or undefined when the override file cannot be read (the catalog then counts, and reports the error). */
async function usagePricing(root: string): Promise<UsagePricing | undefined> {
  // Stamped first: a file changed meanwhile leaves a stamp that no longer matches, never a wrong one.
  const stamp = pricingStamp(root);
  try {
    return { table: await loadPricing(pricingOverrideFile(root)), stamp };
  } catch {
    return undefined;
  }
}

/** Hands the usage counted from a session's source to the catalog, when its new copy is a copy of the bytes counted (same size and mtime). */
function handOverUsage(counted: CountedUsages, projectKey: string, sessionRef: string | undefined, copy: string, source: CountedSource): void {
  const st = statSync(copy, { throwIfNoEntry: false });
  // utimes keeps about a microsecond of precision (as copyIfChanged compares).
  if (!sessionRef || !st || st.size !== source.size || Math.abs(st.mtimeMs - source.mtimeMs) >= 1) return;
  counted.set(projectKey, sessionRef, { fileStamp: fileStamp(st), subagents: source.subagents, pricingStamp: source.pricingStamp, usage: source.usage });
}

/**
 * {@link copyIfChanged} of every `[source, target]` pair side by side (a session's many small
 * subagent and tool-result files); returns how many were copied.
 * @throws the first copy's fs error, once every copy has settled.
 */
async function copyAll(pairs: [string, string][]): Promise<number> {
  const results = await Promise.allSettled(pairs.map(([source, target]) => copyIfChanged(source, target)));
  let copied = 0;
  for (const r of results) {
    if (r.status === "rejected") throw r.reason;
    copied += r.value;
  }
  return copied;
}

function resolveTarget(options: PrepareOptions): PrepareTarget {
  if (!options.date && !options.timezone) return { kind: "all" };
  if (!options.date || !options.timezone) {
    throw new AppError("invalid_input", "--date and --timezone must be given together", { hint: "e.g. --date 2026-05-12 --timezone Asia/Shanghai" });
  }
  const day = dayWindow(options.date, options.timezone);
  return { kind: "day", date: options.date, timezone: options.timezone, window: { startMs: day.startMs, endMs: day.endMs }, local: day.local, utc: day.utc };
}

function groupByProject(sessions: PlannedSession[]): Map<string, PlannedSession[]> {
  const groups = new Map<string, PlannedSession[]>();
  for (const s of [...sessions].sort((a, b) => a.projectKey.localeCompare(b.projectKey))) {
    groups.set(s.projectKey, [...(groups.get(s.projectKey) ?? []), s]);
  }
  return groups;
}

async function writeIfChanged(file: string, content: string, options: { durable?: boolean } = {}): Promise<number> {
  // A file not there yet (each of a fresh workspace's) is not read first.
  try {
    if (statSync(file, { throwIfNoEntry: false }) && (await fs.readFile(file, "utf8")) === content) return 0;
  } catch {
    /* unreadable: write it */
  }
  await writeFileAtomic(file, content, options);
  return 1;
}

async function readJsonObject(file: string): Promise<Record<string, unknown> | null> {
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new AppError("invalid_input", `Existing workspace metadata is missing or invalid at ${file}.`, {
    path: file,
    hint: "run casefile prepare again with --force to refresh it",
  });
}

/** The machines recorded for the project's sessions; an unreadable record is rewritten from the plan (its kept rows then read as local). */
function recordedMachines(projectDir: string): ReadonlyMap<string, string> {
  try {
    return readSessionMachines(projectDir);
  } catch {
    return new Map();
  }
}

async function readExistingRows(indexPath: string): Promise<ExistingRows> {
  let raw: Buffer;
  try {
    raw = await fs.readFile(indexPath);
  } catch {
    return [];
  }
  return textRecords(raw)
    .filter((r) => r.text.trim() !== "")
    .map(({ line, text }) => {
      try {
        return JSON.parse(text) as ExistingRows[number];
      } catch {
        throw new AppError("parse_error", `${indexPath}:${line} contains invalid JSON`, { path: indexPath, line, hint: "fix the line or prepare with --force" });
      }
    });
}

async function clearWorkspace(root: string): Promise<void> {
  // Configuration an older Casefile kept in .casefile/ moves out before that folder goes.
  configPath(root, "sources.json");
  configPath(root, "control-plane.json");
  // A running dashboard may still write a derived file meanwhile (ENOTEMPTY): fs.rm retries those.
  for (const name of REBUILT_ENTRIES) await fs.rm(path.join(root, name), { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}
