/** A session's analysis and risk, cached in memory and under `.casefile/analysis/` per file version; the `analyze_session` tool body. */
import fs from "node:fs/promises";
import path from "node:path";

import type * as z from "zod";

import { analyzeSessionFile, type SessionSideFiles } from "@/lib/analysis/analyze-file";
import { readChatExport } from "@/lib/analysis/export-links";
import { analysisSummaryOf, tokenChartOf } from "@/lib/analysis/analysis-view";
import { analyzeSessionInputSchema, type AnalysisSummary, type AnalyzeSessionInput, type AnalyzeSessionResult, type ReadChatExportResult, type SessionAnalysis, type TokenChartData } from "@/lib/analysis/schema";
import { fileStamp } from "@/lib/fs/file-stamp";
import { RISK_LEVELS, type RiskLevel } from "@/lib/workspace/schema";
import type { CoreContext } from "@/lib/context";
import { sharedBuilds, stampedCache } from "@/lib/cache/stamped-cache";
import { processWide } from "@/lib/cache/process-wide";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { jsonChunks } from "@/lib/json/json-chunks";
import { inBackground } from "@/lib/jsonl/workers";
import { wholeNumber } from "@/lib/tools/input-fields";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import { tokenPointsOf } from "@/lib/usage/session-usage";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import { EXPORTS_SUBDIR, listSideFiles, listSubagents, resolveSession, sessionSideDir, type ResolvedSession } from "@/lib/workspace/sessions";

export type AnalyzeSessionInvalid = { status: "invalid"; errors: { field: string; message: string; hint: string }[] };

/** Bumped when the analysis output changes shape, so stale cache files are ignored (4: agent sessions read by their readers, issue 38). */
const CACHE_VERSION = 4;
/** Risk memo entries: many list rows share one process (each entry is a few dozen bytes). */
const MEMORY_ENTRIES = 2_000;
/**
 * Bytes of analyses kept in memory, counted as twice their JSON text (parsed objects take about
 * 1.4× the text; issue 13 §4). The analysis of a gigabyte session (~15 MB of JSON, ~21 MB of
 * objects) is larger than the budget, so it is never pinned in the server's heap: its cache file
 * serves it again (a JSON parse), while the analyses of ordinary sessions stay in memory.
 */
export const ANALYSIS_MEMORY_BYTES = 16 << 20;
const memory = stampedCache<SessionAnalysis>("analysis:analyses", ANALYSIS_MEMORY_BYTES);

/**
 * The analysis of one resolved session (seed 003), cached per file version: the key is the
 * session file's size and mtime plus its side files (tool-results, subagents, exports) and the
 * threshold. Warm hits cost a few stats; cold results are also written under
 * `.casefile/analysis/` so a restarted server stays fast.
 * @throws the fs error when the session file cannot be read.
 */
export async function getSessionAnalysis(ctx: CoreContext, session: ResolvedSession, threshold: number): Promise<SessionAnalysis> {
  const { stamp, side } = await analysisStamp(session, threshold);
  return analysisFor(ctx, session, threshold, side, stamp);
}

/** What an analysis depends on: the session file's size and mtime, its side files and the threshold. */
async function analysisStamp(session: ResolvedSession, threshold: number): Promise<{ stamp: string; side: SessionSideFiles }> {
  const st = await fs.stat(session.filePath);
  const side = await sideFiles(session);
  return { stamp: JSON.stringify([CACHE_VERSION, st.size, st.mtimeMs, threshold, side.toolResultFiles, side.hasSubagents, side.export]), side };
}

async function analysisFor(ctx: CoreContext, session: ResolvedSession, threshold: number, side: SessionSideFiles, stamp: string): Promise<SessionAnalysis> {
  const key = session.filePath;
  const hit = memory.get(key, stamp);
  if (hit) return hit;
  // One build per file version however many callers ask at once (the Analysis page's summary and
  // its chart's fetch both ask a cold server for a gigabyte session's analysis).
  return analysisBuilds.run(`${key}\n${stamp}`, () => buildAnalysis(ctx, session, threshold, side, stamp));
}

