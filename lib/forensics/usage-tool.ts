// `get_usage` (issue 28): tokens and cost of the workspace's sessions by day, week, month, model, project or session.
import type { CoreContext } from "@/lib/context";
import { defineTool } from "@/lib/tools/define-tool";
import { loadPricing } from "@/lib/usage/pricing";
import { usageReport, type SessionUsageEntry } from "@/lib/usage/report";
import { getUsageInputSchema, type GetUsageInput, type UsageRow, type UsageTotals } from "@/lib/usage/schema";
import { loadWorkspace } from "@/lib/workspace/load";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import { getSession } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";

/** The `get_usage` result: rows sorted by key, their totals, and the prices used. */
export type GetUsageResult = {
  status: "ok";
  group_by: GetUsageInput["group_by"];
  timezone: string;
  rows: UsageRow[];
  totals: UsageTotals;
  pricing: { source: string; snapshot_date: string; override: string | null };
};

/**
 * Reads the usage of every Claude Code and Codex session of the workspace (or of `project_key`)
 * through lib/usage and groups it ({@link usageReport}).
 * @throws AppError parse_error for a bad price override file; AppError not_found for an unknown project_key.
 */
export async function getUsage(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | { status: "invalid"; errors: { field: string; message: string; hint: string }[] }> {
  const ws = await loadWorkspace(ctx);
  const projects = input.project_key === undefined ? ws.projects : ws.projects.filter((p) => p.projectKey === input.project_key);
  if (input.project_key !== undefined && projects.length === 0) {
    return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${input.project_key}'`, hint: "use a project_key from list_projects" }] };
  }
  const entries: SessionUsageEntry[] = [];
  for (const p of projects) {
    for (const row of p.rows) {
      if (row.source !== "claude-code" && row.source !== "codex") continue;
      if (input.source !== undefined && row.source !== input.source) continue;
      const session = await getSession(ctx, p.projectKey, row.session_ref).catch(() => null);
      if (session === null) continue;
      entries.push({ project_key: p.projectKey, session_ref: row.session_ref, session_id: row.source_session_id, source: row.source, usage: await readSessionUsage(ctx, session) });
    }
  }
  const { rows, totals } = usageReport(entries, input);
  const pricing = await loadPricing(pricingOverrideFile(ctx.workspaceRoot));
  return { status: "ok", group_by: input.group_by, timezone: input.timezone ?? "UTC", rows, totals, pricing: { source: pricing.source, snapshot_date: pricing.snapshotDate, override: pricing.override } };
}

/** `get_usage`: read-only, through every door. */
export const getUsageTool = defineTool({
  name: "get_usage",
  title: "Get usage",
  description:
    "Tokens and cost in USD of the workspace's Claude Code and Codex sessions, grouped by day, week (Monday start), month, model, project or session (ccusage-like reports). Each row: key, input_tokens (not read from cache), output_tokens, cache_creation_tokens, cache_read_tokens, total_tokens, cost_usd (null when no model could be priced; unpriced_models are left out of it), models; session rows carry session_id (the source's id), project_key and session_ref. Filters: since/until (YYYY-MM-DD, inclusive, in timezone, default UTC), project_key, source. Claude messages are counted once by message id + request id with their final usage, subagents included; prices are the LiteLLM snapshot ccusage bundles, plus the workspace's .casefile-config/pricing.json. Read-only.",
  readOnly: true,
  input: getUsageInputSchema,
  inputHint: "group_by is day, week, month, model, project or session; dates are YYYY-MM-DD",
  run: (ctx, input) => getUsage(ctx, input),
});
