import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import type { TokenChartLoad } from "@/lib/analysis/schema";
import { readAnalysisSummaryTool, readChatExportTool, readTokenChartTool } from "@/lib/analysis/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { listSessionsTool } from "@/lib/catalog/tools";
import { getCoreContext } from "@/server/core";

/**
 * A session's seed 003 analysis as the Analysis page shows it (`read_analysis_summary`: each table
 * cut to `rows` rows, all when null), or the not-found page.
 */
export const getAnalysisSummaryQuery = cache(async (projectKey: string, sessionRef: string, rows: number | null) => {
  const result = await invokeToolForUi(getCoreContext(), readAnalysisSummaryTool, { project_key: projectKey, session_ref: sessionRef, rows: rows ?? undefined });
  if (result.status !== "ok") notFound();
  return result;
});

/**
 * A session's token chart (`read_token_chart`), read with the Analysis page rather than fetched
 * after hydration (issue 29: the chart's own request loaded a second route's modules on a cold
 * server). Never rejects: an invalid input or a read error comes back as its message.
 */
export const getTokenChartQuery = cache(async (projectKey: string, sessionRef: string): Promise<TokenChartLoad> => {
  try {
    const result = await invokeToolForUi(getCoreContext(), readTokenChartTool, { project_key: projectKey, session_ref: sessionRef });
    if (result.status !== "ok") return { ok: false, message: "errors" in result ? result.errors.map((e) => e.message).join("; ") : "unreadable session" };
    const { status: _status, project_key: _key, session_ref: _ref, ...chart } = result;
    return { ok: true, chart };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
});

/** A session's paired chat export (null when none), or the not-found page. */
export const getChatExportQuery = cache(async (projectKey: string, sessionRef: string) => {
  const result = await invokeToolForUi(getCoreContext(), readChatExportTool, { project_key: projectKey, session_ref: sessionRef });
  if (result.status !== "ok") notFound();
  return result.export;
});

/** How many of a project's sessions are at high risk (seed 003), through `list_sessions`. */
export const getProjectRiskQuery = cache(async (projectKey: string) => {
  const ctx = getCoreContext();
  const high = await invokeToolForUi(ctx, listSessionsTool, { project_key: projectKey, risk: "high", limit: 1 });
  const all = await invokeToolForUi(ctx, listSessionsTool, { project_key: projectKey, limit: 1 });
  // list_sessions may answer for a control-plane project too (no risk there): only numbers count.
  const count = (r: { status: string; total?: unknown }) => (r.status === "ok" && typeof r.total === "number" ? r.total : null);
  const [h, t] = [count(high), count(all)];
  const pending = "risk_pending" in all && Array.isArray(all.risk_pending) ? all.risk_pending.length : 0;
  return h !== null && t !== null ? { high: h, total: t, pending } : null;
});