const analysisBuilds = sharedBuilds<SessionAnalysis>("analysis:analyses");

async function buildAnalysis(ctx: CoreContext, session: ResolvedSession, threshold: number, side: SessionSideFiles, stamp: string): Promise<SessionAnalysis> {
  const key = session.filePath;
  const diskFile = analysisFile(ctx, session, `${threshold}.json`);
  const disk = await readCache<SessionAnalysis>(diskFile, stamp, "analysis");
  let analysis: SessionAnalysis;
  let textBytes: number;
  if (disk) ({ value: analysis, textBytes } = disk);
  else {
    // The token chart draws what lib/usage counted (issue 28: one message once, with its final
    // usage); its pass runs beside the analysis' own (issue 29: a cold gigabyte session waited for both in turn).
    const counted = transcriptFormat(session.row.source) !== null;
    const [scanned, usage] = await Promise.all([analyzeSessionFile(session.filePath, session.row.source, threshold, side), counted ? readSessionUsage(ctx, session) : null]);
    analysis = usage ? { ...scanned, token_points: tokenPointsOf(usage) } : scanned;
    textBytes = await writeCache(diskFile, { stamp, analysis });
  }
  memory.set(key, stamp, analysis, 2 * textBytes);
  return analysis;
}

/** `.casefile/analysis/<project_key>--<session_ref>--<suffix>`: this module's files. */
function analysisFile(ctx: CoreContext, session: ResolvedSession, suffix: string): string {
  return derivedPath(ctx.workspaceRoot, "analysis", `${session.project.projectKey}--${session.row.session_ref}--${suffix}`);
}

/**
 * Writes `value` as JSON to `file` piece by piece (a gigabyte session's analysis is never held as
 * one text) and returns its length in characters. A cache that cannot be written is skipped (the length is
 * then counted without writing).
 */
async function writeCache(file: string, value: object): Promise<number> {
  let chars = 0;
  function* counted() {
    for (const chunk of jsonChunks(value)) {
      chars += chunk.length;
      yield chunk;
    }
  }
  try {
    await writeFileAtomic(file, counted());
    return chars;
  } catch {
    chars = 0;
    for (const chunk of jsonChunks(value)) chars += chunk.length;
    return chars;
  }
}

type SessionRisk = { risk_level: RiskLevel; reset_count: number };
/** Bytes a remembered risk counts: the object, its stamp and a session file path as its key. */
const RISK_BYTES = 512;

/**
 * Risks by session file, for one file version (stamp) each; a build is shared per file version: a
 * cold project page and its session list's fetch (a server component and a route handler, two
 * copies of this module) each ran the analysis of the same gigabyte session at once (issue 13:
 * server RSS). A risk counts {@link RISK_BYTES} bytes.
 */
const riskMemo = stampedCache<SessionRisk>("analysis:risk-memo", MEMORY_ENTRIES * 5 * RISK_BYTES);
/** The file version (stamp) whose background risk analysis failed, per file ({@link getSessionRiskIfReady} then waits for that version). */
const riskFailed = processWide("analysis:risk-failed", () => new Map<string, string>());
/** The background risk analysis of each large session file: when it started, and whether it still runs. */
const riskRefresh = processWide("analysis:risk-refresh", () => new Map<string, { startedAt: number; running: boolean }>());

/**
 * Risk and reset count for a `list_sessions` row (seed 003 risk scoring, default threshold). Resets
 * depend on the session file alone, so a warm hit costs one `stat` (no side-folder listing). They
 * are also kept in `.casefile/analysis/<project_key>--<session_ref>--risk.json`, so a restarted
 * server lists a gigabyte session without parsing its analysis; a miss there runs
 * {@link getSessionAnalysis}, once per file version however many callers ask meanwhile.
 * @throws the fs error when the session file cannot be read.
 */
