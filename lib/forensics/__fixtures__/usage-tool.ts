// Test oracle of `get_usage` (issue 28): tokens and cost of the workspace's sessions by day, week, month, model, project or session, read from every transcript.
import type { CoreContext } from "@/lib/context";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { loadPricing } from "@/lib/usage/pricing";
import { usageReport, type SessionUsageEntry } from "@/lib/usage/report";
import type { GetUsageInput, GetUsageResult } from "@/lib/usage/schema";
import { loadWorkspace } from "@/lib/workspace/load";
import { sessionMachine } from "@/lib/workspace/machines";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import { getSession } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";
import { transcriptFormat } from "@/lib/sources/transcript-formats";

/**
 * Reads the usage of every Claude Code and Codex session of the workspace (or of `project_key`)
 * through lib/usage and groups it ({@link usageReport}): O(bytes of the workspace). The
 * `get_usage` tool reads the same from the catalog (lib/catalog/usage, issue 25); this is its
 * test oracle.
 * @throws AppError parse_error for a bad price override file; AppError not_found for an unknown project_key.
 */
export async function getUsage(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | ToolInputInvalid> {
  const ws = await loadWorkspace(ctx);
  const projects = input.project_key === undefined ? ws.projects : ws.projects.filter((p) => p.projectKey === input.project_key);
  if (input.project_key !== undefined && projects.length === 0) {
    return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${input.project_key}'`, hint: "use a project_key from list_projects" }] };
  }
  const entries: SessionUsageEntry[] = [];
  for (const p of projects) {
    for (const row of p.rows) {
      // The oracle predates the agents (issue 38): the JSONL transcripts only.
      if (transcriptFormat(row.source) === null) continue;
      if (input.source !== undefined && row.source !== input.source) continue;
      const session = await getSession(ctx, p.projectKey, row.session_ref).catch(() => null);
      if (session === null) continue;
      entries.push({ project_key: p.projectKey, session_ref: row.session_ref, session_id: row.source_session_id, source: row.source, machine: sessionMachine(p.dir, row.session_ref), usage: await readSessionUsage(ctx, session) });
    }
  }
  const { rows, totals } = usageReport(entries, input);
  const pricing = await loadPricing(pricingOverrideFile(ctx.workspaceRoot));
  return { status: "ok", group_by: input.group_by, timezone: input.timezone ?? "UTC", rows, totals, pricing: { source: pricing.source, snapshot_date: pricing.snapshotDate, override: pricing.override } };
}
