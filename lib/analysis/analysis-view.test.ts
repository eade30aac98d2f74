/** Tests of the token chart's points, resets and series (lib/analysis/analysis-view). */
import { describe, expect, it } from "vitest";

import { analysisSummaryOf, chartPoints, chartResets, MAX_CHART_MARKERS, tokenChartOf } from "@/lib/analysis/analysis-view";
import type { ContextReset, FileRead, SessionAnalysis, TokenPoint } from "@/lib/analysis/schema";

const point = (line: number, cacheRead: number): TokenPoint => ({ line, cache_read: cacheRead, cache_creation: 0, input: 1, output: 1 });

describe("chartPoints", () => {
  it("keeps every point of a small series", () => {
    const points = [point(1, 5), point(2, 9)];
    expect(chartPoints(points, new Set(), 10)).toBe(points);
  });

  it("thins a long series to about the cap, in line order, keeping each bucket's low and high and every kept line", () => {
    const points = Array.from({ length: 10_000 }, (_, i) => point(i + 1, i % 500 === 250 ? 10 : 1000 + (i % 7)));
    const kept = chartPoints(points, new Set([4242, 7777]), 200);
    expect(kept.length).toBeLessThanOrEqual(202);
    expect(kept.map((p) => p.line)).toEqual([...kept.map((p) => p.line)].sort((a, b) => a - b));
    expect(kept.some((p) => p.line === 4242)).toBe(true);
    expect(kept.some((p) => p.line === 7777)).toBe(true);
    // Every drop to 10 (one per 500 points, a bucket holds 100) is still drawn.
    expect(kept.filter((p) => p.cache_read === 10).length).toBe(20);
    expect(Math.max(...kept.map((p) => p.cache_read))).toBe(1006);
  });
});

describe("chartResets", () => {
  const reset = (line: number, from: number, to: number) => ({ session_line: line, from_tokens: from, to_tokens: to });

  it("marks every reset of a session with few", () => {
    const resets = [reset(10, 100, 10), reset(20, 100, 50)];
    expect(chartResets(resets, 100, 5)).toBe(resets);
  });

  it("marks, per stretch of lines, the reset with the largest drop, in line order", () => {
    // 1,000 lines in 4 stretches of 250; 12 resets, three per stretch, the middle one the largest drop.
    const resets = [0, 250, 500, 750].flatMap((base) => [reset(base + 10, 100, 60), reset(base + 20, 100, 5), reset(base + 30, 100, 50)]);
    const kept = chartResets(resets, 1_000, 4);
    expect(kept.map((r) => r.session_line)).toEqual([20, 270, 520, 770]);
    // A stretch without resets marks nothing; the count never passes the cap.
    const sparse = chartResets([reset(1, 9, 1), reset(2, 9, 0), reset(3, 9, 2), reset(999, 9, 1), reset(1000, 9, 3)], 1_000, 4);
    expect(sparse.map((r) => r.session_line)).toEqual([2, 999]);
    expect(chartResets(Array.from({ length: 3_887 }, (_, i) => reset(i * 80 + 1, 1_000, i % 900)), 318_897).length).toBeLessThanOrEqual(MAX_CHART_MARKERS);
  });
});

const fullReset = (line: number, from: number, to: number): ContextReset => ({ session_line: line, from_tokens: from, to_tokens: to, position_percent: 0, cache_creation_tokens: 0, total_input_tokens: to });
const read = (sequence: number, resetBeforeUse: number | null): FileRead => ({ sequence, line: sequence * 10, tool_use_id: `t${sequence}`, file_path: `/f${sequence}`, batch: 1, result_line: null, success: true, persisted: false, first_use_line: null, last_use_line: null, reset_before_use_line: resetBeforeUse });