export async function getSessionRisk(ctx: CoreContext, session: ResolvedSession): Promise<SessionRisk> {
  const st = await fs.stat(session.filePath);
  const stamp = `${CACHE_VERSION}:${fileStamp(st)}`;
  return riskMemo.getOrBuild(session.filePath, stamp, async () => ({ value: await computeRisk(ctx, session, stamp), bytes: RISK_BYTES }));
}

/**
 * Session files from this size on are not waited for by {@link getSessionRiskIfReady}: their
 * seed 003 analysis takes about a second per 500 MB on two cores, too long for a list to wait.
 */
export const RISK_WAIT_MAX_BYTES = 64 << 20;

/** How long a large session's earlier risk is served before its analysis runs again (a live session grows every few seconds). */
export const RISK_REFRESH_MS = 30_000;

/**
 * {@link getSessionRisk}, except for a file of at least {@link RISK_WAIT_MAX_BYTES} whose risk
 * for its current size and mtime is neither in memory nor in its risk file: that is not waited
 * for. Its analysis is started in the background and the risk of an earlier version of the file
 * is returned when one is known (a session that grew since), else `"pending"`; a later call finds
 * the result. At most one background analysis runs per file, and one whose earlier risk is known
 * starts at most every {@link RISK_REFRESH_MS} ms, so a live gigabyte session polled by the
 * dashboard is not re-analysed on every poll. After a failed background analysis, the next call
 * for that file version waits for a new one, as getSessionRisk. A one-shot process
 * (`ctx.oneShot`: the CLI) waits, as for a small file.
 * @throws the fs error when the session file cannot be read.
 */
export async function getSessionRiskIfReady(ctx: CoreContext, session: ResolvedSession): Promise<SessionRisk | "pending"> {
  const st = await fs.stat(session.filePath);
  if (st.size < RISK_WAIT_MAX_BYTES || ctx.oneShot) return getSessionRisk(ctx, session);
  const stamp = `${CACHE_VERSION}:${fileStamp(st)}`;
  const hit = riskMemo.latest(session.filePath);
  if (hit && hit.stamp === stamp) return hit.value;
  const stored = await readStoredRisk(analysisFile(ctx, session, "risk.json"));
  if (stored && stored.stamp === stamp) {
    riskMemo.set(session.filePath, stamp, stored.risk, RISK_BYTES);
    return stored.risk;
  }
  if (riskFailed.get(session.filePath) === stamp) return getSessionRisk(ctx, session);
  const known = hit?.value ?? stored?.risk ?? null;
  const now = ctx.now().getTime();
  const last = riskRefresh.get(session.filePath);
  if (last === undefined || (!last.running && (known === null || now - last.startedAt >= RISK_REFRESH_MS))) {
    const run = { startedAt: now, running: true };
    riskRefresh.set(session.filePath, run);
    void inBackground(() => getSessionRisk(ctx, session))
      .then(() => riskFailed.delete(session.filePath), () => riskFailed.set(session.filePath, stamp))
      .finally(() => (run.running = false));
  }
  return known ?? "pending";
}

async function computeRisk(ctx: CoreContext, session: ResolvedSession, stamp: string): Promise<SessionRisk> {
  const riskFile = analysisFile(ctx, session, "risk.json");
  let risk = await readRiskCache(riskFile, stamp);
  if (!risk) {
    const a = await getSessionAnalysis(ctx, session, analyzeSessionInputSchema.shape.threshold.parse(undefined));
    risk = { risk_level: a.risk_level, reset_count: a.reset_count };
    await writeFileAtomic(riskFile, JSON.stringify({ stamp, risk })).catch(() => undefined);
  }
  return risk;
}

/**
 * `analyze_session {project_key, session_ref, threshold?}` (issue 10): context resets, risk,
 * token progression, reads with persistence and "reset before use", markers, Workscope ID and
 * the paired export. Unknown project/session → the seeds' `invalid` result.
 */
