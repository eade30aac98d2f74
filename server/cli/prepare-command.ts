import path from "node:path";

import cliProgress from "cli-progress";

import { createCoreContext, stderrLogger } from "@/lib/context";
import { registerControlPlaneRoots } from "@/lib/sources/control-plane/projects";
import { prepareWorkspace, type PrepareSummary } from "@/lib/workspace/prepare";
import { allRoots, readSources, type AgentRoots, type WorkspaceSources } from "@/lib/workspace/sources";
import { withWorkspaceLock } from "@/lib/workspace/sync";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { resolveSourceRoots } from "@/server/cli/source-roots";

// The roots' rules live in source-roots.ts (push loads them without prepare's modules); re-exported for start-command.
export { defaultClaudeRoots, defaultCodexRoots, resolveSourceRoots } from "@/server/cli/source-roots";

export type PrepareFlags = { workspace: string; claude?: string[]; codex?: string[]; agents?: AgentRoots; exports?: string[]; controlPlane?: string[]; date?: string; timezone?: string; force: boolean; json: boolean };

/**
 * `casefile prepare`: prepares the workspace (all time: as an incremental sync that records its
 * source roots as the workspace's sources, `casefile sources`), and prints a summary (projects, sessions, turns, lines, skipped files
 * with reasons), or `{ok:true,data:summary}` with --json. Shows a progress bar on a TTY.
 * @throws AppError invalid_input when no source is given or found.
 */