function analysis(over: Partial<SessionAnalysis>): SessionAnalysis {
  return {
    source: "claude-code", line_count: 100_000, threshold: 10_000, risk_level: "high", reset_count: 0, resets: [], token_points: [], token_notes: [], reads: [], read_batches: 0,
    persistence: { persisted_reads: [], inline_reads: [], persisted_non_reads: [] }, markers: [], marker_mentions_in_conversation: 0, has_subagents: false, has_tool_results: false,
    workscope_id: null, workscope_id_source: null, export: null, unparsable_lines: 0, ...over,
  };
}

describe("tokenChartOf", () => {
  it("sends the thinned series as columns, every marked reset on a drawn point, and the totals", () => {
    const points = Array.from({ length: 50_000 }, (_, i) => point(2 * i + 1, i % 1000 === 999 ? 5 : 20_000 + i));
    const resets = Array.from({ length: 50 }, (_, i) => fullReset(2 * (1000 * i + 999) + 1, 20_000 + 1000 * i + 998, 5));
    const chart = tokenChartOf(analysis({ token_points: points, resets, reset_count: resets.length }));
    expect(chart.point_total).toBe(50_000);
    expect(chart.points.line.length).toBeLessThanOrEqual(2_050);
    for (const key of ["cache_read", "input"] as const) expect(chart.points[key]).toHaveLength(chart.points.line.length);
    expect(chart.points.cache_creation).toHaveLength(chart.points.line.length);
    expect(chart.reset_total).toBe(50);
    expect(chart.markers).toEqual(resets.map((r) => ({ session_line: r.session_line, from_tokens: r.from_tokens, to_tokens: r.to_tokens })));
    const drawn = new Set(chart.points.line);
    expect(chart.markers.every((m) => drawn.has(m.session_line))).toBe(true);
    // Codex: no cache creation series at all, not zeros.
    const codex = tokenChartOf(analysis({ token_points: [{ ...point(3, 9), cache_creation: null }] }));
    expect(codex.points).toEqual({ line: [3], cache_read: [9], input: [1], cache_creation: null });
  });
});

describe("analysisSummaryOf", () => {
  it("cuts each list to the rows asked for, counts what it cuts, and carries no token points", () => {
    const a = analysis({
      resets: Array.from({ length: 7 }, (_, i) => fullReset(i + 1, 50_000, 1)),
      reset_count: 7,
      reads: [read(1, null), read(2, 40), read(3, null), read(4, 41)],
      persistence: { persisted_reads: ["a", "b"], inline_reads: ["c"], persisted_non_reads: [{ tool_use_id: "x", tool_name: "Bash", file_name: "x.txt" }, { tool_use_id: "y", tool_name: null, file_name: "y.txt" }, { tool_use_id: "z", tool_name: "Grep", file_name: "z.txt" }] },
      markers: [{ line: 3, tool_use_id: "t3", marker: "<persisted-output>" }],
      token_points: [point(1, 1)],
    });
    const s = analysisSummaryOf(a, 2);
    expect(s.resets.map((r) => r.session_line)).toEqual([1, 2]);
    expect(s.reset_count).toBe(7);
    expect(s.reads).toEqual({ rows: [read(1, null), read(2, 40)], total: 4, reset_before_use: 2 });
    expect(s.persistence).toEqual({ persisted_reads: 2, inline_reads: 1, persisted_non_reads: [{ tool_use_id: "x", tool_name: "Bash", file_name: "x.txt" }, { tool_use_id: "y", tool_name: null, file_name: "y.txt" }], persisted_non_reads_total: 3 });
    expect(s.marker_count).toBe(1);
    expect("token_points" in s).toBe(false);
    expect(analysisSummaryOf(a, null).resets).toHaveLength(7);
    // A source without reads keeps the reason, not a made-up empty table.
    const codex = analysisSummaryOf(analysis({ reads: { value: null, reason: "no Read tool" }, persistence: { value: null, reason: "none" } }), 2);
    expect(codex.reads).toEqual({ value: null, reason: "no Read tool" });
    expect(codex.persistence).toEqual({ value: null, reason: "none" });
  });
});