export async function analyzeSession(ctx: CoreContext, input: unknown): Promise<AnalyzeSessionResult | AnalyzeSessionInvalid> {
  const parsed = analyzeSessionInputSchema.safeParse(input);
  if (!parsed.success) {
    return { status: "invalid", errors: parsed.error.issues.map((i) => ({ field: i.path.join(".") || "input", message: i.message, hint: "pass {project_key, session_ref, threshold?}" })) };
  }
  const { project_key, session_ref, threshold } = parsed.data;
  const resolved = await resolveSession(ctx, project_key, session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const analysis = await getSessionAnalysis(ctx, resolved.session, threshold);
  return { status: "ok", project_key, session_ref, ...analysis };
}

/** Input of the Analysis tab's reads: `analyze_session`'s, plus how many rows of each table (`rows`, default all). */
export const analysisViewInputSchema = analyzeSessionInputSchema.extend({ rows: wholeNumber().min(1).max(1_000_000).optional() });

/**
 * `read_analysis_summary` (dashboard, issue 29): {@link analysisSummaryOf} the session's analysis
 * (its figures, each table's first `rows` rows and its length), so a page does not carry a
 * gigabyte session's whole analysis. Unknown project/session → `invalid`.
 */
export async function readAnalysisSummary(ctx: CoreContext, input: z.infer<typeof analysisViewInputSchema>): Promise<({ status: "ok"; project_key: string; session_ref: string } & AnalysisSummary) | AnalyzeSessionInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const rows = input.rows ?? null;
  const summary = await analysisView(ctx, resolved.session, input.threshold, `summary:${rows}`, (a) => analysisSummaryOf(a, rows));
  return { status: "ok", project_key: input.project_key, session_ref: input.session_ref, ...summary };
}

/**
 * `read_token_chart` (dashboard, issue 29): the token chart's thinned series as columns and its
 * reset markers ({@link tokenChartOf}), what the Analysis page streams to its chart; served from
 * its stored view when there is one. Unknown project/session → `invalid`.
 */
export async function readTokenChart(ctx: CoreContext, input: AnalyzeSessionInput): Promise<({ status: "ok"; project_key: string; session_ref: string } & TokenChartData) | AnalyzeSessionInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const chart = await analysisView(ctx, resolved.session, input.threshold, "chart", (a) => tokenChartOf(a));
  return { status: "ok", project_key: input.project_key, session_ref: input.session_ref, ...chart };
}

/**
 * Views of an analysis (the chart's columns, a summary with cut tables: tens of KB) kept in memory
 * per file version: a gigabyte session's whole analysis (~10–15 MB of JSON) is over the memory
 * budget, so without them every Analysis page read its cache file and parsed it twice (issue 29).
 * A view's bytes are counted as twice its JSON text.
 */
const views = stampedCache<object>("analysis:views", ANALYSIS_MEMORY_BYTES);

/**
 * A view's JSON up to this many characters is also stored beside the analysis
 * (`.casefile/analysis/<key>--<ref>--<threshold>.<view>.json`), so a restarted server answers the
 * Analysis tab from a file of tens of KB instead of parsing the whole analysis (issue 29: the
 * 11 MB parse was ~0.25 s of a cold token chart); a larger view (every row of a long table) is not.
 */
const VIEW_FILE_MAX_CHARS = 1 << 20;

async function analysisView<V extends object>(ctx: CoreContext, session: ResolvedSession, threshold: number, name: string, make: (analysis: SessionAnalysis) => V): Promise<V> {
  const { stamp, side } = await analysisStamp(session, threshold);
  const value = await views.getOrBuild(`${session.filePath}\n${name}`, stamp, async () => {
    const file = analysisFile(ctx, session, `${threshold}.${name.replace(/[^a-z0-9]+/gi, "-")}.json`);
    const stored = await readCache<V>(file, stamp, "view");
    if (stored) return { value: stored.value, bytes: 2 * stored.textBytes };
    const view = make(await analysisFor(ctx, session, threshold, side, stamp));
    const text = JSON.stringify(view);
    if (text.length <= VIEW_FILE_MAX_CHARS) await writeFileAtomic(file, `{"stamp":${JSON.stringify(stamp)},"view":${text}}`, { durable: false }).catch(() => undefined);
    return { value: view, bytes: 2 * text.length };
  });
  return value as V;
}