export async function runPrepare(flags: PrepareFlags): Promise<number> {
  // `--control-plane ROOT` alone prepares no transcripts (an explicit, empty transcript source list).
  const onlyControlPlane = Boolean(flags.controlPlane?.length) && !flags.claude?.length && !flags.codex?.length && !Object.values(flags.agents ?? {}).some((r) => r.length > 0);
  const { claudeRoots, codexRoots, agentRoots } = onlyControlPlane ? { claudeRoots: [], codexRoots: [], agentRoots: {} } : resolveSourceRoots(flags);
  const agents = Object.keys(agentRoots).length > 0 ? { agents: agentRoots } : {};
  const ctx = createCoreContext(flags.workspace, { log: stderrLogger });
  // Adding a Control Plane root to a workspace that already syncs transcripts keeps its sources.
  const recorded = await readSources(flags.workspace);
  const keepRecorded = onlyControlPlane && recorded !== null;
  const controlPlane = flags.controlPlane?.length ? await registerControlPlaneRoots(ctx, flags.controlPlane.map((p) => path.resolve(p))) : null;
  const bar = process.stderr.isTTY && !flags.json ? new cliProgress.SingleBar({ format: "preparing {bar} {value}/{total} {label}", stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  let started = false;
  const exportRoots = (flags.exports ?? []).map((p) => path.resolve(p));
  // The sources are recorded, so every later start (and a running dashboard) keeps syncing from them.
  const onProgress = (done: number, total: number, label: string) => {
    if (!bar) return;
    if (!started) {
      bar.start(total, done, { label });
      started = true;
    }
    // The catalog's phase counts sessions, not source files.
    if (bar.getTotal() !== total) bar.setTotal(total);
    bar.update(done, { label: label.slice(0, 40) });
  };
  // All time (the default) goes through the sync, which records the roots as the workspace's
  // sources and remembers what it read, so the next start or a running dashboard reads only
  // what changes. A day window is prompt-diary's one-off shape: prepared as before.
  // The usage the analysis counts of the sessions it copies is handed to the catalog's rows (no second read).
  // The workspace pipeline (lib/pipeline): the sync, then the catalog's rows (issue 25),
  // incrementally. The full-text index is filled by the dashboard in the background (a one-shot
  // search fills it first), and so is the warm-up of big sessions (issue 36: never on the path
  // to the first page).
  const day = Boolean(flags.date || flags.timezone);
  const pipeline = new WorkspacePipeline(ctx, { sync: !day, warm: "skip", retryMs: 0, onProgress });
  const summary = day
    ? await withWorkspaceLock(flags.workspace, () => prepareWorkspace(ctx, { claudeRoots, codexRoots, agentRoots, exportRoots, date: flags.date, timezone: flags.timezone, force: flags.force, onProgress }))
    : null;
  const run = await pipeline.request(day ? {} : { sources: keepRecorded ? undefined : { claude: claudeRoots, codex: codexRoots, ...agents, demo: false }, exportRoots, force: flags.force });
  bar?.stop();
  // Recorded sources replaced by this run (e.g. no source flags: the defaults): say so, and how to undo it.
  const changed = !(flags.date || flags.timezone) && !keepRecorded && recorded ? sourcesChange(recorded, { claude: claudeRoots, codex: codexRoots, ...agents }, flags.workspace) : null;
  if (changed) process.stderr.write(changed.message);
  const prepared = summary ?? run.sync!;
  const data = { ...prepared, ...(controlPlane ? { control_plane: controlPlane.projects } : {}), ...(changed ? { sources_changed: { before: changed.before, after: changed.after, undo: changed.undo } } : {}) };
  const cpLines = (controlPlane?.projects ?? []).map((p) => `  ${p.project_key}  Control Plane root ${p.root}, ${p.ledgers} ledger(s), read in place\n`).join("");
  process.stdout.write(flags.json ? `${JSON.stringify({ ok: true, data })}\n` : renderSummary(prepared) + cpLines);
  return 0;
}

type Roots = Omit<WorkspaceSources, "demo">;

/**
 * How a prepare changed the workspace's recorded sources (issue 26: `prepare --workspace W` with
 * no source flags replaced them with the defaults without a word): the lists before and after,
 * the `casefile sources` commands that restore the old ones, and the notice printed on stderr.
 * Null when nothing changed.
 */
export function sourcesChange(before: Roots, after: Roots, workspace: string): { before: Roots; after: Roots; undo: string[]; message: string } | null {
  const undo: string[] = [];
  const ws = `--workspace ${quote(workspace)}`;
  const rootsBefore = allRoots({ ...before, demo: false });
  const rootsAfter = allRoots({ ...after, demo: false });
  const has = (list: typeof rootsBefore, r: (typeof rootsBefore)[number]) => list.some((x) => x.kind === r.kind && x.root === r.root);
  for (const r of rootsAfter) if (!has(rootsBefore, r)) undo.push(`casefile sources remove ${quote(r.root)} ${ws}`);
  for (const r of rootsBefore) if (!has(rootsAfter, r)) undo.push(`casefile sources add --${r.kind} ${quote(r.root)} ${ws}`);
  if (undo.length === 0) return null;
  const list = (r: Roots) => allRoots({ ...r, demo: false }).map((x) => `${x.kind} ${x.root}`).join(", ") || "none";
  const message = `note: this prepare replaced the workspace's recorded sources\n  before: ${list(before)}\n  now:    ${list(after)}\nto restore them:\n${undo.map((c) => `  ${c}\n`).join("")}`;
  return { before: { claude: before.claude, codex: before.codex, ...(before.agents ? { agents: before.agents } : {}) }, after, undo, message };
}

const quote = (p: string): string => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replaceAll("'", "'\\''")}'`);

/** Human summary of a prepare run. */
export function renderSummary(s: PrepareSummary): string {
  const lines = [
    `workspace ${s.workspace} (${s.window.kind === "all" ? "all time" : `${s.window.date} ${s.window.timezone}`})`,
    `${s.projects.length} project(s), ${s.sessions} session(s), ${s.turns} turn(s), ${s.lines} line(s); ${s.unchanged ? "nothing changed" : `${s.files_written} file(s) written`}`,
    ...s.projects.map((p) => `  ${p.project_key}  ${p.sessions} session(s), ${p.turns} turn(s)`),
  ];
  if (s.skipped.length > 0) {
    lines.push(`skipped ${s.skipped.length} file(s):`);
    for (const k of s.skipped) lines.push(`  ${k.path}: ${k.reason}`);
  }
  const warnings = s.warnings ?? [];
  if (warnings.length > 0) {
    lines.push(`${warnings.length} warning(s) while reading:`);
    for (const w of warnings.slice(0, 20)) lines.push(`  ${w.file} ${w.where}: ${w.problem}`);
    if (warnings.length > 20) lines.push(`  … ${warnings.length - 20} more (--json lists them all)`);
  }
  if (s.exports.found > 0) lines.push(`chat exports: ${s.exports.paired} paired by Workscope ID, ${s.exports.unpaired.length} unpaired`);
  for (const u of s.exports.unpaired) lines.push(`  ${u.path}: ${u.reason}`);
  return `${lines.join("\n")}\n`;
}
