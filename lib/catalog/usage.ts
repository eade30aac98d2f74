// get_usage from the catalog (issue 25): the usage buckets every session's row keeps, grouped by lib/usage's report, in O(rows), not O(bytes).

import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import { catalogDb, withCatalog } from "@/lib/catalog/catalog";
import { ensureProjects } from "@/lib/catalog/ensure";
import { sessionTokenTotals } from "@/lib/catalog/row-facts";
import type { CoreContext } from "@/lib/context";
import { resolveInside } from "@/lib/fs/paths";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { loadPricing } from "@/lib/usage/pricing";
import { usageReport, type SessionUsageEntry } from "@/lib/usage/report";
import type { GetUsageInput, GetUsageResult } from "@/lib/usage/schema";
import type { UsageBucket } from "@/lib/usage/session-usage";
import { loadWorkspace } from "@/lib/workspace/load";
import { localMachine } from "@/lib/workspace/machines";
import { pricingStamp } from "@/lib/workspace/session-usage";
import { pricingOverrideFile } from "@/lib/workspace/sources";
import { SqlWhere } from "@/lib/catalog/where";

/** Hours a day in any time zone can start before UTC's (UTC+14): a session ending that much before `since` (UTC) has nothing from it on. */
const ZONE_AHEAD_MS = 14 * 3600_000;

type UsageRowOfCatalog = { id: number; project_key: string; session_ref: string; source_session_id: string; source: string; machine: string | null; usage_buckets: string | null; usage_stamp: string | null };

/**
 * `get_usage` (issue 28's report) read from the catalog: the same result as reading every
 * session's transcripts (`getUsage` in lib/forensics/__fixtures__/usage-tool, the test oracle),
 * but from the buckets each session's row keeps. Projects whose files moved are brought in step
 * first; rows priced under another price override file are recomputed (once). With `since`,
 * sessions that ended days before it are not read at all.
 * @throws AppError parse_error for a bad price override file; AppError not_found | parse_error from the workspace loader.
 */
export function catalogUsage(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | ToolInputInvalid> {
  return withCatalog(ctx, () => catalogUsageOnce(ctx, input));
}

async function catalogUsageOnce(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | ToolInputInvalid> {
  const ws = await loadWorkspace(ctx);
  if (input.project_key !== undefined && !ws.projects.some((p) => p.projectKey === input.project_key)) {
    return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${input.project_key}'`, hint: "use a project_key from list_projects" }] };
  }
  const pricing = await loadPricing(pricingOverrideFile(ctx.workspaceRoot));
  await ensureProjects(ctx);
  const db = catalogDb(ctx);
  const where = new SqlWhere(["missing = 0", `source IN (${TRANSCRIPT_SOURCES.map((s) => `'${s}'`).join(", ")})`])
    .add("project_key = @project_key", "project_key", input.project_key)
    .add("source = @source", "source", input.source)
    .add("machine = @machine", "machine", input.machine);
  // A bucket without a time is left out of any dated report (lib/usage/report), so is a session without a timed bucket.
  if (input.since !== undefined) where.add("usage_last_ms >= @since_ms", "since_ms", Date.parse(`${input.since}T00:00:00Z`) - ZONE_AHEAD_MS);
  else if (input.until !== undefined) where.add("usage_last_ms IS NOT NULL");
  const rows = db.prepare(`SELECT id, project_key, session_ref, source_session_id, source, machine, usage_buckets, usage_stamp FROM sessions WHERE ${where.sql}`).all(where.params) as UsageRowOfCatalog[];
  const stamp = pricingStamp(ctx.workspaceRoot);
  const entries: SessionUsageEntry[] = [];
  for (const r of rows) {
    const buckets = r.usage_stamp === stamp && r.usage_buckets !== null ? r.usage_buckets : await repriced(ctx, ws, r);
    if (buckets === null) continue;
    entries.push({ project_key: r.project_key, session_ref: r.session_ref, session_id: r.source_session_id, source: r.source, machine: r.machine ?? localMachine(), usage: { buckets: parseBuckets(buckets) } });
  }
  const { rows: reportRows, totals } = usageReport(entries, input);
  return { status: "ok", group_by: input.group_by, timezone: input.timezone ?? "UTC", rows: reportRows, totals, pricing: { source: pricing.source, snapshot_date: pricing.snapshotDate, override: pricing.override } };
}

/** A row priced under another override file: its usage read again (lib/usage caches it) and stored; null when its file is gone. */
async function repriced(ctx: CoreContext, ws: Awaited<ReturnType<typeof loadWorkspace>>, r: UsageRowOfCatalog): Promise<string | null> {
  const project = ws.projects.find((p) => p.projectKey === r.project_key);
  const row = project?.rows.find((x) => x.session_ref === r.session_ref);
  if (!project || !row) return null;
  let filePath: string;
  try {
    filePath = await resolveInside(project.dir, row.session_path);
  } catch {
    return null;
  }
  const facts = await sessionTokenTotals(ctx, { project, row, filePath });
  catalogDb(ctx)
    .prepare("UPDATE sessions SET output_tokens = ?, total_tokens = ?, cost_usd = ?, usage_buckets = ?, usage_last_ms = ?, usage_stamp = ? WHERE id = ?")
    .run(facts.output_tokens, facts.total_tokens, facts.cost_usd, facts.usage_buckets, facts.usage_last_ms, facts.usage_stamp, r.id);
  return facts.usage_buckets;
}

function parseBuckets(json: string): UsageBucket[] {
  // JSON has no NaN: an untimed bucket's start was written as null.
  return (JSON.parse(json) as (Omit<UsageBucket, "startMs"> & { startMs: number | null })[]).map((b) => ({ ...b, startMs: b.startMs ?? Number.NaN }));
}