/**
 * Brings in step what the Analysis tab of a session reads first (its token chart and its summary
 * cut to `summaryRows`), in memory and in their view files: `casefile prepare`'s warm-up
 * (lib/catalog/warm) calls it so the first visit after it reads tens of KB. Computes the analysis
 * when it is not stored.
 * @throws the fs error when the session file cannot be read.
 */
export async function warmAnalysisViews(ctx: CoreContext, session: ResolvedSession, summaryRows: number): Promise<void> {
  const threshold = analyzeSessionInputSchema.shape.threshold.parse(undefined);
  await analysisView(ctx, session, threshold, "chart", (a) => tokenChartOf(a));
  await analysisView(ctx, session, threshold, `summary:${summaryRows}`, (a) => analysisSummaryOf(a, summaryRows));
}

/** Path of the chat export paired with a session (seed 003 Q2), or null. */
export async function pairedExportPath(session: ResolvedSession): Promise<string | null> {
  const names = (await listSideFiles(session, EXPORTS_SUBDIR)) ?? [];
  return names[0] ? path.join(sessionSideDir(session), EXPORTS_SUBDIR, names[0]) : null;
}

async function sideFiles(session: ResolvedSession): Promise<SessionSideFiles> {
  const exportPath = await pairedExportPath(session);
  const exportSize = exportPath ? (await fs.stat(exportPath)).size : 0;
  return {
    toolResultFiles: await listSideFiles(session, "tool-results"),
    hasSubagents: (await listSubagents(session)).length > 0,
    export: exportPath ? { file_name: path.basename(exportPath), size_bytes: exportSize } : null,
  };
}

async function readRiskCache(file: string, stamp: string): Promise<SessionRisk | null> {
  const stored = await readStoredRisk(file);
  return stored && stored.stamp === stamp ? stored.risk : null;
}

/** The risk file's risk and the file version (stamp) it belongs to, or null when missing or malformed. */
async function readStoredRisk(file: string): Promise<{ stamp: string; risk: SessionRisk } | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, "utf8")) as { stamp?: unknown; risk?: { risk_level?: unknown; reset_count?: unknown } };
    const risk = parsed.risk;
    const level = RISK_LEVELS.find((l) => l === risk?.risk_level);
    return typeof parsed.stamp === "string" && level && typeof risk?.reset_count === "number" ? { stamp: parsed.stamp, risk: { risk_level: level, reset_count: risk.reset_count } } : null;
  } catch {
    return null;
  }
}

/** The value under `field` of a stored cache file when its stamp is `stamp`, with the file's length in characters; null when missing, stale or malformed. */
async function readCache<T>(file: string, stamp: string, field: "analysis" | "view"): Promise<{ value: T; textBytes: number } | null> {
  try {
    const text = await fs.readFile(file, "utf8");
    const parsed = JSON.parse(text) as { stamp?: string } & Partial<Record<typeof field, T>>;
    const value = parsed[field];
    return parsed.stamp === stamp && value ? { value, textBytes: text.length } : null;
  } catch {
    return null;
  }
}

/**
 * `read_chat_export` (dashboard): the chat export paired with a session, with its tool lines
 * linked to the transcript lines of those tool calls; `export: null` when none is paired.
 */
export async function getChatExport(
  ctx: CoreContext,
  input: { project_key: string; session_ref: string },
): Promise<ReadChatExportResult | AnalyzeSessionInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  const exportPath = await pairedExportPath(resolved.session);
  const chat = exportPath ? await readChatExport(exportPath, path.basename(exportPath), resolved.session.filePath, resolved.session.row.source) : null;
  return { status: "ok", project_key: input.project_key, session_ref: input.session_ref, export: chat };
}
