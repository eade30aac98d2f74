/** Tests of analyze_session and its stored analyses and risk. */
import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

import { TABLE_ROWS } from "@/lib/analysis/analysis-view";
import { warmAnalysisViews } from "@/lib/analysis/session-analysis";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { resolveSession } from "@/lib/workspace/sessions";
import { callTool } from "@/lib/tools/registry";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace, type PrepareSummary } from "@/lib/workspace/prepare";

const EXAMPLES = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples");
const CALL = { door: "cli" as const };

describe.skipIf(!HAS_SHARED)(`prepare keeps chat exports; analyze_session and list_sessions risk (${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE})`, () => {
  let ctx: CoreContext;
  let summary: PrepareSummary;
  let extra: string;
  const refs = new Map<string, { project: string; ref: string; dir: string }>();

  beforeAll(async () => {
    ctx = createCoreContext(await makeTempDir("analysis-ws-"), { now: () => new Date("2026-11-23T10:00:00Z") });
    extra = await makeTempDir("analysis-exports-");
    await fs.writeFile(path.join(extra, "stray.txt"), "⏺ Workscope ID: 20991231-235959\n");
    summary = await prepareWorkspace(ctx, { claudeRoots: [EXAMPLES], exportRoots: [extra] });
    for (const p of (await loadWorkspace(ctx)).projects) {
      for (const r of p.rows) refs.set(r.source_session_id, { project: p.projectKey, ref: r.session_ref, dir: path.join(p.dir, path.dirname(r.session_path)) });
    }
  });

  it("pairs every example's export by Workscope ID, copies it beside its session, reports the stray one", async () => {
    expect(summary.exports.paired).toBe(9);
    expect(summary.exports.unpaired).toEqual([{ path: path.join(extra, "stray.txt"), workscope_id: "20991231-235959", reason: "no prepared session has Workscope ID 20991231-235959" }]);
    const good = refs.get("c489af7a-584d-4276-a76c-ddb29f988ace")!;
    expect(await fs.readdir(path.join(good.dir, "c489af7a-584d-4276-a76c-ddb29f988ace", "exports"))).toEqual(["2.0.58-good.txt"]);
  });

  it("analyze_session: 2.0.58-bad resets at 36, 57, 69, high risk, flat-era agents attached, export paired", async () => {
    const s = refs.get("3020c1e3-a661-4879-8854-35eb023fd030")!;
    const r = await callTool(ctx, "analyze_session", { project_key: s.project, session_ref: s.ref }, CALL);
    expect(r).toMatchObject({ status: "ok", risk_level: "high", reset_count: 3, has_subagents: true, has_tool_results: false, workscope_id: "20260113-015117", export: { file_name: "2.0.58-bad.txt" } });
    expect((r.resets as { session_line: number }[]).map((x) => x.session_line)).toEqual([36, 57, 69]);
    const again = await callTool(ctx, "analyze_session", { project_key: s.project, session_ref: s.ref, threshold: 100000 }, CALL);
    expect(again.reset_count).toBe(1);
  });

  it("analyze_session returns the seeds' invalid result for bad input and unknown sessions", async () => {
    const s = refs.get("3020c1e3-a661-4879-8854-35eb023fd030")!;
    expect(await callTool(ctx, "analyze_session", { project_key: s.project, session_ref: "S9999" }, CALL)).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
    expect(await callTool(ctx, "analyze_session", { project_key: s.project, session_ref: s.ref, threshold: 0 }, CALL)).toMatchObject({ status: "invalid", errors: [{ field: "threshold" }] });
  });

  it("read_analysis_summary and read_token_chart (issue 29) give the Analysis tab the analysis cut and compact, the same figures as analyze_session", async () => {
    const s = refs.get("3020c1e3-a661-4879-8854-35eb023fd030")!;
    const full = await callTool(ctx, "analyze_session", { project_key: s.project, session_ref: s.ref }, CALL);
    const summary = await callTool(ctx, "read_analysis_summary", { project_key: s.project, session_ref: s.ref, rows: 2 }, CALL);
    expect(summary).toMatchObject({ status: "ok", risk_level: "high", reset_count: 3, workscope_id: "20260113-015117", marker_count: (full.markers as unknown[]).length });
    expect(summary.resets).toEqual((full.resets as unknown[]).slice(0, 2));
    expect(summary.reads).toMatchObject({ total: (full.reads as unknown[]).length, rows: (full.reads as unknown[]).slice(0, 2) });
    expect(summary).not.toHaveProperty("token_points");
    const chart = await callTool(ctx, "read_token_chart", { project_key: s.project, session_ref: s.ref }, CALL);
    const points = full.token_points as { line: number; cache_read: number }[];
    expect(chart).toMatchObject({ status: "ok", point_total: points.length, reset_total: 3, line_count: full.line_count });
    expect((chart.points as { line: number[] }).line).toEqual(points.map((p) => p.line));
    expect((chart.points as { cache_read: number[] }).cache_read).toEqual(points.map((p) => p.cache_read));
    expect((chart.markers as { session_line: number }[]).map((m) => m.session_line)).toEqual([36, 57, 69]);
    expect(await callTool(ctx, "read_token_chart", { project_key: s.project, session_ref: "S9999" }, CALL)).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
    expect(await callTool(ctx, "read_analysis_summary", { project_key: s.project, session_ref: s.ref, rows: 0 }, CALL)).toMatchObject({ status: "invalid", errors: [{ field: "rows" }] });
  });

  it("warmAnalysisViews stores the Analysis tab's chart and summary beside the analysis, as read_token_chart and read_analysis_summary answer them", async () => {
    const s = refs.get("c489af7a-584d-4276-a76c-ddb29f988ace")!;
    const resolved = await resolveSession(ctx, s.project, s.ref);
    if (!resolved.ok) throw new Error(resolved.failure.message);
    await warmAnalysisViews(ctx, resolved.session, TABLE_ROWS);
    const stored = async (view: string) => JSON.parse(await fs.readFile(derivedPath(ctx.workspaceRoot, "analysis", `${s.project}--${s.ref}--10000.${view}.json`), "utf8")) as { stamp: string; view: object };
    const strip = ({ status: _s, project_key: _p, session_ref: _r, ...rest }: Record<string, unknown>) => rest;
    const chart = await stored("chart");
    expect(chart.view).toEqual(strip(await callTool(ctx, "read_token_chart", { project_key: s.project, session_ref: s.ref }, CALL)));
    const summary = await stored(`summary-${TABLE_ROWS}`);
    expect(summary.view).toEqual(strip(await callTool(ctx, "read_analysis_summary", { project_key: s.project, session_ref: s.ref, rows: TABLE_ROWS }, CALL)));
    // Both belong to the analysis' file version: the stamp the whole analysis is stored under.
    const analysis = JSON.parse(await fs.readFile(derivedPath(ctx.workspaceRoot, "analysis", `${s.project}--${s.ref}--10000.json`), "utf8")) as { stamp: string };
    expect([chart.stamp, summary.stamp]).toEqual([analysis.stamp, analysis.stamp]);
  });

  it("list_sessions carries risk_level and reset_count, sorts by reset_count and filters by risk", async () => {
    const s = refs.get("3020c1e3-a661-4879-8854-35eb023fd030")!;
    const all = await callTool(ctx, "list_sessions", { project_key: s.project, sort: "reset_count", order: "desc", limit: 500 }, CALL);
    const rows = all.sessions as { reset_count: number; risk_level: string }[];
    expect(rows.map((r) => r.reset_count)).toEqual([...rows.map((r) => r.reset_count)].sort((a, b) => b - a));
    const high = await callTool(ctx, "list_sessions", { project_key: s.project, risk: "high", limit: 500 }, CALL);
    const highRows = high.sessions as { reset_count: number; risk_level: string }[];
    expect(highRows.length).toBe(rows.filter((r) => r.risk_level === "high").length);
    expect(highRows.length).toBeGreaterThan(0);
    expect(highRows.length).toBeLessThan(rows.length);
    expect(highRows.every((r) => r.reset_count >= 2)).toBe(true);
  });
});
